"""Simulated games: what a wheel sends for one game, line by line, with the pause before each line.

Pure (a seeded random.Random in, bytes and delays out); the simulator plays it on a pseudo-terminal.
Cadence and durations follow the production capture (../shared/captures): a status line every
500 ms; on the SS2 state 2 lasts about 9 s, state 3 about 4 s, state 4 about 26 s and state 5 about
5.5 s, and the winning-number line comes a fraction of a second before the first state-5 line.

Faults, one per game at most (what the wheel shows, and the void the decoder should propose):

- same-direction: the ball turns with the rotor: flag 2 in state 3, then a re-spin.
- ball-removed: the ball leaves the wheel in state 4 (SS2 flag 1 for 7 s; M360 flag 8 with "no ball"),
  then a re-spin.
- sensor-fault: flag 4 in state 4; the SS2 powers down (state 6) and up again, the M360 resets.
- weak-spin: the launch fails (SS2 flag 8 past 3 s of state 3, then the wheel fires again from
  state 2 with flag 8 still set, guide 4.1; M360 flag 8, slow launch), re-spin.
- garbage: noise on the line (bytes that are not ASCII, a truncated line glued to the next, a line
  that lost its start, a line split across two writes); the game itself is normal.

The rotor turns the other way for every launch, a re-spin after a void included: the SS2 reverses
before each firing of the ball, its automatic retries too (production capture, games 7, 43, 52 and
114), and a croupier at the Mercury keeps `PT-A 21` on the re-spin (guide 5.3 allows either way).
After a power cycle the SS2 idles clockwise, so its first launch is anticlockwise whatever came
before (capture, games 178 and 179).

The lines that hold a condition the decoder times (SS2 flag 1 for over 5 s in state 4, flag 8 past
3 s of state 3) are marked `realtime`: a sped-up simulator plays them at the wheel's own pace, so a
reader on its own clock, in another process, still sees the condition last long enough.

After a void the M360's croupier puts the ball back in the previous result's pocket (its re-spin
rule), which the extended protocol shows. The basic M360 protocol and the plain line show no fault
but garbage: their wheel just re-spins silently.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from croupier.rules.spin import Direction

from croupier.wheel.registry import FAULTS, Family, protocol as protocol_named

STATUS_INTERVAL_S = 0.5
_NOISE_BYTES = bytes(range(0x80, 0x100)) + b"abcdefghijklmnopqrstuvwxyz!?#%&()"  # never a digit, ';' or '*'


def faults_shown(protocol: str) -> tuple[str, ...]:
    """The faults a protocol's lines can show: without flags, only noise on the line."""
    return FAULTS if protocol_named(protocol).flags else ("garbage",)


@dataclass(frozen=True)
class Emission:
    delay: float  # seconds to wait (at speed 1) before writing `data`
    data: bytes
    realtime: bool = False  # the pause is kept at any speed: a condition the decoder times


@dataclass(frozen=True)
class PlannedGame:
    game: int | None  # the game counter the decoder should report (None where the protocol has none)
    number: int
    direction: Direction  # the rotor direction of the spin that gave the number
    fault: str | None
    emissions: tuple[Emission, ...]
    launches: tuple[Direction, ...] = ()  # the rotor direction of every launch, void ones included


def _code(direction: Direction) -> str:
    return "0" if direction is Direction.CLOCKWISE else "1"


def _pocket(number: int | None, empty: str = "  ") -> str:
    return empty if number is None else f"{number:>2}"


@dataclass
class _Ball:
    """M360 extended fields for one status line."""

    in_pocket: int | None = None  # the pocket the ball sits in, None when it is not in one
    present: bool = True
    revolutions: int = 0
    direction: Direction | None = None
    period: int | None = None  # one revolution in 1/32768 s


@dataclass
class _Script:
    emissions: list[Emission] = field(default_factory=list)
    launches: list[Direction] = field(default_factory=list)

    def add(self, text: str, delay: float = STATUS_INTERVAL_S, realtime: bool = False) -> None:
        self.emissions.append(Emission(delay, text.encode("ascii") + b"\r\n", realtime))


class SimulatedWheel:
    """One wheel's state from game to game: counter, last number, rotor direction."""

    def __init__(self, protocol: str, rng: random.Random, first_game: int = 1):
        self.kind = protocol_named(protocol)  # what its lines show, not its name, decides what is written
        self.protocol = protocol
        self.rng = rng
        self.spin = (first_game - 1) % 256 + 1  # SS2: spins since power on, 1-256
        self.completed = (first_game - 1) % 256  # M360: games completed, 0-255
        self.direction = Direction.CLOCKWISE
        self.last_number: int | None = None

    # -- public ----------------------------------------------------------------------------------

    def opening(self) -> tuple[Emission, ...]:
        """What the wheel sends between power-on and the first game."""
        script = _Script()
        if self.kind.family is Family.SS2:
            for _ in range(4):
                self._ss2(script, 1, 0, 165)
        elif self.kind.family is Family.M360 and self.kind.status_lines:
            for _ in range(3):
                self._m360(script, 1, 0, 240, _Ball(present=False))
        return tuple(script.emissions)

    def closed(self) -> Emission:
        """One status line of a wheel at rest with the table closed (SS2 state 6), where it answers
        its log queries."""
        script = _Script()
        self._ss2(script, 6, 0, 0)
        return script.emissions[0]

    def play(self, number: int | None = None, fault: str | None = None) -> PlannedGame:
        if fault is not None and fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}; use one of: {', '.join(FAULTS)}")
        if number is None:
            number = self.rng.randrange(37)
        elif number not in range(37):
            raise ValueError(f"{number} is not a pocket (0-36)")
        script = _Script()
        if self.kind.family is Family.SS2:
            game = self.spin
            direction = self._ss2_game(script, number, fault)
            self.spin = self.spin % 256 + 1
        elif self.kind.family is Family.LINE:
            game, direction = None, self.direction.opposite()
            script.launches.append(direction)
            self._line_game(script, number)
        else:
            game = (self.completed + 1) % 256 if self.kind.game_counter else None
            direction = self._m360_game(script, number, fault)
        self.direction = direction
        self.last_number = number
        emissions = tuple(script.emissions)
        if fault == "garbage":
            emissions = self._add_noise(emissions)
        return PlannedGame(game, number, direction, fault, emissions, tuple(script.launches))

    # -- Slingshot 2 -----------------------------------------------------------------------------

    def _ss2(self, script: _Script, state: int, flags: int, rpm: int, direction: Direction | None = None,
             delay: float = STATUS_INTERVAL_S, realtime: bool = False) -> None:
        direction = direction or self.direction
        script.add(
            f"*X;{state};{self.spin:03d};{_pocket(self.last_number)};{flags:X};{rpm:03d};{_code(direction)}", delay,
            realtime,
        )

    def _ss2_launch(self, script: _Script, flags: int = 0) -> None:
        """State 2 up to a firing: the rotor slows to the firing position, stops and turns the other
        way (mode 1). The SS2 does this before every firing, a re-spin or a retry included; `flags`
        is 8 while it retries a launch that failed (production capture, lines 478-555)."""
        rng, old = self.rng, self.direction
        new = old.opposite()
        for _ in range(rng.randint(6, 9)):
            self._ss2(script, 2, flags, rng.randint(166, 178), old)
        for rpm in (130, 70, 10, 1, 0, 0):
            self._ss2(script, 2, flags, rpm, old)
        for rpm in (35, 131, 169):
            self._ss2(script, 2, flags, rpm, new)
        self.direction = new
        script.launches.append(new)

    def _ss2_run(self, script: _Script, state: int, lines: int, flags: int = 0, realtime: bool = False) -> None:
        for _ in range(lines):
            self._ss2(script, state, flags, self.rng.randint(165, 175), realtime=realtime)

    def _ss2_game(self, script: _Script, number: int, fault: str | None) -> Direction:
        rng = self.rng
        self._ss2_launch(script)
        if fault == "same-direction":
            self._ss2_run(script, 3, 6, flags=0x2)
            self._ss2_launch(script)  # the host acknowledges with *R: a re-spin from state 2
        elif fault == "weak-spin":
            self._ss2_run(script, 3, 9, flags=0x8, realtime=True)  # still set 4 s into state 3
            self._ss2_launch(script, flags=0x8)  # the wheel fires again (guide 4.1)
        self._ss2_run(script, 3, rng.randint(5, 11))
        if fault == "ball-removed":
            self._ss2_run(script, 4, 8)
            self._ss2_run(script, 4, 14, flags=0x1, realtime=True)  # 7 s: past the 5 s the guide tolerates
            self._ss2_launch(script)
            self._ss2_run(script, 3, rng.randint(5, 11))
        elif fault == "sensor-fault":
            self._ss2_run(script, 4, 6)
            for rpm in (120, 60, 10, 0, 0, 0, 0, 0):
                self._ss2(script, 4, 0x4, rpm)
            self.direction = Direction.CLOCKWISE  # powered down, the SS2 idles clockwise (capture 19095-19185)
            for _ in range(6):
                self._ss2(script, 6, 0x4, 0)  # the wheel powers down (guide 4.1)
            for rpm in (44, 137, 151, 152):
                self._ss2(script, 1, 0, rpm)  # and is powered up again
            self._ss2_launch(script)
            self._ss2_run(script, 3, rng.randint(5, 11))
        self._ss2_run(script, 4, rng.randint(40, 60))
        early = rng.choice((0.1, 0.2, 0.3, 0.4))
        script.add(_pocket(number), early)
        self.last_number = number
        self._ss2(script, 5, 0, rng.randint(165, 175), delay=STATUS_INTERVAL_S - early)
        for _ in range(rng.randint(8, 13)):
            self._ss2(script, 5, 0, rng.randint(165, 175))
        return self.direction

    # -- Mercury 360 -----------------------------------------------------------------------------

    def _m360(self, script: _Script, state: int, flags: int, rpm: int, ball: _Ball,
              direction: Direction | None = None, delay: float = STATUS_INTERVAL_S, counter: int | None = None) -> None:
        direction = direction or self.direction
        counter = self.completed if counter is None else counter
        text = f"*X;{state};{counter:03d};{_pocket(self.last_number)};{flags:X};{rpm:03d};{_code(direction)}"
        if self.kind.ball_fields:
            ext = 0x02 if 100 <= rpm <= 300 else 0x08 if rpm else 0x01  # guide 4.6.1, written out here
            ext |= 0x10 if direction is Direction.CLOCKWISE else 0x20
            if not ball.present:
                ext |= 0x80
            if ball.in_pocket is not None:
                ext |= 0x100
            text += (
                f";{ext:04X};{ball.revolutions:02X};{'?' if ball.direction is None else _code(ball.direction)}"
                f";{'?????' if ball.period is None else f'{ball.period:05X}'};{_pocket(ball.in_pocket, '??')}"
            )
        script.add(text, delay)

    def _m360_spin(self, script: _Script, rotor: Direction, rpm: int, flags_at: dict[int, int],
                   ball_direction: Direction, weak: bool = False) -> _Ball:
        """States 3 and 4 of one launch; `flags_at` maps a state to the flags shown in it."""
        rng = self.rng
        period = 19661  # 0.6 s per revolution, slowing
        ball = _Ball(direction=ball_direction, period=period)
        for state, lines in ((3, rng.randint(5, 9)), (4, 0 if weak else rng.randint(36, 50))):
            for _ in range(lines):
                ball.revolutions = min(ball.revolutions + (1 if rng.random() < 0.7 else 0), 0xFF)
                ball.period = period = min(period + rng.randint(200, 900), 0xFFFFF)
                self._m360(script, state, flags_at.get(state, 0), rpm, ball, rotor)
            if weak:
                break
        return ball

    def _m360_respin(self, script: _Script, state: int, flags: int, rpm: int, rotor: Direction) -> None:
        # The Mercury's re-spin rule: the ball goes back in the last winning pocket for 2 revolutions.
        pocket = 0 if self.last_number is None else self.last_number
        for _ in range(4):
            self._m360(script, state, flags, rpm, _Ball(in_pocket=pocket), rotor)

    def _m360_game(self, script: _Script, number: int, fault: str | None) -> Direction:
        rng = self.rng
        rotor = self.direction.opposite()  # PT-A 21: launch direction alternates, rotor against the ball
        rpm = rng.randint(200, 280)
        basic = not self.kind.status_lines  # packets only: *S, *N, *W
        if basic:
            script.add("*S", 2.5)
        else:
            for _ in range(5):
                self._m360(script, 1, 0, rpm, _Ball(in_pocket=self.last_number), rotor)
            for _ in range(rng.randint(16, 22)):
                self._m360(script, 2, 0, rpm, _Ball(present=False), rotor)
        if fault in ("sensor-fault", "same-direction", "weak-spin", "ball-removed") and not basic:
            against = rotor.opposite()
            script.launches.append(rotor)
            if fault == "sensor-fault":
                self._m360_spin(script, rotor, rpm, {}, against)
                for _ in range(6):
                    self._m360(script, 4, 0x4, rpm, _Ball(), rotor)
            elif fault == "same-direction":
                self._m360_spin(script, rotor, rpm, {3: 0x2}, rotor, weak=True)
                self._m360_respin(script, 3, 0x2, rpm, rotor)
            elif fault == "weak-spin":
                self._m360_spin(script, rotor, rpm, {3: 0x8}, against, weak=True)
                self._m360_respin(script, 3, 0x8, rpm, rotor)
            else:
                self._m360_spin(script, rotor, rpm, {}, against)
                for _ in range(6):
                    self._m360(script, 4, 0x8, rpm, _Ball(present=False), rotor)
                self._m360_respin(script, 4, 0x8, rpm, rotor)
            rotor = rotor.opposite()  # the re-spin is a launch too: the other way (guide 5.3, PT-A 21)
            if fault == "sensor-fault":
                for _ in range(4):  # reset (*R): back to state 1, then a new launch of the same game
                    self._m360(script, 1, 0, rpm, _Ball(in_pocket=self.last_number), rotor)
                for _ in range(6):
                    self._m360(script, 2, 0, rpm, _Ball(present=False), rotor)
        script.launches.append(rotor)
        if basic:
            script.add("*N", rng.uniform(8, 12))
            script.add(f"*W {number:>2}", rng.uniform(18, 26))
        else:
            ball = self._m360_spin(script, rotor, rpm, {}, rotor.opposite())
            early = rng.choice((0.1, 0.2, 0.3))
            script.add(_pocket(number), early)
            self.last_number = number
            landed = _Ball(in_pocket=number, revolutions=ball.revolutions)
            self._m360(script, 5, 0, rpm, landed, rotor, delay=STATUS_INTERVAL_S - early, counter=self.completed + 1)
            for _ in range(rng.randint(10, 14)):  # three rotor revolutions (guide 4.7.1)
                self._m360(script, 5, 0, rpm, landed, rotor, counter=self.completed + 1)
        self.completed = (self.completed + 1) % 256
        return rotor

    # -- plain line ------------------------------------------------------------------------------

    def _line_game(self, script: _Script, number: int) -> None:
        script.add(f"{number:>2}", self.rng.uniform(38, 50))

    # -- noise -----------------------------------------------------------------------------------

    def _add_noise(self, emissions: tuple[Emission, ...]) -> tuple[Emission, ...]:
        """Corrupt a few status lines, never the winning-number line, never into a valid line."""
        rng = self.rng
        out = list(emissions)
        for _ in range(2):  # lines of noise between whole lines, on any protocol
            noise = bytes(rng.choice(_NOISE_BYTES) for _ in range(rng.randint(1, 12)))
            out.insert(rng.randint(0, len(out) - 1), Emission(0.05, noise + b"\r\n"))
        candidates = [i for i, e in enumerate(out) if e.data.startswith(b"*") and len(e.data) > 8]
        chosen = zip(("bytes", "truncated", "headless", "split"), rng.sample(candidates, min(4, len(candidates))))
        for kind, index in sorted(chosen, key=lambda pair: -pair[1]):  # from the end: a split adds a write
            line = out[index]
            body = line.data[:-2]
            if kind == "bytes":
                noise = bytes(rng.choice(_NOISE_BYTES) for _ in range(rng.randint(3, 12)))
                out[index] = replace(line, data=noise + b"\r\n" + line.data)
            elif kind == "truncated":  # like `*X;4;14*X;*X;4;146; 9;0;158;0` in the capture
                cut = rng.randint(3, len(body) - 3)
                out[index] = replace(line, data=body[:cut] + line.data)
            elif kind == "headless":  # the start of the line was lost; what is left is over 2 characters
                cut = rng.randint(1, len(body) - 3)
                out[index] = replace(line, data=body[cut:] + b"\r\n")
            else:
                cut = rng.randint(1, len(body) - 1)
                out[index] = replace(line, data=line.data[:cut])
                out.insert(index + 1, Emission(0.05, line.data[cut:]))
        return tuple(out)
