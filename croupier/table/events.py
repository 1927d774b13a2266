"""Every event the table records, and their canonical encoding for the journal's hash chain.

An event is a fact that happened at the table; it is never edited (a correction is a new event
holding both values). The canonical encoding is sorted-keys compact JSON in UTF-8, with money and
chip amounts as Decimal or Fraction strings, so the same event always hashes the same.
"""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Callable, ClassVar, Iterable, TypeVar

try:  # the floor server's: reads an event five times as fast as the standard json (its ingester reads every result)
    from orjson import loads as _orjson_loads
except ImportError:  # a table's
    _orjson_loads = None  # type: ignore[assignment]

from croupier.rules.limits import LimitOutcome, LimitReason
from croupier.rules.record import Record
from croupier.rules.spin import Direction, VoidReason
from croupier.table.codec import CodecError, canonical_json, from_plain, to_plain, when_set


class Source(str, Enum):
    """Who told the table: the wheel sensor, or the croupier at the keypad or screen."""

    SENSOR = "sensor"
    KEYPAD = "keypad"


class Role(str, Enum):
    CROUPIER = "croupier"
    INSPECTOR = "inspector"
    PIT_BOSS = "pit-boss"


class AlarmKind(str, Enum):
    DIRECTION_REPEATED = "direction-repeated"  # PT-A 21, SRIJ 17
    BALL_SWAP_OVERDUE = "ball-swap-overdue"  # PT-A 17, PT-B 17
    RELIEF_OVERDUE = "relief-overdue"  # PT-A 33, PT-B 35, RU 4.4
    WHEEL_FAULT = "wheel-fault"  # the sensor link failed, or a launch ended without a result
    RESULT_MISMATCH = "result-mismatch"  # the sensor read another number than the one typed
    CLOCK_JUMPED = "clock-jumped"  # the system clock jumped against the monotonic clock; the table did not follow
    PIN_LOCKED = "pin-locked"  # a PIN refused too many times in a row: locked for a while the configuration sets
    FLOOR_RECEIPT = "floor-receipt"  # a floor receipt not recorded: not the floor's, or not this journal's event
    PAYOUTS_UNRECORDED = "payouts-unrecorded"  # the wheel gave the next result before a spin's payouts were recorded


class AlarmAnswer(str, Enum):
    """The table's procedure that answered an alarm and so ended it (no pit boss's clearing)."""
    RELIEF = "relief"  # relief-overdue: someone took over
    BALL_SWAP = "ball-swap"  # ball-swap-overdue: the other ball is in play
    CORRECTION = "correction"  # result-mismatch: a pit boss corrected the spin
    PIN_UNLOCKED = "pin-unlocked"  # pin-locked: the PIN was set free at the console


class CashOutReason(str, Enum):
    LEFT = "left"  # PT-A 15, PT-B 16, RU 4.7, FR: the player leaves or steps away
    INACTIVE = "inactive"  # PT-A 12: no bet for 3 spins while others wait for a colour
    TABLE_CLOSED = "table-closed"  # FR: colour chips exchanged when the table closes


class Ball(Record):
    """A registered ball: `PT-A 17` white, balanced, 18-24 mm."""

    id: str
    diameter_mm: Decimal


class Stake(Record):
    """Chips of one colour on one bet. `bet` is the rules engine's name of the bet (`plein 17`)."""

    bet: str
    chips: int
    marked: bool = when_set(False)  # PT-A 16: value-marked chips (owner "value"), allowed on any bet


class ColourOutcome(Record):
    """What one spin did to one colour, in chips (halves happen: zero, two-dozen bets)."""

    colour: str
    staked: int  # chips on the layout when the ball settled
    won: Fraction  # paid by the bank on winning bets, the stake not included
    returned: Fraction  # stake handed back: winning stakes, half-back on zero, bets over the limit
    lost: Fraction  # stake taken by the bank
    imprisoned: int = 0  # FR en prison: stake held for the next spin


class Recovery(Record):
    """What one colour was handed on a spin's first number that the corrected number does not give
    it: payouts, and stakes left with the player on bets that now lose (negative: what it is owed)."""

    colour: str
    won: Fraction  # payouts handed that the corrected number does not pay
    kept: Fraction  # stakes left with the player that the corrected number takes
    chip_value: Decimal | None  # the colour's chip value then (value chips: 1); None: cashed out before

    @property
    def chips(self) -> Fraction:
        return self.won + self.kept

    @property
    def money(self) -> Decimal | None:
        chips = self.chips
        return None if self.chip_value is None else Decimal(chips.numerator) * self.chip_value / chips.denominator


class LimitCut(Record):
    """A bet the table limits cut down, its excess handed back: the facts the screens word it from
    in the table's language (the event's `notes` keep the same in English)."""

    colour: str
    reason: LimitReason
    outcome: LimitOutcome
    rule: str
    facts: dict[str, str]  # the templates' fields, as text (amounts as decimals)


class AlarmFacts(Record):
    """What an alarm is about, for the screens to word it in the table's language (the alarm's
    `detail` is the record's own English)."""

    rule: str
    role: Role | None = None
    name: str | None = None  # the member of staff overdue for relief
    minutes: int | None = None  # the longest allowed
    ball: str | None = None
    direction: Direction | None = None
    spin: int | None = None
    typed: int | None = when_set()  # result-mismatch: the number typed at the keypad
    read: int | None = when_set()  # and the wheel sensor's
    wheel_restarted: bool = when_set(False)  # a repeat right after the wheel's power cycle: the wheel's doing
    number_line: int | None = when_set()  # wheel-fault, two numbers: the wheel's winning-number line
    state_five: int | None = when_set()  # and its state-5 lines (None: none came)
    first_state_five: int | None = when_set()  # no number line: the earlier of two state-5 lines that differ
    wall_clock: datetime | None = when_set()  # clock-jumped: what the system clock read
    table_clock: datetime | None = when_set()  # and the table's own time then (the monotonic clock's)
    wheel_lines: tuple[str, ...] = when_set(())  # result-mismatch, wheel-fault: the wheel's lines that said so
    link: str | None = when_set()  # wheel-fault, the link down: "silent", "noise", "lost", "cannot-open", "down"
    seconds: int | None = when_set()  # how long the wheel was silent or noisy


# The time of an event no clock has stamped yet: naive, so it can never be encoded and recorded.
UNSTAMPED = datetime.min


class Event(Record):
    """Base of every event: when it happened. Subclasses name themselves with `kind`. A command
    never sets `time`: `stamped` gives its events the table clock's time as they are recorded."""

    kind: ClassVar[str]
    time: datetime = UNSTAMPED


EVENT_TYPES: dict[str, type[Event]] = {}
E = TypeVar("E", bound=Event)


def _event(kind: str) -> Callable[[type[E]], type[E]]:
    def register(cls: type[E]) -> type[E]:
        cls.kind = kind
        EVENT_TYPES[kind] = cls
        return cls

    return register


def stamped(events: Iterable[Event], now: datetime) -> list[Event]:
    """The events with the time they are recorded at: the one place an event's time is set."""
    return [replace(event, time=now) for event in events]


# --- the table ---------------------------------------------------------------------------------


@_event("table-opened")
class TableOpened(Event):
    """The table opened under a profile, its minimum, colours, balls and staff on duty."""
    profile: str
    minimum: Decimal  # the maxima follow the profile's ratios (PT-A 32, PT-B 34)
    colours: tuple[str, ...]  # the colour chips this table has (PT-A 8)
    balls: tuple[Ball, ...]  # the two registered balls (PT-A 17)
    ball_in_play: str
    croupier: str
    inspector: str | None = None
    sensor_only: bool = False  # driven by the wheel sensor alone: no bets are tracked
    relief_minutes: int | None = None  # RU 4.4: the house's interval, where the profile lets it choose
    posted_values: tuple[Decimal, ...] = ()  # PT-A 9: colour values posted at the table besides the minimum
    by: str
    table_id: str | None = when_set()  # the configuration's [table] id; None in journals that predate it
    rules: str = when_set("")  # the profile's file as it stood: the journal is settled against this, not today's file
    sign: dict[str, Decimal] | None = when_set(None)  # the table sign in force (`maximum.plein` -> amount)
    value_only: bool = when_set(False)  # PT-B 15b: a table of value chips only, no colour chips
    marked_values: tuple[Decimal, ...] = when_set(())  # PT-A 16: value-marked chips offered, on any bet
    # What every reader shows the journal's amounts, times and paper in, as configured at the opening.
    currency: str | None = when_set()
    time_zone: str | None = when_set()
    casino: str | None = when_set()


@_event("table-closed")
class TableClosed(Event):
    """The table closed."""
    by: str


@_event("limits-changed")
class LimitsChanged(Event):
    """`FR`: management may change the limits during the day; the sign changes, players are told."""

    minimum: Decimal
    previous: Decimal
    reason: str
    by: str


@_event("profile-changed")
class ProfileChanged(Event):
    """The table's regulation profile changed, with the reason."""
    profile: str
    previous: str
    reason: str
    by: str
    rules: str = when_set("")  # the new profile's file as it stood
    sign: dict[str, Decimal] | None = when_set(None)  # the sign kept under the new profile, or None: cleared


@_event("sign-changed")
class SignChanged(Event):
    """`FR`: the house changes the table sign during the day, between spins; players are told."""

    sign: dict[str, Decimal]  # the sign now in force (`maximum.plein` -> amount); empty: the profile's caps
    previous: dict[str, Decimal]
    reason: str
    by: str


@_event("context-changed")
class ContextChanged(Event):
    """The pit boss changes the currency or the time zone every reader shows the journal in (the
    opening recorded the configuration's); each reader uses the value in force at each event."""

    currency: str | None  # None: unchanged
    time_zone: str | None  # None: unchanged
    previous_currency: str | None
    previous_time_zone: str | None
    reason: str
    by: str


# --- staff -------------------------------------------------------------------------------------


@_event("staff-registered")
class StaffRegistered(Event):
    """A member of staff and their PIN, kept only as a salted scrypt hash (hex)."""

    name: str
    role: Role
    salt: str
    pin_hash: str
    by: str | None  # None only for the first pit boss of a new journal


@_event("pin-refused")
class PinRefused(Event):
    """A wrong PIN typed for a member of staff; `failures` in a row, this one included. The PIN is
    not checked again for `wait_seconds` (a delay that grows, or the lock when `locked`). An
    attempt during that wait is recorded `unchecked`: the PIN was not even compared."""

    name: str
    failures: int
    wait_seconds: int = when_set(0)
    locked: bool = when_set(False)
    unchecked: bool = when_set(False)


@_event("pin-unlocked")
class PinUnlocked(Event):
    """A locked or delayed PIN set free at the console with the table's key (`croupier staff
    unlock`); `operator` is the account that ran it."""

    name: str
    operator: str


@_event("staff-relieved")
class StaffRelieved(Event):
    """`PT-A 33`, `PT-B 35`, `RU 4.4`: who takes over at the wheel (or as inspector), and when."""

    role: Role
    outgoing: str | None
    incoming: str
    overdue: bool  # the outgoing one stayed longer than the profile allows
    reason: str | None = None  # PT-B 35: the force majeure that kept them on


# --- alarms ------------------------------------------------------------------------------------


@_event("alarm-raised")
class AlarmRaised(Event):
    """An alarm raised at the table."""
    alarm: int
    alarm_kind: AlarmKind
    subject: str
    detail: str
    facts: AlarmFacts | None = when_set()  # None in journals written before the screens worded alarms


@_event("alarm-acknowledged")
class AlarmAcknowledged(Event):
    """An alarm acknowledged by a member of the staff."""
    alarm: int
    by: str


@_event("alarm-cleared")
class AlarmCleared(Event):
    """An alarm cleared, with a note: by a pit boss, or by the procedure that answered it (`answer`:
    recorded with that procedure's event, by who did it)."""
    alarm: int
    note: str
    by: str  # a pit boss, or who did the procedure
    answer: AlarmAnswer | None = when_set()


# --- the spin ----------------------------------------------------------------------------------


@_event("countdown-started")
class CountdownStarted(Event):
    """`SRIJ 13-15`: a betting period of at least 30 s, shown as a countdown."""

    spin: int
    seconds: int
    by: str


@_event("ball-launched")
class BallLaunched(Event):
    """A ball launched: the spin, the direction, the ball and the croupier."""
    spin: int
    direction: Direction | None  # None only from a wheel that does not report it
    ball: str
    croupier: str
    source: Source
    wheel_game: int | None = None  # the wheel's game counter, when the sensor saw the launch
    bets_on_layout: bool = when_set(False)  # the croupier declared the layout's bets down (RU 4.9)


@_event("bets-closed")
class BetsClosed(Event):
    """`PT-A 20` "jogo feito, nada mais": no bet placed or changed after this."""

    spin: int
    source: Source


@_event("result-entered")
class ResultEntered(Event):
    """A number typed at the keypad, waiting for its confirmation."""

    spin: int
    number: int
    by: str


@_event("result-recorded")
class ResultRecorded(Event):
    """The counted result of a spin, with what it did to each colour's bets."""

    spin: int
    number: int
    source: Source
    ball: str
    croupier: str
    direction: Direction | None  # None when neither the launch nor the sensor gave it
    confirmed_by: str | None = None  # for a number typed at the keypad
    wheel_game: int | None = None  # the wheel's own game counter, when the sensor reported it
    outcomes: tuple[ColourOutcome, ...] = ()
    prison: dict[str, tuple[Stake, ...]] | None = None  # FR en prison, carried to the next spin
    wheel_lines: tuple[str, ...] = when_set(())  # the sensor's lines that decided it, as the wheel sent them


@_event("payouts-completed")
class PayoutsCompleted(Event):
    """Payouts and change done: bets open again and the ball may be launched (`PT-A 19`)."""

    spin: int
    by: str


@_event("payouts-recorded")
class PayoutsRecorded(Event):
    """What the croupier paid each colour after a result (`PT-A 29-30`): the chips counted on its
    winning positions (and, after zero, on the simple chances that come back in part), as they play
    under the table limits, settled by the rules engine. Bets recorded before the spin were settled
    with the result; a colour that lost on the layout is known only if the croupier marks it played."""

    spin: int
    number: int
    stakes: dict[str, tuple[Stake, ...]]  # per colour, as they play: cut down to a maximum where the profile says so
    outcomes: tuple[ColourOutcome, ...]
    notes: tuple[str, ...] = ()  # what the limits cut down and handed back, and the rule
    cuts: tuple[LimitCut, ...] = when_set(())  # the same, with the facts to word them in any language
    prison: dict[str, tuple[Stake, ...]] | None = None  # FR en prison: simple-chance chips held after zero
    played: tuple[str, ...] = ()  # PT-A 12: the colours that bet this spin, winners included
    by: str


@_event("spin-voided")
class SpinVoided(Event):
    """Golpe nulo (`PT-A 22`, `RU 4.14`, `SRIJ 23`): the spin does not count and bets stand."""

    spin: int
    reason: VoidReason
    put_back: int | None  # PT-A 22: the pocket of the previous result, where the ball goes back
    source: Source
    by: str


@_event("void-acknowledged")
class VoidAcknowledged(Event):
    """The croupier has seen the golpe nulo the wheel sensor declared (`PT-A 22`): the ball goes back
    in the pocket the screen shows before the next launch."""

    spin: int
    by: str


@_event("result-corrected")
class ResultCorrected(Event):
    """A pit boss's correction of a recorded result: both values and the reason, never an edit."""

    spin: int
    previous: int
    number: int
    reason: str
    by: str
    outcomes: tuple[ColourOutcome, ...] = ()  # the spin settled again on the corrected number
    # Per colour, what the players hold from the number replaced that the corrected one does not give
    # them, the payouts counted after the result included: the one figure every screen and paper shows.
    recover: tuple[Recovery, ...] = when_set(())


@_event("winning-bets-rebuilt")
class WinningBetsRebuilt(Event):
    """`PT-A 31`, `PT-B 33`: disturbed winning bets set up again from the record."""

    spin: int
    stakes: dict[str, tuple[Stake, ...]]
    by: str


# --- bets --------------------------------------------------------------------------------------


@_event("bets-placed")
class BetsPlaced(Event):
    """A colour's bets placed on the layout for a spin."""
    spin: int
    colour: str
    stakes: tuple[Stake, ...]  # as they play: cut down to a maximum where the profile says so
    notes: tuple[str, ...] = ()  # what was cut down and handed back, and the rule
    cuts: tuple[LimitCut, ...] = when_set(())  # the same, with the facts to word them in any language


@_event("bets-withdrawn")
class BetsWithdrawn(Event):
    """A colour takes its standing bets back: before no more bets, or after a void (`SRIJ 24`)."""

    spin: int
    colour: str


# --- balls -------------------------------------------------------------------------------------


@_event("ball-swapped")
class BallSwapped(Event):
    """`PT-A 17`, `PT-B 17`: the two balls are used alternately, hour by hour, announced."""

    ball: str
    previous: str
    late: bool
    by: str


@_event("ball-replaced")
class BallReplaced(Event):
    """`PT-A 18`: a defective, broken or lost ball replaced by one of the same diameter."""

    previous: str
    ball: Ball
    reason: str
    by: str


# --- colour chips ------------------------------------------------------------------------------


@_event("player-waiting")
class PlayerWaiting(Event):
    """A player put on the waiting list for a colour."""
    player: str


@_event("player-left-waiting-list")
class PlayerLeftWaitingList(Event):
    """A player taken off the waiting list."""
    player: str


@_event("colour-assigned")
class ColourAssigned(Event):
    """`PT-A 13`: a free colour given a value, recorded on the value board (`PT-A 9`)."""

    colour: str
    player: str
    chip_value: Decimal
    chips: int
    by: str


@_event("chips-issued")
class ChipsIssued(Event):
    """Chips of a colour issued to its player."""
    colour: str
    chips: int
    by: str


@_event("colour-cashed-out")
class ColourCashedOut(Event):
    """The colour's chips exchanged for value chips (`PT-A 15`); the colour is free again."""

    colour: str
    player: str
    chips: int  # counted at the table
    expected_chips: Fraction  # what the record says the player holds
    chip_value: Decimal
    amount: Decimal
    reason: CashOutReason
    by: str


@_event("late-chips-exchanged")
class LateChipsExchanged(Event):
    """`PT-A 15`, `PT-B 16`, `RU 4.7`: colour chips presented late are worth the table minimum."""

    colour: str
    chips: int
    chip_value: Decimal
    amount: Decimal
    by: str


@_event("foreign-chips-settled")
class ForeignChipsSettled(Event):
    """`FR`: colour chips of another table played here by mistake. If they win they are paid at their
    real value, when it can be determined, otherwise at the minimum of their own table; if they
    lose they are taken. The table pays `amount` in money."""

    colour: str  # the colour of the chips, as the croupier names it
    table: str  # the table they belong to
    chips: int  # won: the chips the win pays; lost: the chips taken
    chip_value: Decimal | None  # their real value, None when it cannot be determined
    table_minimum: Decimal | None  # the minimum of their own table, the value paid when chip_value is None
    won: bool
    amount: Decimal  # paid by this table: chips x the value they are paid at; 0 when they lose
    spin: int | None  # the result they were played on, the last one recorded
    rule: str
    by: str


# --- the casino floor --------------------------------------------------------------------------


@_event("clock-checked")
class ClockChecked(Event):
    """What the table's clock rests on, at each start: whether the system clock is synchronised with
    a time server (None: it cannot be told), how that was told, and whether a battery clock (RTC)
    keeps the time across power cuts; jumps beyond `tolerance_seconds` raise `clock-jumped`."""

    synchronised: bool | None
    told_by: str  # "timedatectl", "systemd-timesyncd", "adjtimex" or "nothing"
    rtc: bool
    tolerance_seconds: int


@_event("floor-anchored")
class FloorAnchored(Event):
    """The floor's receipt: it holds this table's events up to `seq`, the last with this digest, as of
    `anchored_at`. A journal cut or rewritten before `seq` no longer matches the floor's copy."""

    seq: int
    digest: str
    anchored_at: datetime


# --- encoding ----------------------------------------------------------------------------------


def to_record(event: Event) -> dict:
    if event.time is UNSTAMPED:
        raise CodecError(f"{event.kind} has no time: an event is stamped by the table's clock when recorded")
    return {"kind": event.kind, **to_plain(event)}


def encode(event: Event) -> bytes:
    """The canonical bytes of an event: what the hash chain covers."""
    return canonical_json(to_record(event))


def from_record(record: dict) -> Event:
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        raise CodecError("an event must be an object with a 'kind'")
    return _read_record(dict(record))


def _read_record(fields: dict) -> Event:
    """The event of a record of one's own (`kind` is taken out of it)."""
    kind = fields.pop("kind")
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise CodecError(f"unknown event kind {kind!r}")
    try:
        return from_plain(cls, fields)
    except CodecError as exc:
        raise CodecError(f"{kind}: {exc}") from None


def decode(data: bytes | str) -> Event:
    if _orjson_loads is not None:  # the same event either way: what orjson reads otherwise, json reads again
        try:
            record = _orjson_loads(data)
        except ValueError:  # NaN, a lone surrogate: json's to take or refuse
            pass
        else:  # an integer beyond 64 bits orjson reads as a float, which no field takes: read again by json
            if type(record) is dict and type(record.get("kind")) is str:
                try:
                    return _read_record(record)
                except CodecError:
                    pass
    try:
        record = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CodecError(f"not JSON: {exc}") from None
    if type(record) is not dict or type(record.get("kind")) is not str:
        return from_record(record)  # which says what is wrong
    return _read_record(record)
