"""What the wheel decoders and the serial link report: frozen values, the one place they are defined.

`time` is seconds from the clock the caller injected (the link's clock, or a capture's timestamps).
`game` is the wheel's own game/spin counter where the protocol carries one (None where it does not,
as in the Mercury basic protocol and the plain winning-number line): the table uses it so that a
restarted reader never records the same game twice.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum, IntEnum

from croupier.rules.spin import Direction, VoidReason


class WheelPhase(IntEnum):
    """The game state of the `*X` status line. 1-6 on both wheel families, 7 on the Mercury only."""

    BEFORE_GAME = 1  # SS2 "before game", M360 "start game"
    PLACE_BETS = 2
    BALL_IN_RIM = 3  # M360 calls it "finish betting"
    NO_MORE_BETS = 4
    WINNING_NUMBER = 5
    TABLE_CLOSED = 6
    DEALER_LOCK = 7  # M360 only: waiting for the dealer before the winning number


@dataclass(frozen=True)
class WheelResult:
    """The winning pocket of one game, reported once.

    `source` says which line gave it: "number-line" (the two-character line, confirmed by state 5),
    "state-5" (the first status line of state 5, when the number line was lost), "basic" (the M360
    `*W nn`) or "line". A launch the sensor voided gives a `VoidSpinNumber` instead, never this.
    """

    number: int
    time: float
    game: int | None
    direction: Direction | None  # rotor direction during the spin, for the alternation check (PT-A 21)
    source: str
    # The wheel's lines that decided it (see `evidence`): what it rests on, not part of what it is.
    lines: tuple[str, ...] = field(default=(), compare=False)


# The lines kept for one game, at most: its status changes, the number line and the state-5 lines
# that decided it (a game has about six; a wheel that chatters is cut, never the deciding lines).
EVIDENCE_LINES = 16


def evidence(lines: list[tuple[float, str]], decided_at: float) -> tuple[str, ...]:
    """The wheel's lines that decided a game, compact for the journal: each as sent, after its time
    in seconds from the moment of the result ("-26.5 *X;4;146;..."; "+0.0 28")."""
    return tuple(f"{at - decided_at:+.1f} {text}" for at, text in lines[-EVIDENCE_LINES:])


@dataclass(frozen=True)
class VoidSpinNumber:
    """Where the ball of a launch the sensor voided came to rest (`PT-A 22`, `RU 4.12`, `SRIJ 23`):
    never a result. `reason` is the first void proposed in that launch; the re-spin is a new launch."""

    number: int
    time: float
    game: int | None
    reason: VoidReason


@dataclass(frozen=True)
class NumberConflict:
    """The wheel gave two numbers for one game: its winning-number line and its first state-5 line
    (guide 2.4 and 2.5, neither named the master), or, with no number line, its first two state-5
    lines. Neither is a result: the croupier reads the pocket and confirms it, and a pit boss sees
    the alarm. `state_five` is None when the state-5 line carried no number; `number_line` is None
    when no number line came, and `first_state_five` then holds the earlier state-5 line's number."""

    number_line: int | None
    state_five: int | None
    time: float
    game: int | None
    direction: Direction | None
    first_state_five: int | None = None
    lines: tuple[str, ...] = field(default=(), compare=False)  # the wheel's lines that gave both numbers


@dataclass(frozen=True)
class WheelVoid:
    """A golpe nulo proposed by the sensor (`PT-A 22`, `RU 4.14`, `SRIJ 23`), with why."""

    reason: VoidReason
    time: float
    game: int | None
    detail: str


@dataclass(frozen=True)
class WheelState:
    """A change in what the status line says (state, game, flags, direction, last number).

    Repeats of the same status every 500 ms are not reported again. The `ball_*` and
    `extended_flags` fields come only from the Mercury extended protocol.
    """

    state: WheelPhase
    time: float
    game: int | None
    last_number: int | None = None
    flags: int = 0
    rotor_rpm: float | None = None
    direction: Direction | None = None
    extended_flags: int | None = None
    ball_revolutions: int | None = None
    ball_direction: Direction | None = None
    ball_rpm: float | None = None
    ball_pocket: int | None = None


@dataclass(frozen=True)
class WheelFault:
    """Bytes that are not valid wheel output, or a wheel report that contradicts itself."""

    message: str
    time: float
    raw: str


@dataclass(frozen=True)
class CommandReply:
    """The wheel's answer to a command (`*u OK`, `*P NO`, `*o BUSY`, `*T h 60`).

    `ok` is True for OK, False for NO / BUSY / FAIL / ERROR / LOCKED / INVALID, None when the reply
    carries a value instead.
    """

    command: str
    text: str
    ok: bool | None
    time: float


@dataclass(frozen=True)
class BallPosition:
    """Where the ball sits after a golpe nulo, when the wheel reports its pocket (M360 extended).

    `PT-A 22` and the Mercury's own re-spin rule: the ball goes back in the previous result's pocket
    before it is launched again. `expected` is that pocket, None when the wheel knows no last number.
    """

    pocket: int
    expected: int | None
    time: float
    game: int | None

    @property
    def in_previous_pocket(self) -> bool:
        return self.expected is not None and self.pocket == self.expected


@dataclass(frozen=True)
class LinkStatus:
    """The serial link came up or went down ("sensor offline": the keypad takes over)."""

    online: bool
    time: float
    detail: str
    reason: str = ""  # why it went down: "cannot-open", "lost", "silent" or "noise" (LINK_DOWN)
    seconds: float | None = None  # how long the wheel was silent or noisy


WheelEvent = WheelResult | VoidSpinNumber | NumberConflict | WheelVoid | WheelState | WheelFault | CommandReply | BallPosition | LinkStatus

# The "type" each event has in JSON output (wheel-replay --json) and logs.
EVENT_TYPES: dict[type, str] = {
    WheelResult: "result",
    VoidSpinNumber: "void-number",
    NumberConflict: "conflict",
    WheelVoid: "void",
    WheelState: "state",
    WheelFault: "fault",
    CommandReply: "reply",
    BallPosition: "ball-position",
    LinkStatus: "link",
}


def event_type(event: WheelEvent) -> str:
    return EVENT_TYPES[type(event)]


def as_dict(event: WheelEvent) -> dict[str, object]:
    """The event as plain JSON-ready values, "type" first; enums by their value."""
    out: dict[str, object] = {"type": event_type(event)}
    for f in fields(event):
        value = getattr(event, f.name)
        out[f.name] = int(value) if isinstance(value, IntEnum) else value.value if isinstance(value, Enum) else value
    return out
