"""What the Slingshot 2 and the Mercury 360 decoders share: the `*X;` status-line game tracker.

Both wheels repeat a status line every 500 ms and send the winning number once, on its own line,
just before the first state-5 status. The rules that hold for both:

- Exactly one result per game, given when the game enters state 5. The wheel says the number twice,
  on its winning-number line and in its state-5 status lines (guide 2.4, 2.5): a number line is
  only heard between states 4 (or the Mercury's 7) and 5, and counts once the first state-5 line
  agrees; when they differ neither counts (`NumberConflict`), and a number line that no state-5
  line follows is dropped. When the number line was lost (or is switched off, operation mode 16)
  one line is no proof (a damaged line can still parse): the first two state-5 lines of the game
  carrying a number must agree, and when they differ neither counts (`NumberConflict` with both).
  The "last number" field of states 1-4 is never a result: it is the previous game's.
- A launch starts when the status enters states 1-2 (or the game counter changes, or, on the
  Mercury, the flags of a voided spin go back to 0: its re-spin). A void the family's rules find
  is proposed once while its condition lasts, and never after the launch's result.
- The decoder never reads a clock: every line is stamped with the time of the bytes that ended it,
  and the time-based rules (flag held for so many seconds) compare those stamps.
- A decoder kept across a reconnect, or told what the journal already holds (`mark_reported`), does
  not report a game twice.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from croupier.rules.spin import Direction, VoidReason
from croupier.wheel import fields
from croupier.wheel.events import (
    EVIDENCE_LINES,
    BallPosition,
    CommandReply,
    NumberConflict,
    VoidSpinNumber,
    WheelEvent,
    WheelFault,
    WheelPhase,
    WheelResult,
    WheelState,
    WheelVoid,
    evidence,
)
from croupier.wheel.framing import FramedDecoder

BALL_IN_PLAY = (WheelPhase.BALL_IN_RIM, WheelPhase.NO_MORE_BETS, WheelPhase.DEALER_LOCK)
NUMBER_LINE_STATES = (WheelPhase.NO_MORE_BETS, WheelPhase.DEALER_LOCK)  # the states just before state 5
EXT_BALL_IN_POCKET = 0x100  # M360 extended flags: the ball sits in a pocket
_REFUSALS = {"NO", "BUSY", "FAIL", "ERROR", "LOCKED", "INVALID"}


@dataclass(frozen=True)
class Extended:
    """The M360 extended-protocol fields (guide section 4.6)."""

    flags: int
    revolutions: int
    ball_direction: Direction | None
    ball_period: int | None  # time of one ball revolution, in 1/32768 s
    pocket: int | None


@dataclass(frozen=True)
class Status:
    state: WheelPhase
    counter: int
    last_number: int | None
    flags: int
    rotor_rpm: float | None
    direction: Direction
    extended: Extended | None = None


@dataclass
class _Spin:
    """One launch of the ball, from states 1-2 to the end of state 5 (decoder-internal)."""

    key: int | None
    state: WheelPhase
    seen_in_play: bool = False  # False when the reader met this game already in state 5
    rim_since: float | None = None
    direction: Direction | None = None
    flag1_since: float | None = None
    revolutions: int | None = None
    voids: list[VoidReason] = field(default_factory=list)  # every void proposed in this spin
    active: set[VoidReason] = field(default_factory=set)  # conditions still reported, not proposed again
    reported: int | None = None
    heard: tuple[int, float] | None = None  # the winning-number line and its time, until state 5
    first_five: tuple[int, float] | None = None  # with no number line: the first state-5 number, until a second agrees
    conflicted: bool = False  # the number line and state 5 differed: nothing is reported
    confirmed: bool = False
    pockets_shown: set[int] = field(default_factory=set)
    lines: list[tuple[float, str]] = field(default_factory=list)  # the evidence: see _keep
    kept: tuple | None = None  # the (state, flags) of the last status line kept


def _group(state: WheelPhase) -> str:
    if state in (WheelPhase.BEFORE_GAME, WheelPhase.PLACE_BETS):
        return "before"
    if state in BALL_IN_PLAY:
        return "in-play"
    return "result" if state == WheelPhase.WINNING_NUMBER else "closed"


def reply_ok(text: str) -> bool | None:
    """True for an OK reply, False for a refusal, None for a reply that carries a value."""
    words = text.split()
    last = words[-1] if words else ""
    return True if last == "OK" else False if last in _REFUSALS else None


def command_reply(text: str, time: float) -> CommandReply:
    """`*u OK` -> command "u", text "OK", ok True; `*T h 60` -> "T", "h 60", None."""
    command, rest = text[1:2], text[2:].strip()
    return CommandReply(command, rest, reply_ok(rest), time)


class StatusLineDecoder(FramedDecoder):
    """Base of the `*X;` decoders. Subclasses parse the status line and say which flags void a spin."""

    protocol = ""
    heartbeat: float | None = 0.5  # seconds between status lines: a silent link is offline
    zero_padded_numbers = False
    bare_replies: re.Pattern[str] | None = None  # replies that do not start with '*'

    def __init__(self, min_ball_revolutions: int | None = None):
        super().__init__(min_ball_revolutions)
        self._spin: _Spin | None = None
        self._last_reported: tuple[int | None, int] | None = None
        self._last_shown: tuple | None = None

    # -- what a family defines -------------------------------------------------------------------

    def parse_status(self, text: str) -> Status:
        raise NotImplementedError

    def game_key(self, status: Status) -> int:
        return status.counter

    def void_checks(self, status: Status, spin: _Spin, time: float) -> list[tuple[VoidReason, str]]:
        return []

    # -- the decoder interface -------------------------------------------------------------------

    def resync(self) -> None:
        """After a reconnect: drop the partial line and the timers that ran while nothing was heard;
        keep what was reported, so the game in progress is not reported again."""
        super().resync()
        if self._spin is not None:
            self._spin.flag1_since = None

    def mark_reported(self, game: int | None, number: int) -> None:
        self._last_reported = (game, number)

    # -- lines -----------------------------------------------------------------------------------

    def _line(self, text: str, time: float, events: list[WheelEvent]) -> None:
        if text.startswith("*X;"):
            try:
                status = self.parse_status(text)
            except fields.FieldError as e:
                events.append(WheelFault(f"status line rejected: {e}", time, text))
                return
            self._status(status, time, events, text)
        elif text.startswith("*"):
            if len(text) < 2:
                events.append(WheelFault("empty packet: a lone '*'", time, text))
            else:
                events.append(command_reply(text, time))
        elif self.bare_replies is not None and self.bare_replies.fullmatch(text):
            events.append(CommandReply("", text.strip(), reply_ok(text), time))
        else:
            self._number_line(text, time, events)

    def _number_line(self, text: str, time: float, events: list[WheelEvent]) -> None:
        try:
            number = fields.pocket(text, "winning-number line", empty=None, zero_padded=self.zero_padded_numbers)
        except fields.FieldError as e:
            events.append(WheelFault(f"not wheel output (a line without '*' can only be a winning number): {e}", time, text))
            return
        spin = self._spin
        if spin is None or spin.state not in NUMBER_LINE_STATES:
            where = "before any status line" if spin is None else f"in state {int(spin.state)}"
            events.append(WheelFault(f"winning-number line {number} {where}: only a line between states 4 and 5 "
                                     "can be a result; this one is not a result", time, text))
        elif spin.reported is not None or spin.heard is not None:
            events.append(WheelFault(f"a second winning-number line in game {spin.key}: ignored", time, text))
        else:
            spin.heard = (number, time)
            spin.lines.append((time, text))

    def _status(self, status: Status, time: float, events: list[WheelEvent], text: str = "") -> None:
        key = self.game_key(status)
        spin = self._spin
        if spin is not None and spin.heard is not None and status.state not in (*NUMBER_LINE_STATES,
                                                                                WheelPhase.WINNING_NUMBER):
            events.append(WheelFault(f"game {spin.key}: the winning-number line {spin.heard[0]} was never confirmed "
                                     "by a state-5 line: not a result", time, ""))
            spin.heard = None
        if spin is not None and self._back_in_play(spin, status, key):
            events.append(WheelFault(f"game {key}: a state-{int(status.state)} line after its result {spin.reported} "
                                     "was counted, with no new launch: ignored", time, text))
            return
        if spin is None or self._starts_new_spin(spin, status, key):
            spin = self._spin = _Spin(key, status.state)
        spin.key = key
        spin.state = status.state
        self._keep(spin, status, time, text)
        if status.state in BALL_IN_PLAY:
            spin.seen_in_play = True
            if spin.direction is None:
                spin.direction = status.direction  # the rotor direction at the launch
        if status.state == WheelPhase.BALL_IN_RIM and spin.rim_since is None:
            spin.rim_since = time
        if status.extended is not None and status.state in (*BALL_IN_PLAY, WheelPhase.WINNING_NUMBER):
            spin.revolutions = status.extended.revolutions
        self._show_state(status, key, time, events)
        found = self.void_checks(status, spin, time)
        if self.respin_clears_voids and spin.active and not found and status.state in BALL_IN_PLAY:
            spin = self._relaunch(spin, status, time)
        spin.active &= {reason for reason, _ in found}  # a condition that cleared may come back as a new void
        for reason, detail in found:
            self._propose_void(reason, detail, time, spin, events)
        self._ball_position(status, spin, time, events)
        if status.state == WheelPhase.WINNING_NUMBER:
            self._state_five(status, spin, time, events)

    @staticmethod
    def _keep(spin: _Spin, status: Status, time: float, text: str) -> None:
        """Keep a status line as evidence when it changes the state or flags, and every state-5 line
        until the number is decided; the 500 ms repeats in between say nothing more."""
        seen = (status.state, status.flags)
        deciding = status.state == WheelPhase.WINNING_NUMBER and spin.reported is None and not spin.conflicted
        if text and (seen != spin.kept or deciding):
            spin.kept = seen
            spin.lines.append((time, text))
            del spin.lines[:-EVIDENCE_LINES]

    def _relaunch(self, voided: _Spin, status: Status, time: float) -> _Spin:
        """A re-spin of the same game without going back to state 2 (M360 guide 5.3)."""
        spin = self._spin = _Spin(voided.key, status.state, seen_in_play=True, direction=status.direction)
        if status.state == WheelPhase.BALL_IN_RIM:
            spin.rim_since = time
        return spin

    @staticmethod
    def _back_in_play(spin: _Spin, status: Status, key: int) -> bool:
        """A line taking a game whose result was counted back into play, with the same counter and no
        states 1-2 between, is damaged: the next game starts with its bets, and only a void's re-spin
        (M360 guide 5.3) goes back into play in the same game. Taken as a launch, it would count the
        game's result twice."""
        return (key == spin.key and spin.reported is not None and not spin.voids
                and _group(spin.state) == "result" and _group(status.state) == "in-play")

    def _starts_new_spin(self, spin: _Spin, status: Status, key: int) -> bool:
        before, now = _group(spin.state), _group(status.state)
        if key != spin.key:
            # The M360 counts a game as it ends, so its counter may move between states 4 and 5.
            return not (before == "in-play" and now == "result")
        return (
            (now == "before" and before != "before")
            or (now == "in-play" and before in ("result", "closed"))
            or (now == "result" and before == "closed")
            or (now == "closed" and before != "closed")
        )

    def _state_five(self, status: Status, spin: _Spin, time: float, events: list[WheelEvent]) -> None:
        number, heard = status.last_number, spin.heard
        spin.heard = None
        if spin.conflicted:
            return
        if spin.reported is not None:
            if number is not None and number != spin.reported:
                events.append(WheelFault(f"game {spin.key}: a state-5 line says {number} after {spin.reported} was "
                                         "counted: ignored", time, ""))
            return
        if spin.direction is None:
            spin.direction = status.direction  # met in state 5: the rotor turns as it did in the spin
        if heard is not None:
            if heard[0] != number:
                self._conflict(NumberConflict(heard[0], number, time, spin.key, spin.direction,
                                              lines=evidence(spin.lines, heard[1])), spin, events)
            else:
                self._report(number, heard[1], spin, "number-line", events)
            return
        if number is None:
            if not spin.confirmed:
                events.append(WheelFault(f"game {spin.key}: state 5 without a winning number", time, ""))
            spin.confirmed = True
            return
        if not spin.seen_in_play and self._last_reported == (spin.key, number):
            spin.reported = number  # a restarted reader meeting a game it already reported
            return
        first = spin.first_five
        if first is None:
            spin.first_five = (number, time)  # one line is no proof: the next state-5 line must agree
        elif first[0] != number:
            self._conflict(NumberConflict(None, number, time, spin.key, spin.direction, first[0],
                                          lines=evidence(spin.lines, first[1])), spin, events)
        else:
            self._report(number, first[1], spin, "state-5", events)

    def _conflict(self, conflict: NumberConflict, spin: _Spin, events: list[WheelEvent]) -> None:
        spin.conflicted = spin.confirmed = True
        events.append(conflict)

    def _report(self, number: int, time: float, spin: _Spin, source: str, events: list[WheelEvent]) -> None:
        minimum = self.min_ball_revolutions
        if minimum is not None and spin.revolutions is not None and spin.revolutions < minimum:
            detail = f"the ball made {spin.revolutions} revolutions, fewer than {minimum}"
            self._propose_void(VoidReason.TOO_FEW_REVOLUTIONS, detail, time, spin, events)
        if spin.voids:  # the launch is void: where its ball stopped is no result (PT-A 22)
            events.append(VoidSpinNumber(number, time, spin.key, spin.voids[0]))
        else:
            events.append(WheelResult(number, time, spin.key, spin.direction, source, evidence(spin.lines, time)))
        spin.reported = number
        self._last_reported = (spin.key, number)

    def _propose_void(
        self, reason: VoidReason, detail: str, time: float, spin: _Spin, events: list[WheelEvent]
    ) -> None:
        if reason not in spin.active and spin.reported is None:
            spin.active.add(reason)
            spin.voids.append(reason)
            events.append(WheelVoid(reason, time, spin.key, detail))

    def _ball_position(self, status: Status, spin: _Spin, time: float, events: list[WheelEvent]) -> None:
        # M360 re-spin rule: after a void the ball is put back in the last winning pocket.
        ext = status.extended
        if (
            ext is None
            or not spin.voids
            or spin.reported is not None
            or status.state not in BALL_IN_PLAY
            or ext.pocket is None
            or not ext.flags & EXT_BALL_IN_POCKET
            or ext.pocket in spin.pockets_shown
        ):
            return
        spin.pockets_shown.add(ext.pocket)
        events.append(BallPosition(ext.pocket, status.last_number, time, spin.key))

    def _show_state(self, status: Status, key: int, time: float, events: list[WheelEvent]) -> None:
        ext = status.extended
        shown = (
            status.state,
            key,
            status.last_number,
            status.flags,
            status.direction,
            None if ext is None else (ext.flags, ext.ball_direction, ext.pocket),
        )
        if shown == self._last_shown:
            return
        self._last_shown = shown
        events.append(
            WheelState(
                state=status.state,
                time=time,
                game=key,
                last_number=status.last_number,
                flags=status.flags,
                rotor_rpm=status.rotor_rpm,
                direction=status.direction,
                extended_flags=None if ext is None else ext.flags,
                ball_revolutions=None if ext is None else ext.revolutions,
                ball_direction=None if ext is None else ext.ball_direction,
                ball_rpm=None if ext is None or not ext.ball_period else round(1966080 / ext.ball_period, 1),
                ball_pocket=None if ext is None else ext.pocket,
            )
        )


def split_status(text: str, count: int, name: str) -> list[str]:
    parts = text.split(";")
    if len(parts) != count:
        raise fields.FieldError(f"{name} status has {count - 1} fields after *X, this one has {len(parts) - 1}")
    return parts[1:]


def state_field(text: str, allowed: range) -> WheelPhase:
    return WheelPhase(fields.decimal(text, "state", 1, allowed))
