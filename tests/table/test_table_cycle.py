"""The spin cycle and the table, per profile: bets open -> launch -> no more bets -> result ->
payouts, alternating launches (PT-A 21), SRIJ's betting period, RU 4.9, golpe nulo (PT-A 22,
RU 4.14, SRIJ 23), confirmation of typed results, corrections by the pit boss only."""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from croupier.board.model import board_for
from croupier.rules.spin import Direction, VoidReason
from croupier.table import bets, colours, cycle
from croupier.table.clock import FakeClock
from croupier.table.events import AlarmKind, Ball, Role, Source, Stake
from croupier.table.refusal import Refused
from croupier.table.state import Phase

from table_kit import BALLS, PINS, PROFILES, Table, opened, seat, spin_to, staffed

CW, ACW = Direction.CLOCKWISE, Direction.ANTICLOCKWISE


def spin(table: Table, number: int, direction: Direction | None = None, stakes=None) -> None:
    """One full attended spin; bets (default five chips on red: FR takes no fewer) keep RU 4.9 satisfied."""
    if "red" not in table.state.accounts:
        seat(table)
    table.do(bets.place_bets, colour="red", stakes=stakes or (Stake(bet="red", chips=5),))
    table.clock.advance(seconds=30)  # SRIJ 13: at least 30 s of betting
    last = table.state.last_direction
    table.do(cycle.launch, direction=direction or (last.opposite() if last else CW))
    table.do(cycle.close_bets)
    table.clock.advance(seconds=20)
    table.do(cycle.enter_result, number=number)
    table.do(cycle.confirm_result)
    table.do(cycle.payouts_done)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_spin_goes_round_the_cycle_and_records_ball_croupier_and_direction(profile, clock):
    table = opened(profile, clock)
    seat(table)
    assert table.state.phase is Phase.BETTING
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=5),))
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=ACW)
    assert table.state.phase is Phase.SPINNING
    table.do(cycle.close_bets)
    assert table.state.phase is Phase.NO_MORE_BETS
    table.do(cycle.enter_result, number=17)
    assert table.state.phase is Phase.CONFIRMING and table.state.counted == 0  # typed: not counted yet
    (result,) = table.do(cycle.confirm_result, number=17)
    assert (result.number, result.source, result.ball, result.croupier, result.direction, result.confirmed_by) == (
        17, Source.KEYPAD, "A", "Ana", ACW, "Ana")
    assert table.state.phase is Phase.PAYING and table.state.counted == 1
    table.refused(cycle.launch, r"finish the payouts before launching the ball \(PT-A 19\)", direction=CW)
    table.do(cycle.payouts_done)
    assert table.state.phase is Phase.BETTING and table.state.spin == 2


@pytest.mark.parametrize("profile", PROFILES)
def test_launching_the_same_way_twice_is_recorded_and_raises_an_alarm(profile, clock):
    table = opened(profile, clock)
    spin(table, 5, CW)
    spin(table, 6, ACW)
    assert not table.state.alarms  # alternating: PT-A 21 kept
    spin(table, 7, ACW)
    (alarm,) = table.state.alarms.values()
    # Each table cites its own regulation's rule, none where it states none (RU, PT-B, FR: the house's procedure).
    cited = {"pt-americana": "PT-A 21", "pt-srij-french": "SRIJ 17"}.get(profile, "")
    assert alarm.kind is AlarmKind.DIRECTION_REPEATED and f"({cited or 'house procedure'})" in alarm.detail
    assert alarm.subject == "spin 3" and (alarm.facts.direction, alarm.facts.spin, alarm.facts.rule) == (ACW, 3, cited)
    assert table.state.recent[-1].direction is ACW and table.state.counted == 3  # the spin still counts


def test_each_launch_alternates_with_the_one_before_void_launches_included(clock):
    """The production capture, game 43: the counted spin before went anticlockwise, the firing that
    failed clockwise, its retry anticlockwise, the next game clockwise. No repeat there (PT-A 21)."""
    table = opened("pt-americana", clock)
    spin(table, 23, ACW)
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=CW, source=Source.SENSOR, wheel_game=43)
    table.do(cycle.void_spin, reason=VoidReason.TOO_FEW_REVOLUTIONS, source=Source.SENSOR)
    table.do(cycle.launch, direction=ACW, source=Source.SENSOR, wheel_game=43)
    table.do(cycle.sensor_result, number=8, wheel_game=43)
    table.do(cycle.payouts_done)
    spin(table, 30, CW)
    assert not table.state.alarms and table.state.counted == 3
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=ACW)
    table.do(cycle.void_spin, reason=VoidReason.CHIP_FELL)
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=ACW)  # the relaunch repeats the void launch's direction
    (alarm,) = table.state.alarms.values()
    assert alarm.kind is AlarmKind.DIRECTION_REPEATED and alarm.facts.direction is ACW
    assert not alarm.facts.wheel_restarted and "powered" not in alarm.detail


def test_a_repeat_after_the_wheel_was_powered_down_and_up_says_the_wheel_caused_it(clock):
    table = opened("pt-americana", clock)
    spin(table, 23, ACW)
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=ACW, source=Source.SENSOR, wheel_game=1, wheel_restarted=True)
    (alarm,) = table.state.alarms.values()
    assert alarm.kind is AlarmKind.DIRECTION_REPEATED and alarm.facts.wheel_restarted
    assert "powered down and up" in alarm.detail and table.state.launch is not None  # recorded all the same


def test_the_sensors_reading_of_a_typed_spin_is_compared_and_never_a_new_spin(clock):
    table = opened("pt-americana", clock)
    seat(table)
    table.do(cycle.launch, direction=CW, source=Source.SENSOR, wheel_game=5)
    table.do(cycle.enter_result, number=23)
    table.do(cycle.confirm_result)
    assert table.do(cycle.sensor_result, number=23, wheel_game=5, typed_spin=1) == []  # the same: nothing more
    (alarm,) = table.do(cycle.sensor_result, number=14, wheel_game=5, typed_spin=1)
    assert alarm.alarm_kind is AlarmKind.RESULT_MISMATCH and "typed as 23; the wheel sensor read 14" in alarm.detail
    assert table.do(cycle.sensor_result, number=14, wheel_game=5, typed_spin=1) == []  # raised once
    assert (table.state.counted, table.state.last_result.number, table.state.phase) == (1, 23, Phase.PAYING)


def test_a_correction_of_a_spin_the_sensor_contradicted_clears_that_alarm_with_its_reason(clock):
    table = opened("pt-americana", clock)
    seat(table)
    for spin_, wheel_game, typed, read in ((1, 5, 23, 14), (2, 6, 8, 9)):
        table.do(cycle.launch, direction=CW if spin_ == 1 else ACW, source=Source.SENSOR, wheel_game=wheel_game)
        table.do(cycle.enter_result, number=typed)
        table.do(cycle.confirm_result)
        table.do(cycle.sensor_result, number=read, wheel_game=wheel_game, typed_spin=spin_)
    first = next(a.id for a in table.state.alarms.values() if a.facts.spin == 1)
    correction, cleared = table.do(cycle.correct_result, spin=1, number=14, reason="typed wrong", by="Boss",
                                   pin=PINS["Boss"])
    assert (cleared.alarm, cleared.note, cleared.by) == (first, "typed wrong", "Boss")
    assert [a.facts.spin for a in table.state.alarms.values()] == [2]  # spin 2's still waits for its pit boss


def test_payouts_the_wheel_outran_are_recorded_once_against_their_spin(clock):
    from croupier.table.payouts import record_payouts

    table = opened("pt-americana", clock)
    seat(table)
    table.do(cycle.launch, direction=CW)
    table.do(cycle.enter_result, number=17)
    table.do(cycle.confirm_result)
    table.do(cycle.launch, direction=ACW, source=Source.SENSOR, wheel_game=2)  # before the croupier's D
    assert table.state.phase is Phase.SPINNING
    (recorded,) = table.do(record_payouts, spin=1, paid={"red": [Stake(bet="17", chips=1)]})
    assert recorded.spin == 1 and table.state.accounts["red"].won == 35 and table.state.phase is Phase.SPINNING
    table.refused(record_payouts, "no payouts under way", spin=1, paid={"red": [Stake(bet="17", chips=1)]})


def test_ru_a_spin_needs_a_bet_on_the_layout(clock):
    table = opened("ru-american", clock)
    table.refused(cycle.launch, r"at least 1 bet on the layout \(RU 4.9\)", direction=CW)
    seat(table)
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="0", chips=1),))
    (launched,) = table.do(cycle.launch, direction=CW)
    assert not launched.bets_on_layout


def test_ru_the_croupier_declares_the_layout_bets_at_the_keypad_launch(clock):
    """RU 4.9: "the game starts with at least one bet on the field". Layout bets are counted once
    the result is known, so a keypad launch with none recorded is not refused when the croupier says
    they are down, as the wheel's own launch is not: the declaration is recorded with the launch."""
    table = opened("ru-american", clock)
    (launched,) = table.do(cycle.launch, direction=CW, bets_on_layout=True)
    assert launched.bets_on_layout and table.state.phase is Phase.SPINNING


def test_pt_a_spins_without_bets(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW)
    assert table.state.phase is Phase.SPINNING


def test_srij_betting_period_lasts_at_least_30_seconds_and_a_countdown_keeps_the_ball(clock):
    table = opened("pt-srij-french", clock)
    clock.advance(seconds=29)
    table.refused(cycle.launch, r"at least 30 s: 1 s left \(SRIJ 13-15\)", direction=CW)
    table.refused(cycle.start_countdown, r"at least 30 s \(SRIJ 13-15\)", seconds=20)
    table.do(cycle.start_countdown, seconds=45)
    clock.advance(seconds=44)
    table.refused(cycle.launch, r"bets are open for 1 s more", direction=CW)
    clock.advance(seconds=1)
    table.do(cycle.launch, direction=CW)


def test_srij_bets_close_at_the_launch_but_pt_a_takes_them_until_no_more_bets(clock):
    srij = opened("pt-srij-french", clock)
    seat(srij)
    clock.advance(seconds=30)
    srij.do(cycle.launch, direction=CW)
    srij.refused(bets.place_bets, r"bets closed when the ball was launched \(SRIJ 13-15\)", colour="red",
                 stakes=(Stake(bet="red", chips=5),))
    pta = opened("pt-americana", clock)
    seat(pta)
    pta.do(cycle.launch, direction=CW)
    pta.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))  # PT-A 20: until "nada mais"
    pta.do(cycle.close_bets)
    pta.refused(bets.place_bets, r"PT-A 20", colour="red", stakes=(Stake(bet="black", chips=1),))


@pytest.mark.parametrize("profile", PROFILES)
def test_golpe_nulo_puts_the_ball_back_in_the_previous_pocket_and_bets_stand(profile, clock):
    table = opened(profile, clock)
    spin(table, 23)
    seat_bets = (Stake(bet="17", chips=5),)
    table.do(bets.place_bets, colour="red", stakes=seat_bets)
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=ACW)
    (void,) = table.do(cycle.void_spin, reason=VoidReason.FOREIGN_OBJECT)
    assert (void.put_back, void.reason, void.spin, void.by) == (23, VoidReason.FOREIGN_OBJECT, 2, "Ana")
    assert table.state.bets == {"red": seat_bets}  # bets stand
    assert (table.state.counted, table.state.spin, table.state.phase) == (1, 2, Phase.BETTING)
    table.refused(cycle.void_spin, r"between the launch and the confirmed result \(PT-A 22\)",
                  reason=VoidReason.CHIP_FELL)
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=CW)  # the same game replayed, the other way from the void launch
    assert not table.state.alarms
    table.do(cycle.enter_result, number=9)
    table.do(cycle.void_spin, reason=VoidReason.TOO_FEW_REVOLUTIONS)  # still before the confirmation
    assert table.state.counted == 1 and table.state.voids == 2


def test_a_void_before_any_result_has_no_pocket_to_put_back(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW)
    (void,) = table.do(cycle.void_spin, reason=VoidReason.CHIP_FELL)
    assert void.put_back is None


def test_a_golpe_nulo_from_the_sensor_waits_for_the_croupiers_acknowledgement(clock):
    table = opened("pt-americana", clock)
    spin(table, 23)
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=ACW, source=Source.SENSOR, wheel_game=8)
    table.do(cycle.void_spin, reason=VoidReason.SAME_DIRECTION, source=Source.SENSOR)
    void = table.state.voided
    assert (void.put_back, void.wheel_game, void.awaits_acknowledgement) == (23, 8, True)
    table.do(cycle.launch, direction=ACW, source=Source.SENSOR, wheel_game=9)  # the wheel relaunches at once
    assert table.state.voided is None and table.state.last_void.awaits_acknowledgement  # still to be seen
    table.refused(cycle.acknowledge_void, "'Zé' is not registered staff", by="Zé")
    (seen,) = table.do(cycle.acknowledge_void, by="Rui")
    assert (seen.spin, seen.by) == (2, "Rui") and not table.state.last_void.awaits_acknowledgement
    table.refused(cycle.acknowledge_void, "no golpe nulo from the sensor to acknowledge")


def test_a_golpe_nulo_declared_at_the_keypad_needs_no_acknowledgement(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW)
    table.do(cycle.void_spin, reason=VoidReason.CHIP_FELL)
    assert table.state.voided is not None
    table.refused(cycle.acknowledge_void, "no golpe nulo from the sensor to acknowledge")


def test_a_typed_result_counts_only_once_confirmed_and_a_mismatch_is_refused(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW)
    table.do(cycle.enter_result, number=17)
    table.refused(cycle.confirm_result, "14 does not match the entered 17", number=14)
    table.do(cycle.enter_result, number=14)  # typed again
    (result,) = table.do(cycle.confirm_result, number=14)
    assert result.number == 14 and table.state.counted == 1


def test_a_result_must_be_on_the_wheel(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW)
    table.refused(cycle.enter_result, "37 is not a number on the wheel", number=37)


def test_sensor_results_need_no_confirmation_and_a_game_is_recorded_once(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW, source=Source.SENSOR)
    (result,) = table.do(cycle.sensor_result, number=32, wheel_game=7)
    assert (result.source, result.wheel_game, result.confirmed_by) == (Source.SENSOR, 7, None)
    table.do(cycle.payouts_done)
    assert table.do(cycle.sensor_result, number=32, wheel_game=7) == []  # a restarted reader repeats it
    table.refused(cycle.sensor_result, "game 7 again with 15; 32 was recorded", number=15, wheel_game=7)
    assert table.state.counted == 1


def test_a_sensor_launch_while_paying_marks_the_payouts_done(clock):
    table = opened("pt-americana", clock)
    spin(table, 4)
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))
    table.do(cycle.launch, direction=CW)
    table.do(cycle.sensor_result, number=4)
    assert table.state.phase is Phase.PAYING
    events = table.do(cycle.launch, direction=ACW, source=Source.SENSOR)
    assert table.kinds(events) == ["payouts-completed", "ball-launched"] and events[0].by == "sensor"


def test_a_sensor_result_that_ends_payouts_never_recorded_raises_an_alarm(clock):
    """A restart with the sheet open, or D never pressed: the wheel launches and gives the next result,
    after which that spin's payouts can no longer be recorded. It never passes in silence."""
    table = opened("pt-americana", clock)
    spin(table, 4)
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))
    table.do(cycle.launch, direction=CW)
    table.do(cycle.sensor_result, number=4)  # spin 2: red's counts on the layout never recorded
    table.do(cycle.launch, direction=ACW, source=Source.SENSOR)
    events = table.do(cycle.sensor_result, number=9)
    (alarm,) = [e for e in events if table.kinds([e]) == ["alarm-raised"]]
    assert (alarm.alarm_kind, alarm.facts.spin) == (AlarmKind.PAYOUTS_UNRECORDED, 2)
    assert table.state.alarms[alarm.alarm].kind is AlarmKind.PAYOUTS_UNRECORDED


def test_a_sensor_result_after_recorded_payouts_raises_no_alarm(clock):
    table = opened("pt-americana", clock)
    spin(table, 4)
    table.do(cycle.launch, direction=ACW, source=Source.SENSOR)
    assert "alarm-raised" not in table.kinds(table.do(cycle.sensor_result, number=9))


def test_only_a_pit_boss_with_the_pin_corrects_a_result_and_the_colour_is_settled_again(clock):
    table = opened("pt-americana", clock)
    spin(table, 18, stakes=(Stake(bet="17", chips=1),))
    red = table.state.accounts["red"]
    assert (red.won, red.lost) == (0, 1)
    arguments = dict(spin=1, number=17, reason="sensor misread, video checked")
    table.refused(cycle.correct_result, "a pit-boss must give their name and PIN", by="Boss", pin=None, **arguments)
    table.refused(cycle.correct_result, "Ana is croupier: only a pit-boss may correct a result", by="Ana",
                  pin=PINS["Ana"], **arguments)
    table.refused(cycle.correct_result, "wrong PIN for Boss", by="Boss", pin="0000", **arguments)
    (correction,) = table.do(cycle.correct_result, by="Boss", pin=PINS["Boss"], **arguments)
    assert (correction.previous, correction.number, correction.reason) == (18, 17, "sensor misread, video checked")
    red = table.state.accounts["red"]
    assert (red.staked, red.won, red.returned, red.lost) == (1, 35, 1, 0)  # a plein pays 35 to 1 (PT-A 27a)
    assert table.state.recent[-1].number == 17 and table.state.recent[-1].corrected_from == 18


def test_opening_checks_profile_balls_and_staff(clock):
    table = staffed(clock)
    base = dict(minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    table.refused(cycle.open_table, "'pt-brasil' is not a profile", profile="pt-brasil", **base)
    big = (BALLS[0], Ball(id="C", diameter_mm=Decimal("25")))
    table.refused(cycle.open_table, r"ball C is 25 mm: a ball is 18-24 mm across \(PT-A 17\)", profile="pt-americana",
                  **{**base, "balls": big})
    table.refused(cycle.open_table, r"two balls", profile="pt-americana", **{**base, "balls": BALLS[:1]})
    table.refused(cycle.open_table, "'Zé' is not registered as croupier", profile="pt-americana",
                  **{**base, "croupier": "Zé"})
    table.refused(cycle.open_table, r"does not let the house set the relief interval \(PT-A 33\)",
                  profile="pt-americana", relief_minutes=45, **base)
    table.refused(cycle.open_table, "minimum must be above 0", profile="pt-americana", **{**base, "minimum": 0})
    table.do(cycle.open_table, profile="ru-american", relief_minutes=40, **base)  # RU 4.4: configured interval
    table.refused(cycle.open_table, "already open", profile="ru-american", **base)


def test_limits_change_mid_shift_only_by_the_pit_boss(clock):
    table = opened("mt-fair", clock)
    table.refused(cycle.change_limits, "only a pit-boss may change the limits", minimum=10, reason="busy night",
                  by="Ana", pin=PINS["Ana"])
    (change,) = table.do(cycle.change_limits, minimum=10, reason="busy night", by="Boss", pin=PINS["Boss"])
    assert (change.previous, change.minimum) == (Decimal("5"), Decimal("10")) and table.state.minimum == 10


def test_the_profile_changes_only_by_the_pit_boss_and_with_no_colour_in_play(clock):
    table = opened("pt-americana", clock)
    seat(table)
    arguments = dict(profile="pt-americana-2002", reason="house decision")
    table.refused(cycle.change_profile, "only a pit-boss may change the profile", by="Ana", pin=PINS["Ana"],
                  **arguments)
    table.refused(cycle.change_profile, "exchange the colour chips in play first", by="Boss", pin=PINS["Boss"],
                  **arguments)
    table.do(colours.cash_out, colour="red", chips=100, by="Ana")
    table.do(cycle.change_profile, by="Boss", pin=PINS["Boss"], **arguments)
    assert table.state.profile == "pt-americana-2002"


def test_closing_waits_for_the_colours_to_be_exchanged(clock):
    table = opened("pt-americana", clock)
    seat(table)
    table.refused(cycle.close_table, r"exchange the colour chips still in play first: red \(PT-A 15\)")
    table.do(colours.cash_out, colour="red", chips=100, by="Ana")
    table.do(cycle.close_table, by="Ana")
    assert table.state.phase is Phase.CLOSED
    table.refused(cycle.launch, "the table is not open", direction=CW)
    assert Role.CROUPIER not in table.state.on_duty


@pytest.mark.parametrize(("profile", "rule"), [("pt-americana", "PT-A 15"), ("pt-americana-2002", "PT-B 16"),
                                               ("ru-american", "RU 4.7"), ("mt-fair", "FR"),
                                               ("pt-srij-french", "SRIJ 3a, 10")])
def test_closing_with_colours_in_play_cites_the_table_s_own_rule_and_names_them_in_order(clock, profile, rule):
    table = opened(profile, clock)
    seat(table, "blue")
    seat(table, "red")
    with pytest.raises(Refused) as refused:
        table.do(cycle.close_table, by="Ana")
    assert refused.value.facts == {"colours": ("blue", "red"), "rule": rule}
    assert str(refused.value) == f"exchange the colour chips still in play first: blue, red ({rule})"


@pytest.mark.parametrize(("profile", "rule"), [("pt-americana", "PT-A 15"), ("ru-american", "RU 4.7"),
                                               ("pt-srij-french", "SRIJ 3a, 10")])
def test_a_profile_recorded_before_it_named_the_exchange_rule_still_cites_its_own(profile, rule):
    """A journal keeps the profile's text of its opening: one written before the profiles said
    which rule the exchange of a leaving player's chips is still cites its own rule set's."""
    from croupier.rules.profiles import profile_from_text
    text = (Path(__file__).parents[2] / "croupier" / "rules" / "profiles" / f"{profile}.toml").read_text()
    older = "\n".join(line for line in text.splitlines() if not line.startswith("exchange_rule"))
    chips = profile_from_text(older).colour_chips
    assert (chips.exchange_rule or chips.rule) == rule


def test_an_unknown_void_reason_is_refused_with_the_choices(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW)
    table.refused(cycle.void_spin, "'dropped' is not a reason for a golpe nulo; use one of: chip-fell, another-ball",
                  reason="dropped")


SPIN_STEPS = st.lists(st.sampled_from(["launch", "close", "enter", "confirm", "void", "pay"]), max_size=12)


@settings(max_examples=40)
@given(st.sampled_from(PROFILES), SPIN_STEPS)
def test_bets_open_says_exactly_when_a_bet_is_taken(profile, steps):
    """PT-A 20: bets are taken until "no more bets", the ball running; SRIJ 14: a betting period
    ends at the launch; PT-A 22: none after a golpe nulo. The board's lamp and the bet command both
    follow bets_open."""
    clock = FakeClock()
    table = opened(profile, clock)
    seat(table)
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))  # RU 4.9: a bet to launch
    commands = {"launch": (cycle.launch, {"direction": CW}), "close": (cycle.close_bets, {}),
                "enter": (cycle.enter_result, {"number": 8}), "confirm": (cycle.confirm_result, {}),
                "void": (cycle.void_spin, {"reason": VoidReason.CHIP_FELL}), "pay": (cycle.payouts_done, {})}
    for step in steps:
        clock.advance(seconds=31)  # SRIJ 13: the betting period has run
        command, arguments = commands[step]
        try:
            table.do(command, **arguments)
        except Refused:
            pass
    # PT-A 22: after a golpe nulo the bets stand until the next launch (SRIJ 24: the players' choice)
    bets_stand = table.state.voided is not None and profile != "pt-srij-french"
    expected = (table.state.phase is Phase.BETTING and not bets_stand) or (
        table.state.phase is Phase.SPINNING and profile != "pt-srij-french")
    assert bets.bets_open(table.state) is expected
    assert ("bets_open" in board_for(table.state).lamps) is expected
    try:
        table.do(bets.place_bets, colour="red", stakes=(Stake(bet="black", chips=5),))
        taken = True
    except Refused:
        taken = False
    assert taken is expected


def test_limits_stay_as_they_were_until_the_spin_is_paid(clock):
    """A spin's payouts are checked against the limits its bets were made under: the pit boss
    changes them once the payouts are recorded, not between the result and D."""
    from croupier.table import payouts

    table = opened("pt-americana", clock)
    table.do(colours.assign_colour, colour="red", player="seat 1", chip_value="5", chips=100, by="Ana")
    spin_to(table, 17)
    table.refused(cycle.change_limits, "once the payouts of spin 1 are recorded", minimum="10",
                  reason="busy table", by="Boss", pin=PINS["Boss"])
    table.do(payouts.record_payouts, spin=1, paid={"red": (Stake(bet="17", chips=4),)}, played=("red",), by="Ana")
    table.do(cycle.change_limits, minimum="10", reason="busy table", by="Boss", pin=PINS["Boss"])
    assert table.state.minimum == 10
