"""Cammegh Mercury 360 through its break-out box (integration guide 1051-INT-02-L, section 4-5).

Three protocol levels, chosen per serial port on the box (`*m n n n`):

- basic (1): `*S` game started, `*N` no more bets, `*W nn` winning number. No status lines, no
  game counter, no warning flags, and no bare winning-number line.
- advanced (0): `*X;<state>;<games>;<last>;<flags>;<rpm x 10>;<direction>` every 500 ms, plus the
  bare two-character winning-number line.
- extended (2): the advanced line followed by `;<extended flags, 4 hex>;<ball revolutions, 2 hex>;
  <ball direction ?/0/1>;<ball revolution time, 5 hex or ?????>;<ball pocket or ??>`.

Where the Mercury and the Slingshot 2 give the same bytes different meanings:

- `*X;` second field: the number of games completed, 0-255, reset when the table closes. The guide
  does not say when it counts; this decoder takes the game in play (states 1-4, 7) to be number
  `games + 1` and a state-5 line to show the game just completed, so one game keeps one number
  through its life. (On the SS2 the field is the spin being played, 1-256.) A counter that moves
  between states 4 and 5 never makes a second result: a game has one result whatever its counter.
- Warning flags: M360 1 = rotor below or above its speed limits, which does not stop the game (SS2:
  ball removed); 2 = ball launched with the rotor (same as SS2, but in any state with the ball in
  play); 4 = rim sensor error or foreign object; 8 = void game: ball removed, launched too slowly,
  or rotor tampered with (SS2: a launch being retried, harmless for 3 s). In game mode 3F flag 8
  also replaces flag 2 for a ball turning with the rotor.
- After a void the Mercury waits in state 3 or 4 for a re-spin, which resets its flags to 0 and
  the game goes on (guide 5.3): flags back to 0 with the ball in play is a new launch of the same
  game, whose number is a result (the voided launch's is not). The SS2 instead restarts the game from state 2 (*R),
  and a flag that merely clears there does not undo the void.
- State 7, dealer lock, exists only on the M360 (the ball is in play, the result not yet released).
- Rotor speed `000` means "below 2.0 or above 60.0 rpm", not "stopped" (reported here as unknown).
- `*W` in the basic protocol is the winning number; on the SS2 it is a statistics reply. `*S` is
  the game start here, the firmware version there. `*X` as a command reply is " (X) nn.n (Y) nn.n",
  the level sensor, not a status line.
- The winning number is two characters; the guide says "ASCII characters 0-9" without saying how
  1-9 are padded, so " 5" and "05" are both read as 5. "00" is the double-zero pocket, refused.
"""
from __future__ import annotations

import re

from croupier.rules.spin import VoidReason
from croupier.wheel import fields
from croupier.wheel.events import CommandReply, WheelEvent, WheelFault, WheelPhase, WheelResult, WheelState
from croupier.wheel.framing import FramedDecoder
from croupier.wheel.status import (
    BALL_IN_PLAY,
    Extended,
    Status,
    StatusLineDecoder,
    command_reply,
    reply_ok,
    split_status,
    state_field,
)

FLAG_SAME_DIRECTION = 0x2  # (flag 1, the rotor speed out of limits, voids nothing)
FLAG_SENSOR_ERROR = 0x4
FLAG_VOID_GAME = 0x8

EXT_ROTOR_STOPPED = 0x001
EXT_NO_BALL = 0x080
EXT_FLAGS_USED = 0x1FF  # bits 9-15 are always zero (guide 4.6.1)

# Replies of the box to commands, which do not start with '*' (guide section 7).
_BARE_REPLIES = re.compile(r"OK|ERROR|LOCKED|Locked|INVALID|[#VEZ] .*|S OK|SP\d .*|SD .*| ?\(X\) .*|\d{3,5}")


def _rpm(text: str) -> float | None:
    value = fields.decimal(text, "rotor speed", 3, range(0, 1000))
    return None if value == 0 else value / 10  # 000: outside 2.0-60.0 rpm (guide 4.2)


class M360AdvancedDecoder(StatusLineDecoder):
    protocol = "cammegh-m360-advanced"
    zero_padded_numbers = True
    respin_clears_voids = True  # guide 5.3: the re-spin resets the flags to 0 and the game continues
    bare_replies = _BARE_REPLIES
    _fields = 7

    def parse_status(self, text: str) -> Status:
        parts = split_status(text, self._fields, "M360 " + self.protocol.rsplit("-", 1)[1])
        state, games, last, flags, rpm, direction = parts[:6]
        return Status(
            state=state_field(state, range(1, 8)),
            counter=fields.decimal(games, "game count", 3, range(0, 256)),
            last_number=fields.pocket(last, "winning number", zero_padded=True),
            flags=fields.hexadecimal(flags, "warning flags", 1),
            rotor_rpm=_rpm(rpm),
            direction=fields.direction(direction, "rotor direction"),
            extended=self.parse_extended(parts[6:]),
        )

    def parse_extended(self, parts: list[str]) -> Extended | None:
        return None

    def game_key(self, status: Status) -> int:
        if status.state == WheelPhase.WINNING_NUMBER:
            return status.counter
        return (status.counter + 1) % 256

    def void_checks(self, status, spin, time):
        found: list[tuple[VoidReason, str]] = []
        if status.state not in BALL_IN_PLAY:
            return found
        flags, ext = status.flags, status.extended
        if flags & FLAG_SAME_DIRECTION:
            found.append((VoidReason.SAME_DIRECTION, "flag 2: the ball was launched the same way as the rotor"))
        if flags & FLAG_SENSOR_ERROR:
            found.append((VoidReason.SENSOR_FAULT, "flag 4: rim sensor error or an object other than the ball"))
        if flags & FLAG_VOID_GAME:
            found.append((self._flag8_reason(status), "flag 8: void game (ball removed, slow launch or rotor tamper)"))
        if ext is not None:
            if ext.flags & EXT_ROTOR_STOPPED:
                found.append((VoidReason.WHEEL_STOPPED, "the rotor stopped during the spin"))
            if ext.ball_direction is not None and ext.ball_direction == status.direction:
                found.append((VoidReason.SAME_DIRECTION, "the ball and the rotor turn the same way"))
        return found

    @staticmethod
    def _flag8_reason(status: Status) -> VoidReason:
        ext = status.extended
        if ext is not None and ext.flags & EXT_NO_BALL:
            return VoidReason.BALL_LEFT_WHEEL
        if ext is not None and ext.ball_direction == status.direction:
            return VoidReason.SAME_DIRECTION  # game mode 3F reports it as flag 8
        if status.state == WheelPhase.BALL_IN_RIM:
            return VoidReason.TOO_FEW_REVOLUTIONS  # the launch speed is judged as the ball enters the rim
        return VoidReason.BALL_LEFT_WHEEL


class M360ExtendedDecoder(M360AdvancedDecoder):
    protocol = "cammegh-m360-extended"
    _fields = 12

    def parse_extended(self, parts: list[str]) -> Extended:
        ext_flags, revolutions, ball_direction, ball_period, pocket = parts
        return Extended(
            flags=fields.hexadecimal(ext_flags, "extended flags", 4, maximum=EXT_FLAGS_USED),
            revolutions=fields.hexadecimal(revolutions, "ball spin counter", 2),
            ball_direction=None if ball_direction == "?" else fields.direction(ball_direction, "ball direction"),
            ball_period=None if ball_period == "?????" else _ball_period(ball_period),
            pocket=fields.pocket(pocket, "ball pocket", empty="??", zero_padded=True),
        )


def _ball_period(text: str) -> int:
    value = fields.hexadecimal(text, "ball speed", 5)
    if value == 0:
        raise fields.FieldError("ball speed 00000: a revolution cannot take no time")
    return value


class M360BasicDecoder(FramedDecoder):
    """`*S`, `*N`, `*W nn`: one result per `*W`, and a second `*W` without a game start between is
    ignored. There is no game counter, so results carry game None; nothing is sent between games."""

    protocol = "cammegh-m360-basic"

    def __init__(self, min_ball_revolutions: int | None = None):
        super().__init__(min_ball_revolutions)  # the basic protocol does not count revolutions
        self._reported = False

    def _line(self, text: str, time: float, events: list[WheelEvent]) -> None:
        if text == "*S":
            self._reported = False
            events.append(WheelState(WheelPhase.BEFORE_GAME, time, None))
        elif text == "*N":
            self._reported = False
            events.append(WheelState(WheelPhase.NO_MORE_BETS, time, None))
        elif text.startswith("*W"):
            self._winning(text, time, events)
        elif text.startswith("*") and len(text) > 1:
            events.append(command_reply(text, time))
        elif _BARE_REPLIES.fullmatch(text):
            events.append(CommandReply("", text, reply_ok(text), time))
        else:
            events.append(WheelFault("not M360 basic-protocol output", time, text))

    def _winning(self, text: str, time: float, events: list[WheelEvent]) -> None:
        if not text.startswith("*W "):
            events.append(WheelFault("winning-number packet must be '*W nn'", time, text))
            return
        try:
            number = fields.pocket(text[3:], "winning number", empty=None, zero_padded=True)
        except fields.FieldError as e:
            events.append(WheelFault(f"winning-number packet rejected: {e}", time, text))
            return
        if self._reported:
            events.append(WheelFault("a second *W without a game start between: ignored", time, text))
            return
        self._reported = True
        events.append(WheelResult(number, time, None, None, "basic", (f"+0.0 {text}",)))

