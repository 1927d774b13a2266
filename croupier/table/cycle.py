"""The table and its spin cycle: open, launch, no more bets, result, payouts, golpe nulo, close.

bets open -> ball launched (direction) -> no more bets -> result (the sensor's, or a typed number
once confirmed) -> payouts -> bets open. Facts the wheel sensor reports are recorded as they come
(the wheel is the truth of what happened); the croupier's commands are checked against the rules.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path

from croupier.rules.spin import Direction, VoidReason
from croupier.rules.bets import VALUE_CHIPS
from croupier.rules.wheel import check_number
from croupier.table.alarms import raise_alarm
from croupier.table.bets import chip_value, settle
from croupier.table.events import (
    AlarmAnswer, AlarmCleared, AlarmFacts, AlarmKind, AlarmRaised, Ball, BallLaunched, BetsClosed, CountdownStarted, Event, LimitsChanged, PayoutsCompleted,
    ProfileChanged, ResultCorrected, ResultEntered, ResultRecorded, Role, Source, SpinVoided, TableClosed,
    TableOpened, VoidAcknowledged,
)
from croupier.table.recovery import recovery
from croupier.table.refusal import (
    AmountNotAbove0, BallAlreadyInPlay, BallDiameter, BallNotListed, BallWithoutId, CloseMidSpin,
    CloseWithChipsInPlay, ColourChipsNotListed, CorrectionReasonMissing, CountdownOutsideBetting, CountdownRunning,
    CountdownTooShort, CroupierNotNamed, DirectionMissing, LaunchBeforePayouts, LaunchDuringCountdown,
    LaunchTooEarly, LaunchWithoutBets, LimitsBetweenSpins, LimitsReasonMissing, LimitsUntilPaid,
    MarkedChipsNotAllowed, MinimumUnchanged, NoMoreBetsOutOfTurn, NoPayoutsUnderWay, NoResultToConfirm,
    NoVoidToAcknowledge, NotANumber, NotAnAmount, NotRegisteredAs, NotTheTypedResult, OpeningPinMissing,
    ProfileBetweenSpins, ProfileReasonMissing, ProfileUnchanged, ProfileWithChipsInPlay, ReliefIntervalInvalid,
    ReliefNotConfigurable, ResultBeforeLaunch, ResultMismatch, ResultUnchanged, SpinNotKept, TableAlreadyOpen,
    TableNotOpen, TwoBallsNeeded, TypedAndReadDiffer, ValueOnlyNotAllowed, VoidOutOfTurn, WheelGameRepeated, choice,
)
from croupier.rules.limits import NO_SIGN, TableSign, sign_problem
from croupier.table.regulation import ball_in_play_of, checked_profile, checked_sign, minimum_of, profile_of, sign_of
from croupier.table.roles import authorise, known
from croupier.table.state import Phase, TableState

SENSOR = "sensor"  # the name recorded for what the wheel sensor did on its own
BALL_DIAMETER_MM = (Decimal(18), Decimal(24))  # PT-A 17, PT-B 17
IN_SPIN = (Phase.SPINNING, Phase.NO_MORE_BETS, Phase.CONFIRMING)  # from the launch to the result
DIRECTION_RULES = ("PT-A 21", "SRIJ 17")  # the regulations that make the launch alternate from game to game


def direction_rule(state: TableState) -> str:
    """The rule of the table's own regulation that makes the launch alternate; "" where it states
    none (the house's procedure then): a table never cites another regulation's rule."""
    rule_set = profile_of(state).rule_set
    return ", ".join(rule for rule in DIRECTION_RULES if rule.split(" ")[0] == rule_set)


def _open(state: TableState) -> None:
    if state.phase is Phase.CLOSED:
        raise TableNotOpen()


def _croupier(state: TableState) -> str:
    return state.staff_on(Role.CROUPIER) or SENSOR


def amount(value: Decimal | str | int, what: str = "the table minimum") -> Decimal:
    """An amount of money above 0, exact (never a float)."""
    try:
        found = Decimal(str(value))
    except InvalidOperation:
        raise NotAnAmount(value=repr(value)) from None
    if not found.is_finite() or found <= 0:
        raise AmountNotAbove0(what=what, value=found)
    return found


def check_ball(ball: Ball) -> Ball:
    low, high = BALL_DIAMETER_MM
    if not ball.id.strip():
        raise BallWithoutId()
    if not low <= ball.diameter_mm <= high:
        raise BallDiameter(ball=ball.id, diameter_mm=ball.diameter_mm, low=low, high=high)
    return ball


# --- the table ---------------------------------------------------------------------------------


def open_table(state: TableState, now: datetime, *, profile: str, minimum: Decimal | str | int,
               colours: tuple[str, ...], balls: tuple[Ball, ...], croupier: str, inspector: str | None = None,
               ball_in_play: str | None = None, sensor_only: bool = False, relief_minutes: int | None = None,
               posted_values: tuple[Decimal | str | int, ...] = (), by: str | None = None,
               table_id: str | None = None, house: str | Path | None = None, sign: TableSign = NO_SIGN,
               value_only: bool = False, marked_values: tuple[Decimal | str | int, ...] = (),
               pin: str | None = None, currency: str | None = None, time_zone: str | None = None,
               casino: str | None = None) -> list[Event]:
    """`pin`: the opening croupier's; an attended table does not open without it (a table driven by
    the sensor alone has no staff to ask).
    `currency`, `time_zone`, `casino`: the table's, recorded so that every reader uses them."""
    if state.phase is not Phase.CLOSED:
        raise TableAlreadyOpen()
    rules = checked_profile(profile, house)
    checked_sign(rules, amount(minimum), sign)
    checked_chip_kinds(rules, value_only, marked_values)
    colours = tuple(c.strip() for c in colours)
    if not colours or any(not c for c in colours) or len(set(colours)) != len(colours):
        raise ColourChipsNotListed()
    balls = tuple(check_ball(b) for b in balls)
    if len(balls) < 2 or len({b.id for b in balls}) != len(balls):
        raise TwoBallsNeeded()
    ball_in_play = ball_in_play or balls[0].id
    if ball_in_play not in {b.id for b in balls}:
        raise BallNotListed(ball=ball_in_play)
    if relief_minutes is not None and (not rules.relief.configurable or relief_minutes <= 0):
        if not rules.relief.configurable:
            raise ReliefNotConfigurable(profile=rules.id, rule=rules.relief.rule)
        raise ReliefIntervalInvalid()
    if not sensor_only:
        # Every spin records its croupier: at an attended table they are registered staff.
        for role, name in ((Role.CROUPIER, croupier), (Role.INSPECTOR, inspector)):
            if name is not None and (name not in state.staff or state.staff[name].role is not role):
                raise NotRegisteredAs(name=repr(name), role=role.value)
    if not croupier.strip():
        raise CroupierNotNamed()
    if not sensor_only:
        if pin is None:
            raise OpeningPinMissing(name=croupier)
        authorise(state, croupier, pin, Role.CROUPIER, to="open the table")
    return [TableOpened(profile=rules.id, minimum=amount(minimum), colours=colours, balls=balls,
                        ball_in_play=ball_in_play, croupier=croupier, inspector=inspector, sensor_only=sensor_only,
                        relief_minutes=relief_minutes,
                        posted_values=tuple(amount(v, 'a posted value') for v in posted_values),
                        by=by or croupier, table_id=table_id, rules=rules.text, sign=sign.as_data() or None,
                        value_only=bool(value_only),
                        marked_values=tuple(amount(v, "a value-marked chip's value") for v in marked_values),
                        currency=currency or None, time_zone=time_zone or None, casino=casino or None)]


def checked_chip_kinds(rules, value_only: bool, marked_values) -> None:
    """A table of value chips only (`PT-B 15b`), or value-marked chips on any bet (`PT-A 16`), only
    where the profile's text allows it."""
    if value_only and not rules.value_chips.value_only_rule:
        raise ValueOnlyNotAllowed(rules.id, rules.value_chips.rule)
    if marked_values and not rules.value_chips.marked_rule:
        raise MarkedChipsNotAllowed(rules.id, rules.value_chips.rule)


def close_table(state: TableState, now: datetime, *, by: str | None = None) -> list[Event]:
    _open(state)
    if state.phase is not Phase.BETTING:
        raise CloseMidSpin()
    if state.accounts:
        chips = profile_of(state).colour_chips
        raise CloseWithChipsInPlay(colours=tuple(state.accounts), rule=chips.exchange_rule or chips.rule)
    return [TableClosed(by=by or _croupier(state))]


def check_limits_change(state: TableState) -> None:
    """Limits change between spins: a spin's payouts are checked against the limits its bets were
    made under, so a change waits until they are recorded. A screen asks before the new minimum."""
    from croupier.table.payouts import payouts_open  # payouts builds on this module

    if state.phase in IN_SPIN:
        raise LimitsBetweenSpins()
    spin = payouts_open(state)
    if spin is not None:
        raise LimitsUntilPaid(spin)


def change_limits(state: TableState, now: datetime, *, minimum: Decimal | str | int, reason: str, by: str,
                  pin: str) -> list[Event]:
    """`FR`: management may change the limits during the day; the maxima follow the new minimum."""
    _open(state)
    authorise(state, by, pin, Role.PIT_BOSS, to="change the limits")
    new = amount(minimum)
    check_limits_change(state)
    previous = minimum_of(state)
    if new == previous:
        raise MinimumUnchanged(new=new)
    if not reason.strip():
        raise LimitsReasonMissing()
    return [LimitsChanged(minimum=new, previous=previous, reason=reason.strip(), by=by)]


def change_profile(state: TableState, now: datetime, *, profile: str, reason: str, by: str, pin: str,
                   house: str | Path | None = None) -> list[Event]:
    _open(state)
    authorise(state, by, pin, Role.PIT_BOSS, to="change the profile")
    rules = checked_profile(profile, house)
    if rules.id == state.profile:
        raise ProfileUnchanged(profile=rules.id)
    if state.phase is not Phase.BETTING or state.bets or state.prison:
        raise ProfileBetweenSpins()
    if state.accounts:
        raise ProfileWithChipsInPlay()
    if not reason.strip():
        raise ProfileReasonMissing()
    checked_chip_kinds(rules, state.value_only, state.marked_values)
    sign = sign_of(state)  # kept where the new profile's caps allow it, else the profile's caps alone
    kept = sign if sign and sign_problem(rules, minimum_of(state), sign) is None else NO_SIGN
    return [ProfileChanged(profile=rules.id, previous=profile_of(state).id, reason=reason.strip(), by=by,
                           rules=rules.text, sign=kept.as_data() or None)]


# --- the spin ----------------------------------------------------------------------------------


def start_countdown(state: TableState, now: datetime, *, seconds: int, by: str | None = None) -> list[Event]:
    """`SRIJ 13-15`: the betting period, shown as a countdown; at least the profile's minimum."""
    _open(state)
    period = profile_of(state).betting_period
    if state.phase is not Phase.BETTING:
        raise CountdownOutsideBetting()
    if state.countdown_until and now < state.countdown_until:
        raise CountdownRunning()
    if seconds <= 0 or (period.min_seconds and seconds < period.min_seconds):
        raise CountdownTooShort(seconds=period.min_seconds or 1, rule=period.rule)
    return [CountdownStarted(spin=state.spin, seconds=seconds, by=by or _croupier(state))]


def launch(state: TableState, now: datetime, *, direction: Direction | None, source: Source = Source.KEYPAD,
           wheel_game: int | None = None, wheel_restarted: bool = False, bets_on_layout: bool = False) -> list[Event]:
    """The ball is launched. The direction must alternate from launch to launch (`PT-A 21`,
    `SRIJ 17`): a repeat is recorded and raised as an alarm, since the ball is already running. Each
    launch is compared with the launch before it, a voided one included: the wheel reverses its rotor
    before every firing, re-spins too (production capture, game 43). `wheel_restarted`: the sensor
    saw the wheel power down and up since that launch (the SS2 then restarts anticlockwise), so a
    repeat is the wheel's doing; it is still recorded, and the alarm says so. Only a wheel that does
    not report its direction gives None. `bets_on_layout`: the croupier declares the bets are down
    on the layout (`RU 4.9`: a game starts with at least one bet on the field; layout bets are counted
    only once the result is known, so the croupier's word is what the table has of them, as the
    wheel's own launch is with a sensor)."""
    _open(state)
    if direction is None and source is not Source.SENSOR:
        raise DirectionMissing()
    found: list[Event] = []
    if source is Source.SENSOR:
        if state.phase is Phase.PAYING:
            # The wheel shows the next spin started: the payouts were done without being marked.
            found.append(PayoutsCompleted(spin=state.spin - 1, by=SENSOR))
        elif state.phase in IN_SPIN:
            # The wheel started again before this spin had a result (a result lost while the table
            # program was down, or a re-spin the sensor did not flag): the spin stays uncounted.
            found.append(raise_alarm(state, AlarmKind.WHEEL_FAULT, f"spin {state.spin}",
                                     f"the wheel launched again before spin {state.spin} had a result: "
                                     "no result was recorded for that launch",
                                     facts=AlarmFacts(rule="", spin=state.spin)))
    else:
        _check_launch(state, now, bets_on_layout)
    found.append(BallLaunched(spin=state.spin, direction=direction, ball=ball_in_play_of(state),
                              croupier=_croupier(state), source=source, wheel_game=wheel_game,
                              bets_on_layout=bool(bets_on_layout)))
    if direction is not None and state.last_direction is direction:
        why = ("; the wheel was powered down and up since the last launch and restarts its rotor one way"
               if wheel_restarted else "")
        cited = direction_rule(state)
        found.append(raise_alarm(state, AlarmKind.DIRECTION_REPEATED, f"spin {state.spin}",
                                 f"ball launched {direction.value} twice in a row: the launch alternates "
                                 f"({cited or 'house procedure'}){why}",
                                 offset=sum(isinstance(e, AlarmRaised) for e in found),
                                 facts=AlarmFacts(rule=cited, direction=direction, spin=state.spin,
                                                  wheel_restarted=wheel_restarted)))
    return found


def bets_to_declare(state: TableState) -> bool:
    """Fewer bets recorded than the profile needs for a game to start (`RU 4.9`): the croupier
    declares the layout's own bets are down as the ball is launched."""
    on_layout = sum(len(s) for s in state.bets.values()) + sum(len(s) for s in state.prison.values())
    return not state.sensor_only and on_layout < profile_of(state).min_bets_per_spin


def _check_launch(state: TableState, now: datetime, bets_on_layout: bool = False) -> None:
    if state.phase is Phase.PAYING:
        raise LaunchBeforePayouts()
    if state.phase is not Phase.BETTING:
        raise BallAlreadyInPlay(spin=state.spin)
    rules = profile_of(state)
    if state.countdown_until and now < state.countdown_until:
        left = (state.countdown_until - now).total_seconds()
        raise LaunchDuringCountdown(left=left, rule=rules.betting_period.rule)
    minimum = rules.betting_period.min_seconds
    if minimum and state.bets_opened_at and now < state.bets_opened_at + timedelta(seconds=minimum):
        left = (state.bets_opened_at + timedelta(seconds=minimum) - now).total_seconds()
        raise LaunchTooEarly(minimum=minimum, left=left, rule=rules.betting_period.rule)
    if bets_to_declare(state) and not bets_on_layout:
        raise LaunchWithoutBets(bets=rules.min_bets_per_spin, rule=rules.rules['min_bets_per_spin'])


def close_bets(state: TableState, now: datetime, *, source: Source = Source.KEYPAD) -> list[Event]:
    """"Jogo feito, nada mais" (`PT-A 20`): no bet placed or changed after it."""
    _open(state)
    if state.phase is Phase.NO_MORE_BETS and source is Source.SENSOR:
        return []  # the wheel repeats its state; it is recorded once
    if state.phase is not Phase.SPINNING:
        raise NoMoreBetsOutOfTurn()
    return [BetsClosed(spin=state.spin, source=source)]


def enter_result(state: TableState, now: datetime, *, number: int, by: str | None = None) -> list[Event]:
    """A number typed at the keypad; it counts once confirmed."""
    _open(state)
    _number(number)
    if state.phase not in IN_SPIN:
        raise ResultBeforeLaunch()
    found: list[Event] = []
    if state.phase is Phase.SPINNING:
        found.append(BetsClosed(spin=state.spin, source=Source.KEYPAD))  # the ball has settled
    found.append(ResultEntered(spin=state.spin, number=number, by=known(state, by or _croupier(state))))
    return found


def confirm_result(state: TableState, now: datetime, *, number: int | None = None,
                   by: str | None = None) -> list[Event]:
    """Confirm the typed number; giving it again (`number`) catches a slip of the finger."""
    _open(state)
    if state.phase is not Phase.CONFIRMING or state.pending is None:
        raise NoResultToConfirm()
    pending = state.pending.number
    if number is not None and number != pending:
        raise ResultMismatch(number=number, pending=pending)
    by = known(state, by or _croupier(state))
    return [_result(state, now, pending, Source.KEYPAD, confirmed_by=by)]


def sensor_result(state: TableState, now: datetime, *, number: int, wheel_game: int | None = None,
                  direction: Direction | None = None, typed_spin: int | None = None,
                  wheel_lines: tuple[str, ...] = ()) -> list[Event]:
    """The wheel's winning number, recorded without confirmation. The same game reported again (a
    restarted reader) is recorded once. `typed_spin`: the number is the wheel's reading of that
    spin, whose result the croupier typed first; it is compared, never a new spin. `wheel_lines`:
    the wheel's lines that decided it, kept with the result (or the alarm) as evidence."""
    _open(state)
    _number(number)
    last = state.last_result
    if typed_spin is not None:
        return _compare_typed(state, now, number, typed_spin, wheel_lines)
    if wheel_game is not None and last is not None and last.wheel_game == wheel_game and state.phase not in IN_SPIN:
        if last.number == number:
            return []
        raise WheelGameRepeated(wheel_game=wheel_game, number=number, number2=last.number)
    found: list[Event] = []
    from croupier.table.payouts import payouts_open  # payouts builds on this module

    unpaid = payouts_open(state)
    if unpaid is not None and state.accounts:
        # Colours were in play and their payouts never reached the journal (the table program was
        # down, or D was never pressed): after this result they can no longer be recorded.
        found.append(raise_alarm(state, AlarmKind.PAYOUTS_UNRECORDED, f"spin {unpaid}",
                                 f"the wheel gave the next result before the payouts of spin {unpaid} were "
                                 "recorded: the pit boss checks what was paid on it",
                                 facts=AlarmFacts(rule="", spin=unpaid)))
    if state.phase is Phase.PAYING:
        found.append(PayoutsCompleted(spin=state.spin - 1, by=SENSOR))
    found.append(_result(state, now, number, Source.SENSOR, wheel_game=wheel_game, direction=direction,
                         wheel_lines=wheel_lines))
    return found


def _compare_typed(state: TableState, now: datetime, number: int, spin: int,
                   wheel_lines: tuple[str, ...] = ()) -> list[Event]:
    """The sensor's number for a spin typed at the keypad: the same, nothing more; another, an alarm
    for the pit boss, whose correction decides (only a pit boss corrects a result)."""
    typed = state.last_result
    if state.phase in IN_SPIN or typed is None or typed.spin != spin or typed.source is not Source.KEYPAD:
        raise NotTheTypedResult(spin=spin)
    subject = f"spin {spin}"
    if number == typed.number or any(a.kind is AlarmKind.RESULT_MISMATCH and a.subject == subject
                                     for a in state.alarms.values()):
        return []
    return [raise_alarm(state, AlarmKind.RESULT_MISMATCH, subject,
                        f"spin {spin} was typed as {typed.number}; the wheel sensor read {number}: "
                        "a pit boss corrects the result if the sensor is right",
                        facts=AlarmFacts(rule="", spin=spin, typed=typed.number, read=number,
                                         wheel_lines=wheel_lines))]


def check_result_agreed(state: TableState, spin: int) -> None:
    """Payouts wait while the sensor contradicts the number typed for `spin`: a pit boss confirms
    the typed number (clearing the alarm, with PIN) or corrects the result."""
    result = next((s for s in state.recent if s.spin == spin), None)
    for alarm in state.alarms.values():
        facts = alarm.facts
        if (alarm.kind is AlarmKind.RESULT_MISMATCH and facts is not None and facts.spin == spin
                and result is not None and result.corrected_from is None and result.number == facts.typed):
            raise TypedAndReadDiffer(spin=spin, typed=facts.typed, read=facts.read)


def _number(number: int) -> int:
    try:
        return check_number(number)
    except ValueError:
        raise NotANumber(number=repr(number)) from None


def _result(state: TableState, now: datetime, number: int, source: Source, *, confirmed_by: str | None = None,
            wheel_game: int | None = None, direction: Direction | None = None,
            wheel_lines: tuple[str, ...] = ()) -> ResultRecorded:
    launch_ = state.launch
    if wheel_game is None and launch_ is not None:
        wheel_game = launch_.wheel_game  # a typed result of a game the sensor saw launched: its reading matches it
    outcomes, prison = settle(state, number)
    return ResultRecorded(
        spin=state.spin, number=number, source=source,
        ball=launch_.ball if launch_ else ball_in_play_of(state),
        croupier=launch_.croupier if launch_ else _croupier(state),
        direction=launch_.direction if launch_ else direction,
        confirmed_by=confirmed_by, wheel_game=wheel_game, outcomes=outcomes, prison=prison or None,
        wheel_lines=wheel_lines,
    )


def payouts_done(state: TableState, now: datetime, *, by: str | None = None) -> list[Event]:
    _open(state)
    if state.phase is not Phase.PAYING:
        raise NoPayoutsUnderWay()
    check_result_agreed(state, state.spin - 1)
    return [PayoutsCompleted(spin=state.spin - 1, by=known(state, by or _croupier(state)))]


def void_spin(state: TableState, now: datetime, *, reason: VoidReason, source: Source = Source.KEYPAD,
              by: str | None = None) -> list[Event]:
    """Golpe nulo (`PT-A 22`, `RU 4.14`, `SRIJ 23`), from the launch until the result is confirmed.
    The ball goes back in the pocket of the previous result; bets stand; the spin does not count."""
    _open(state)
    if state.phase not in IN_SPIN:
        raise VoidOutOfTurn()
    reason = choice(VoidReason, reason, what="a reason for a golpe nulo")
    last = state.last_result
    by = SENSOR if source is Source.SENSOR else known(state, by or _croupier(state))
    return [SpinVoided(spin=state.spin, reason=reason, put_back=last.number if last else None,
                       source=source, by=by)]


def acknowledge_void(state: TableState, now: datetime, *, by: str | None = None) -> list[Event]:
    """The croupier has seen the golpe nulo the wheel sensor declared, and where the ball goes back."""
    _open(state)
    void = state.last_void
    if void is None or not void.awaits_acknowledgement:
        raise NoVoidToAcknowledge()
    return [VoidAcknowledged(spin=void.spin, by=known(state, by or _croupier(state)))]


def correct_result(state: TableState, now: datetime, *, spin: int, number: int, reason: str, by: str,
                   pin: str) -> list[Event]:
    """A pit boss corrects a recorded result: a new event with both numbers and the reason, and the
    spin's bets settled again on the right number."""
    _open(state)
    authorise(state, by, pin, Role.PIT_BOSS, to="correct a result")
    _number(number)
    if not reason.strip():
        raise CorrectionReasonMissing()
    recorded = next((s for s in state.recent if s.spin == spin), None)
    if recorded is None:
        raise SpinNotKept(spin=spin, recent=len(state.recent))
    if recorded.number == number:
        raise ResultUnchanged(spin=spin, number=number)
    outcomes, _ = settle(state, number, stakes=recorded.stakes, prison=recorded.prison)
    # The winners counted at the payouts were handed on the number replaced: settled on both numbers.
    counted_before, _ = settle(state, recorded.number, stakes=recorded.paid, prison={})
    counted_after, _ = settle(state, number, stakes=recorded.paid, prison={})
    values = {colour: chip_value(state, colour) if colour == VALUE_CHIPS or colour in state.accounts else None
              for colour in {*recorded.stakes, *recorded.prison, *recorded.paid}}
    recover = recovery((*recorded.outcomes, *counted_before), (*outcomes, *counted_after), values)
    # The correction is the pit boss's answer to the sensor contradicting this spin: that alarm ends with it.
    answered = [AlarmCleared(alarm=alarm.id, note=reason.strip(), by=by, answer=AlarmAnswer.CORRECTION) for alarm in state.alarms.values()
                if alarm.kind is AlarmKind.RESULT_MISMATCH and alarm.facts is not None and alarm.facts.spin == spin]
    return [ResultCorrected(spin=spin, previous=recorded.number, number=number, reason=reason.strip(),
                            by=by, outcomes=outcomes, recover=recover), *answered]
