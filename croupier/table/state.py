"""The table's state: a pure fold `apply(state, event) -> state` over the journal's events.

The state is what the table needs now, not its history: the last RECENT results, open alarms,
colours in play and standing bets. It stays small whatever the journal's age, so a snapshot of it
is small and start-up reads one snapshot and a short tail of events. The history is the journal.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import field
from datetime import datetime, timedelta
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any, Callable

from croupier.rules.record import Record
from croupier.rules.spin import Direction, VoidReason
from croupier.table import events as ev
from croupier.table.codec import canonical_json, from_plain, to_plain
from croupier.table.recovery import merged
from croupier.table.events import AlarmKind, Ball, ColourOutcome, Event, Role, Source, Stake

RECENT = 12  # results kept: SRIJ 6i last numbers, SRIJ 27 replays, corrections, PT-A 31 rebuilds
OPEN_ALARMS = 100  # open alarms kept; older ones stay open in the journal and its report
PIN_LOCK_AFTER = 5  # wrong PINs in a row that lock a PIN for a while (never the last pit boss's)
VERSION = 12  # of the snapshot layout and the fold; a snapshot of another version is ignored and refolded


class Phase(str, Enum):
    CLOSED = "closed"  # no table open
    BETTING = "betting"  # bets open, ball in the croupier's hand
    SPINNING = "spinning"  # ball launched (PT-A 20: bets still accepted until "no more bets")
    NO_MORE_BETS = "no-more-bets"  # "jogo feito, nada mais"
    CONFIRMING = "confirming"  # a typed number waits for its confirmation
    PAYING = "paying"  # result recorded, losers cleared, winners being paid


class Launch(Record):
    """The launch of the spin under way."""
    time: datetime
    direction: Direction | None
    ball: str
    croupier: str
    wheel_game: int | None = None


class PendingResult(Record):
    """A result typed and waiting for its confirmation."""
    number: int
    by: str
    time: datetime


class Spin(Record):
    """A counted result, with the bets it settled (for PT-A 31 rebuilds and corrections)."""

    spin: int
    number: int
    source: Source
    time: datetime
    ball: str
    croupier: str
    direction: Direction | None
    wheel_game: int | None = None
    stakes: dict[str, tuple[Stake, ...]] = field(default_factory=dict)
    prison: dict[str, tuple[Stake, ...]] = field(default_factory=dict)  # en prison from the spin before
    paid: dict[str, tuple[Stake, ...]] = field(default_factory=dict)  # winning layout bets counted at the payouts
    outcomes: tuple[ColourOutcome, ...] = ()
    corrected_from: int | None = None
    recover: tuple[ev.Recovery, ...] = ()  # what its corrections leave the players to give back, per colour
    completed_by: str | None = None  # who marked its payouts done ("sensor": the wheel moved on first)


class Void(Record):
    """The last golpe nulo (`PT-A 22`): in force until the ball is launched again. One the wheel
    sensor declared waits for the croupier's acknowledgement, even after the next launch."""

    spin: int
    reason: VoidReason
    put_back: int | None  # the pocket the ball goes back in
    source: Source
    wheel_game: int | None  # the wheel's game of the launch declared void, when the sensor saw it
    in_force: bool = True
    acknowledged_by: str | None = None

    @property
    def awaits_acknowledgement(self) -> bool:
        return self.source is Source.SENSOR and self.acknowledged_by is None


class PinWait(Record):
    """A PIN not checked until `until`: a delay after wrong PINs, or a lock."""

    until: datetime
    locked: bool = False


class StaffMember(Record):
    """A registered member of the staff with their PIN's salt and hash."""
    name: str
    role: Role
    salt: str
    pin_hash: str


class Duty(Record):
    """Who is on duty, since when."""
    name: str
    since: datetime


class ColourAccount(Record):
    """One colour in play: its player, value and running statement, in chips (`SRIJ 29`)."""

    colour: str
    player: str
    chip_value: Decimal
    since: datetime
    issued: int = 0
    staked: int = 0
    won: Fraction = Fraction(0)
    returned: Fraction = Fraction(0)
    lost: Fraction = Fraction(0)
    idle_spins: int = 0  # consecutive counted spins without a bet (PT-A 12, SRIJ 31)
    first_spin: int = 0  # the first spin it could bet on: one closed before it came is not sat out

    @property
    def held(self) -> Fraction:
        """Chips the record says the player holds (in hand, not on the layout)."""
        return self.issued - self.staked + self.returned + self.won

    def settled(self, outcome: ColourOutcome, sign: int = 1) -> "ColourAccount":
        return dataclasses.replace(
            self,
            staked=self.staked + sign * outcome.staked,
            won=self.won + sign * outcome.won,
            returned=self.returned + sign * outcome.returned,
            lost=self.lost + sign * outcome.lost,
        )


class Alarm(Record):
    """An alarm open at the table."""
    id: int
    kind: AlarmKind
    subject: str
    detail: str
    raised_at: datetime
    facts: ev.AlarmFacts | None = None  # for the screens' wording; None from older journals
    acknowledged_by: str | None = None
    acknowledged_at: datetime | None = None


class TableState(Record):
    """The table as the fold of its journal's events makes it."""
    phase: Phase = Phase.CLOSED
    profile: str | None = None
    table_id: str | None = None  # the configuration's [table] id, as the opening recorded it
    currency: str | None = None  # the journal's currency and time zone in force (opening, then changes)
    time_zone: str | None = None
    money_moved: bool = False  # a spin counted or chips moved since the opening: the shift's currency is fixed
    rules: str = ""  # the profile's text as recorded; empty in journals older than its recording
    minimum: Decimal | None = None
    sign: dict[str, Decimal] = field(default_factory=dict)  # the table sign in force, as recorded
    sensor_only: bool = False
    relief_minutes: int | None = None
    posted_values: tuple[Decimal, ...] = ()
    value_only: bool = False  # PT-B 15b: value chips only, no colour chips
    marked_values: tuple[Decimal, ...] = ()  # PT-A 16: value-marked chips offered, on any bet
    colours: tuple[str, ...] = ()
    balls: dict[str, Ball] = field(default_factory=dict)
    ball_in_play: str | None = None
    ball_since: datetime | None = None
    staff: dict[str, StaffMember] = field(default_factory=dict)
    on_duty: dict[Role, Duty] = field(default_factory=dict)
    spin: int = 1  # the game being played; a void does not advance it
    launch: Launch | None = None
    last_direction: Direction | None = None  # of the last launch, a void one included (PT-A 21)
    countdown_until: datetime | None = None
    bets_opened_at: datetime | None = None  # SRIJ 13-14: the betting period runs from here to the launch
    pending: PendingResult | None = None
    last_void: Void | None = None
    recent: tuple[Spin, ...] = ()  # newest last
    counted: int = 0
    voids: int = 0
    corrections: int = 0
    accounts: dict[str, ColourAccount] = field(default_factory=dict)  # in the order the colours were given
    given: tuple[str, ...] = ()  # the accounts' order, which a snapshot's sorted keys do not keep
    waiting: tuple[str, ...] = ()
    bets: dict[str, tuple[Stake, ...]] = field(default_factory=dict)
    prison: dict[str, tuple[Stake, ...]] = field(default_factory=dict)  # FR en prison
    played: tuple[str, ...] = ()  # colours known to have bet on the spin being paid (PT-A 12)
    alarms: dict[int, Alarm] = field(default_factory=dict)  # raised and not yet cleared
    wrong_pins: dict[str, int] = field(default_factory=dict)  # wrong PINs in a row, by name
    pin_waits: dict[str, PinWait] = field(default_factory=dict)  # PINs not checked until a time, by name
    next_alarm: int = 1
    last_event_time: datetime | None = None

    @property
    def last_result(self) -> Spin | None:
        return self.recent[-1] if self.recent else None

    @property
    def voided(self) -> Void | None:
        """The golpe nulo in force: declared, and the ball not launched again yet."""
        return self.last_void if self.last_void is not None and self.last_void.in_force else None

    def free_colours(self) -> tuple[str, ...]:
        return tuple(c for c in self.colours if c not in self.accounts)

    def staff_on(self, role: Role) -> str | None:
        duty = self.on_duty.get(role)
        return duty.name if duty else None


INITIAL = TableState()


STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(TableState))


def _replace(state: TableState, **changes) -> TableState:
    """`dataclasses.replace` for the state, a plain copy of its ~30 fields: the fold makes one or
    two per event, and replace's per-field checks and __init__ cost several times more."""
    if not changes.keys() <= STATE_FIELDS:
        raise TypeError(f"TableState has no field {sorted(changes.keys() - STATE_FIELDS)[0]!r}")
    copy = object.__new__(TableState)
    copy.__dict__.update(state.__dict__, **changes)
    return copy


def _with(mapping: dict, key, value=None, *, drop: bool = False) -> dict:
    copy = dict(mapping)
    if drop:
        copy.pop(key, None)
    else:
        copy[key] = value
    return copy


def _table_opened(s: TableState, e: ev.TableOpened) -> TableState:
    on_duty = {Role.CROUPIER: Duty(name=e.croupier, since=e.time)}
    if e.inspector:
        on_duty[Role.INSPECTOR] = Duty(name=e.inspector, since=e.time)
    return _replace(
        s, phase=Phase.BETTING, profile=e.profile, table_id=e.table_id, currency=e.currency,
        time_zone=e.time_zone, money_moved=False, rules=e.rules, minimum=e.minimum,
        sign=dict(e.sign or {}), sensor_only=e.sensor_only,
        relief_minutes=e.relief_minutes, posted_values=e.posted_values, value_only=e.value_only,
        marked_values=e.marked_values,
        colours=e.colours, balls={b.id: b for b in e.balls}, ball_in_play=e.ball_in_play,
        ball_since=e.time, on_duty=on_duty, bets_opened_at=e.time, launch=None, pending=None, countdown_until=None,
        bets={}, prison={}, accounts={}, given=(), waiting=(),
    )


def _void_over(s: TableState) -> Void | None:
    """The last golpe nulo once the ball is launched again (or the table closes): no longer in force."""
    return dataclasses.replace(s.voided, in_force=False) if s.voided else s.last_void


def _table_closed(s: TableState, e: ev.TableClosed) -> TableState:
    return _replace(s, phase=Phase.CLOSED, launch=None, pending=None, countdown_until=None, bets={},
                    on_duty={}, last_void=_void_over(s))


def _staff_registered(s: TableState, e: ev.StaffRegistered) -> TableState:
    member = StaffMember(name=e.name, role=e.role, salt=e.salt, pin_hash=e.pin_hash)
    return _pin_free(_replace(s, staff=_with(s.staff, e.name, member)), e.name)


def _pin_free(s: TableState, name: str | None) -> TableState:
    """The PIN of `name` is checked at once again, its run of wrong PINs over."""
    if name is None or (name not in s.wrong_pins and name not in s.pin_waits):
        return s
    return _replace(s, wrong_pins=_with(s.wrong_pins, name, drop=True), pin_waits=_with(s.pin_waits, name, drop=True))


def _pin_refused(s: TableState, e: ev.PinRefused) -> TableState:
    if e.unchecked:
        return s  # typed while the PIN waits: recorded, and it changes nothing
    waits = (_with(s.pin_waits, e.name, PinWait(until=e.time + timedelta(seconds=e.wait_seconds), locked=e.locked))
             if e.wait_seconds else _with(s.pin_waits, e.name, drop=True))
    return _replace(s, wrong_pins=_with(s.wrong_pins, e.name, e.failures), pin_waits=waits)


def answered(alarms: dict[int, Alarm], kind: AlarmKind, role: Role | None = None) -> list[int]:
    """The open alarms of `kind` a procedure just done answers: an overdue relief (of `role`) once
    someone took over, an overdue ball swap once the ball changed. The procedure's command records
    their clearing with it; the fold ends them too, for journals written before it did."""
    return [number for number, alarm in alarms.items()
            if alarm.kind is kind and (role is None or alarm.facts is not None and alarm.facts.role is role)]


def _done(alarms: dict[int, Alarm], kind: AlarmKind, role: Role | None = None) -> dict[int, Alarm]:
    """The alarms less those the procedure just done answers."""
    ended = answered(alarms, kind, role)
    return {number: alarm for number, alarm in alarms.items() if number not in ended} if ended else alarms


def _staff_relieved(s: TableState, e: ev.StaffRelieved) -> TableState:
    return _replace(s, on_duty=_with(s.on_duty, e.role, Duty(name=e.incoming, since=e.time)),
                    alarms=_done(s.alarms, AlarmKind.RELIEF_OVERDUE, e.role))


def _alarm_raised(s: TableState, e: ev.AlarmRaised) -> TableState:
    alarm = Alarm(id=e.alarm, kind=e.alarm_kind, subject=e.subject, detail=e.detail, raised_at=e.time, facts=e.facts)
    alarms = _with(s.alarms, e.alarm, alarm)
    if len(alarms) > OPEN_ALARMS:  # a table nobody clears (sensor only) must not grow its state
        del alarms[min(alarms)]
    return _replace(s, alarms=alarms, next_alarm=max(s.next_alarm, e.alarm + 1))


def _alarm_acknowledged(s: TableState, e: ev.AlarmAcknowledged) -> TableState:
    alarm = dataclasses.replace(s.alarms[e.alarm], acknowledged_by=e.by, acknowledged_at=e.time)
    return _replace(s, alarms=_with(s.alarms, e.alarm, alarm))


def _alarm_cleared(s: TableState, e: ev.AlarmCleared) -> TableState:
    alarm = s.alarms.get(e.alarm)
    if alarm is not None and alarm.kind is ev.AlarmKind.PIN_LOCKED and alarm.facts is not None:
        s = _pin_free(s, alarm.facts.name)  # a pit boss unlocks it
    return _replace(s, alarms=_with(s.alarms, e.alarm, drop=True))


def _countdown_started(s: TableState, e: ev.CountdownStarted) -> TableState:
    return _replace(s, countdown_until=e.time + timedelta(seconds=e.seconds))


def _ball_launched(s: TableState, e: ev.BallLaunched) -> TableState:
    launch = Launch(time=e.time, direction=e.direction, ball=e.ball, croupier=e.croupier, wheel_game=e.wheel_game)
    # PT-A 21: each firing of the ball alternates with the one before, a voided one included (the
    # wheel reverses its rotor before every firing, re-spins too).
    return _replace(s, phase=Phase.SPINNING, launch=launch, countdown_until=None, last_void=_void_over(s),
                    last_direction=e.direction or s.last_direction)


def _bets_closed(s: TableState, e: ev.BetsClosed) -> TableState:
    return _replace(s, phase=Phase.NO_MORE_BETS)


def _result_entered(s: TableState, e: ev.ResultEntered) -> TableState:
    return _replace(s, phase=Phase.CONFIRMING, pending=PendingResult(number=e.number, by=e.by, time=e.time))


def _settle_accounts(accounts: dict[str, ColourAccount], outcomes, sign: int = 1) -> dict[str, ColourAccount]:
    accounts = dict(accounts)
    for outcome in outcomes:
        if outcome.colour in accounts:
            accounts[outcome.colour] = accounts[outcome.colour].settled(outcome, sign)
    return accounts


def _result_recorded(s: TableState, e: ev.ResultRecorded) -> TableState:
    spin = Spin(spin=e.spin, number=e.number, source=e.source, time=e.time, ball=e.ball, croupier=e.croupier,
                direction=e.direction, wheel_game=e.wheel_game, stakes=s.bets, prison=s.prison,
                outcomes=e.outcomes)
    accounts = _settle_accounts(s.accounts, e.outcomes)
    played = tuple(colour for colour in s.accounts if colour in s.bets or colour in s.prison)
    s = _replace(s, spin=e.spin + 1, launch=None, pending=None, recent=(s.recent + (spin,))[-RECENT:],
                 counted=s.counted + 1, bets={}, prison=dict(e.prison or {}), last_void=_void_over(s),
                 last_direction=e.direction or s.last_direction)
    if s.sensor_only:
        # Without tracked bets there is nothing to pay: bets open again at once.
        return _replace(s, phase=Phase.BETTING, bets_opened_at=e.time, accounts=_count_idle(accounts, played, e.spin))
    # Who else played is known once the winners are paid: idle spins are counted then.
    return _replace(s, phase=Phase.PAYING, bets_opened_at=None, accounts=accounts, played=played)


def _count_idle(accounts: dict[str, ColourAccount], played, spin: int) -> dict[str, ColourAccount]:
    """PT-A 12, SRIJ 31: count the consecutive spins each colour sat out (of those it could play)."""
    return {colour: account if account.first_spin > spin else
            dataclasses.replace(account, idle_spins=0 if colour in played else account.idle_spins + 1)
            for colour, account in accounts.items()}


def _merged(a: dict[str, tuple[Stake, ...]], b: dict[str, tuple[Stake, ...]]) -> dict[str, tuple[Stake, ...]]:
    return {colour: a.get(colour, ()) + b.get(colour, ()) for colour in {**a, **b}}


def _payouts_recorded(s: TableState, e: ev.PayoutsRecorded) -> TableState:
    recent = s.recent
    if recent and recent[-1].spin == e.spin:
        recent = recent[:-1] + (dataclasses.replace(recent[-1], paid=_merged(recent[-1].paid, e.stakes)),)
    accounts = _settle_accounts(s.accounts, e.outcomes)
    if s.phase is not Phase.PAYING:
        # Counted after the wheel moved on: the spin's idle count is done, so those who played it sat out none.
        accounts = {colour: dataclasses.replace(account, idle_spins=0) if colour in e.played else account
                    for colour, account in accounts.items()}
        return _replace(s, recent=recent, accounts=accounts, prison=_merged(s.prison, e.prison or {}))
    played = s.played + tuple(colour for colour in e.played if colour not in s.played)
    return _replace(s, recent=recent, accounts=accounts, prison=_merged(s.prison, e.prison or {}), played=played)


def _payouts_completed(s: TableState, e: ev.PayoutsCompleted) -> TableState:
    recent = s.recent
    if recent and recent[-1].spin == e.spin:
        recent = recent[:-1] + (dataclasses.replace(recent[-1], completed_by=e.by),)
    return _replace(s, phase=Phase.BETTING, bets_opened_at=e.time, accounts=_count_idle(s.accounts, s.played, e.spin),
                    played=(), recent=recent)


def _spin_voided(s: TableState, e: ev.SpinVoided) -> TableState:
    # PT-A 22: bets stand; the next launch restarts the same game.
    void = Void(spin=e.spin, reason=e.reason, put_back=e.put_back, source=e.source,
                wheel_game=s.launch.wheel_game if s.launch else None)
    return _replace(s, phase=Phase.BETTING, launch=None, pending=None, voids=s.voids + 1, bets_opened_at=e.time,
                    last_void=void)


def _void_acknowledged(s: TableState, e: ev.VoidAcknowledged) -> TableState:
    void = s.last_void and dataclasses.replace(s.last_void, acknowledged_by=e.by)
    return _replace(s, last_void=void)


def _result_corrected(s: TableState, e: ev.ResultCorrected) -> TableState:
    recent = list(s.recent)
    accounts = s.accounts
    for i, spin in enumerate(recent):
        if spin.spin == e.spin:
            accounts = _settle_accounts(accounts, spin.outcomes, -1)
            accounts = _settle_accounts(accounts, e.outcomes)
            recent[i] = dataclasses.replace(spin, number=e.number, outcomes=e.outcomes,
                                            recover=merged(spin.recover, e.recover),
                                            corrected_from=spin.corrected_from if spin.corrected_from is not None
                                            else spin.number)
    return _replace(s, recent=tuple(recent), accounts=accounts, corrections=s.corrections + 1)


def _bets_placed(s: TableState, e: ev.BetsPlaced) -> TableState:
    return _replace(s, bets=_with(s.bets, e.colour, s.bets.get(e.colour, ()) + e.stakes))


def _bets_withdrawn(s: TableState, e: ev.BetsWithdrawn) -> TableState:
    return _replace(s, bets=_with(s.bets, e.colour, drop=True))


def _ball_swapped(s: TableState, e: ev.BallSwapped) -> TableState:
    return _replace(s, ball_in_play=e.ball, ball_since=e.time, alarms=_done(s.alarms, AlarmKind.BALL_SWAP_OVERDUE))


def _ball_replaced(s: TableState, e: ev.BallReplaced) -> TableState:
    balls = {(e.ball.id if k == e.previous else k): (e.ball if k == e.previous else b) for k, b in s.balls.items()}
    in_play = e.ball.id if s.ball_in_play == e.previous else s.ball_in_play
    return _replace(s, balls=balls, ball_in_play=in_play)


def _player_waiting(s: TableState, e: ev.PlayerWaiting) -> TableState:
    return _replace(s, waiting=s.waiting + (e.player,))


def _player_left_waiting_list(s: TableState, e: ev.PlayerLeftWaitingList) -> TableState:
    return _replace(s, waiting=tuple(p for p in s.waiting if p != e.player))


def _colour_assigned(s: TableState, e: ev.ColourAssigned) -> TableState:
    # Given once "no more bets" was called, it could not bet on this spin: its first is the next.
    first = s.spin + 1 if s.phase in (Phase.NO_MORE_BETS, Phase.CONFIRMING) else s.spin
    account = ColourAccount(colour=e.colour, player=e.player, chip_value=e.chip_value, since=e.time, issued=e.chips,
                            first_spin=first)
    return _replace(s, accounts=_with(s.accounts, e.colour, account), given=s.given + (e.colour,),
                    waiting=tuple(p for p in s.waiting if p != e.player))


def _chips_issued(s: TableState, e: ev.ChipsIssued) -> TableState:
    account = s.accounts[e.colour]
    account = dataclasses.replace(account, issued=account.issued + e.chips)
    return _replace(s, accounts=_with(s.accounts, e.colour, account))


def _colour_cashed_out(s: TableState, e: ev.ColourCashedOut) -> TableState:
    return _replace(s, accounts=_with(s.accounts, e.colour, drop=True), bets=_with(s.bets, e.colour, drop=True),
                    given=tuple(c for c in s.given if c != e.colour))


def _unchanged(s: TableState, e: Event) -> TableState:
    return s


# Each handler takes its own event class: a registry keyed by class, which a type checker cannot pair.
HANDLERS: dict[type[Event], Callable[[TableState, Any], TableState]] = {
    ev.TableOpened: _table_opened,
    ev.TableClosed: _table_closed,
    ev.LimitsChanged: lambda s, e: _replace(s, minimum=e.minimum),
    ev.ProfileChanged: lambda s, e: _replace(s, profile=e.profile, rules=e.rules, sign=dict(e.sign or {})),
    ev.SignChanged: lambda s, e: _replace(s, sign=dict(e.sign)),
    ev.ContextChanged: lambda s, e: _replace(s, currency=e.currency or s.currency,
                                             time_zone=e.time_zone or s.time_zone),
    ev.StaffRegistered: _staff_registered,
    ev.StaffRelieved: _staff_relieved,
    ev.PinRefused: _pin_refused,
    ev.PinUnlocked: lambda s, e: _pin_free(s, e.name),
    ev.AlarmRaised: _alarm_raised,
    ev.AlarmAcknowledged: _alarm_acknowledged,
    ev.AlarmCleared: _alarm_cleared,
    ev.CountdownStarted: _countdown_started,
    ev.BallLaunched: _ball_launched,
    ev.BetsClosed: _bets_closed,
    ev.ResultEntered: _result_entered,
    ev.ResultRecorded: _result_recorded,
    ev.PayoutsRecorded: _payouts_recorded,
    ev.PayoutsCompleted: _payouts_completed,
    ev.SpinVoided: _spin_voided,
    ev.VoidAcknowledged: _void_acknowledged,
    ev.ResultCorrected: _result_corrected,
    ev.WinningBetsRebuilt: _unchanged,
    ev.BetsPlaced: _bets_placed,
    ev.BetsWithdrawn: _bets_withdrawn,
    ev.BallSwapped: _ball_swapped,
    ev.BallReplaced: _ball_replaced,
    ev.PlayerWaiting: _player_waiting,
    ev.PlayerLeftWaitingList: _player_left_waiting_list,
    ev.ColourAssigned: _colour_assigned,
    ev.ChipsIssued: _chips_issued,
    ev.ColourCashedOut: _colour_cashed_out,
    ev.LateChipsExchanged: _unchanged,
    ev.ForeignChipsSettled: _unchanged,
    ev.FloorAnchored: _unchanged,
    ev.ClockChecked: _unchanged,
}


# The events that put money through the shift in its currency: a counted spin, bets, chips given,
# exchanged or cashed out.
MONEY_EVENTS = frozenset({ev.ResultRecorded, ev.PayoutsRecorded, ev.BetsPlaced, ev.ColourAssigned, ev.ChipsIssued,
                          ev.ColourCashedOut, ev.LateChipsExchanged, ev.ForeignChipsSettled})


# The events only a command that checked this member's PIN records (the name's field): the right
# PIN ends a run of wrong ones. An event merely naming someone (an acknowledgement) does not.
PIN_PROVEN: dict[type, str] = {
    ev.LimitsChanged: "by", ev.ProfileChanged: "by", ev.ResultCorrected: "by", ev.AlarmCleared: "by",
    ev.SignChanged: "by", ev.ContextChanged: "by", ev.StaffRegistered: "by", ev.StaffRelieved: "incoming",
}


def apply(state: TableState, event: Event) -> TableState:
    """The state after `event`. Events were checked by the commands that made them."""
    after = HANDLERS[type(event)](state, event)
    proven = PIN_PROVEN.get(type(event))
    if proven is not None and after.wrong_pins:
        after = _pin_free(after, getattr(event, proven))  # the right PIN: the run ends
    if type(event) in MONEY_EVENTS and not after.money_moved:
        after = _replace(after, money_moved=True)
    if after is state:
        return _replace(state, last_event_time=event.time)
    after.__dict__["last_event_time"] = event.time  # a copy made for this event, seen by no one yet
    return after


def fold(events, state: TableState = INITIAL) -> TableState:
    for event in events:
        state = apply(state, event)
    return state


def encode_state(state: TableState) -> bytes:
    """Canonical bytes of the state, for snapshots."""
    return canonical_json(to_plain(state))


def decode_state(data: bytes | str) -> TableState:
    """The state a snapshot holds, its colours in the order they were given (screens, sheets and
    reports list them so: a croupier pays by habit in that order)."""
    state = from_plain(TableState, json.loads(data))
    accounts = {colour: state.accounts[colour] for colour in state.given if colour in state.accounts}
    accounts.update(state.accounts)  # none missing from `given` in a fold; kept all the same
    return _replace(state, accounts=accounts)
