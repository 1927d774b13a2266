"""Balls (PT-A 17-18), croupier relief (PT-A 33, PT-B 35, RU 4.4), alarms and the pit boss, with an
hour of table time passing in microseconds."""
from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.rules.spin import Direction
from croupier.table import alarms, balls, bets, cycle, relief
from croupier.table.commands import tick
from croupier.table.events import AlarmAnswer, AlarmKind, Ball, Role, Stake
from croupier.table.notices import BallSwapDue, ReliefDue, notices

from table_kit import PINS, PROFILES, opened, seat

CW = Direction.CLOCKWISE


# --- balls -------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["pt-americana", "pt-americana-2002"])
def test_balls_alternate_hour_by_hour_with_an_announcement_then_an_alarm(profile, clock):
    table = opened(profile, clock)
    clock.advance(minutes=54)
    assert not [n for n in notices(table.state, clock.now()) if isinstance(n, BallSwapDue)]
    clock.advance(minutes=1)  # 5 min before the hour: the croupier is told to announce the change
    (notice,) = [n for n in notices(table.state, clock.now()) if isinstance(n, BallSwapDue)]
    assert notice.minutes == 5 and notice.rule.endswith("17")
    clock.advance(minutes=5)
    assert not ball_alarms(table.do(tick))  # due, not yet late
    clock.advance(seconds=1)
    (alarm,) = ball_alarms(table.do(tick))
    assert "ball A in play since" in alarm.subject and "PT-" in alarm.detail
    assert (alarm.facts.ball, alarm.facts.minutes, alarm.facts.rule) == ("A", 60, notice.rule)
    assert table.do(tick) == []  # raised once
    swap, ended = table.do(balls.swap_ball, by="Ana")  # the swap ends the alarm it answers, in the record
    assert (swap.ball, swap.previous, swap.late) == ("B", "A", True)
    assert (ended.alarm, ended.answer, ended.by, ended.note) == (alarm.alarm, AlarmAnswer.BALL_SWAP, "Ana",
                                                                "ball swapped: B in play")
    assert alarm.alarm not in table.state.alarms
    clock.advance(minutes=59)
    (swap,) = table.do(balls.swap_ball, by="Ana")
    assert (swap.ball, swap.late) == ("A", False)


def ball_alarms(events):
    return [e for e in events if e.alarm_kind is AlarmKind.BALL_SWAP_OVERDUE]


def test_every_spin_records_the_ball_in_play(clock):
    table = opened("pt-americana", clock)
    table.do(balls.swap_ball, by="Ana")
    table.do(cycle.launch, direction=CW)
    table.refused(balls.swap_ball, "between spins", by="Ana")
    table.do(cycle.enter_result, number=3)
    (result,) = table.do(cycle.confirm_result)
    assert result.ball == "B"


def test_a_defective_ball_is_replaced_only_by_one_of_the_same_diameter(clock):
    table = opened("pt-americana", clock)
    table.refused(balls.replace_ball, r"must be the same diameter, not 22 mm \(PT-A 18\)", previous="A",
                  ball=Ball(id="C", diameter_mm=Decimal("22")), reason="chipped", by="Ana")
    table.refused(balls.replace_ball, r"18-24 mm", previous="A", ball=Ball(id="C", diameter_mm=Decimal("30")),
                  reason="chipped", by="Ana")
    table.refused(balls.replace_ball, "already registered", previous="A", ball=BallB(), reason="chipped", by="Ana")
    table.do(balls.replace_ball, previous="A", ball=Ball(id="C", diameter_mm=Decimal("21")), reason="chipped",
             by="Ana")
    assert set(table.state.balls) == {"B", "C"} and table.state.ball_in_play == "C"


def BallB() -> Ball:
    return Ball(id="B", diameter_mm=Decimal("21"))


def test_the_ball_in_play_is_not_replaced_mid_spin(clock):
    table = opened("pt-americana", clock)
    table.do(cycle.launch, direction=CW)
    table.refused(balls.replace_ball, r"declare the spin void first \(PT-A 22\)", previous="A",
                  ball=Ball(id="C", diameter_mm=Decimal("21")), reason="lost", by="Ana")


# --- relief ------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile, minutes, rule", [("pt-americana", 60, "PT-A 33"),
                                                    ("pt-americana-2002", 30, "PT-B 35"),
                                                    ("ru-american", 60, "RU 4.4")])
def test_the_croupier_is_warned_before_relief_is_due_and_an_alarm_is_raised_when_overdue(profile, minutes, rule,
                                                                                         clock):
    table = opened(profile, clock)
    clock.advance(minutes=minutes - 6)
    assert not [n for n in notices(table.state, clock.now()) if isinstance(n, ReliefDue)]
    clock.advance(minutes=2)
    (notice,) = [n for n in notices(table.state, clock.now()) if isinstance(n, ReliefDue) and n.name == "Ana"]
    assert notice.minutes == 4 and notice.role is Role.CROUPIER and notice.rule == rule
    clock.advance(minutes=4)
    assert not [e for e in table.do(tick) if "croupier" in e.subject]
    clock.advance(seconds=1)
    overdue = [e for e in table.do(tick) if e.subject.startswith("croupier Ana")]
    assert len(overdue) == 1 and overdue[0].alarm_kind is AlarmKind.RELIEF_OVERDUE and rule in overdue[0].detail
    facts = overdue[0].facts  # what the screen words in the table's language
    assert (facts.role, facts.name, facts.minutes, facts.rule) == (Role.CROUPIER, "Ana", minutes, rule)


def test_pt_a_relief_within_the_hour_is_not_overdue_and_the_next_spin_records_the_new_croupier(clock):
    table = opened("pt-americana", clock)
    clock.advance(minutes=59)
    (relieved,) = table.do(relief.relieve, role=Role.CROUPIER, incoming="Rui", pin=PINS["Rui"])
    assert (relieved.outgoing, relieved.incoming, relieved.overdue) == ("Ana", "Rui", False)
    table.do(cycle.launch, direction=CW)
    table.do(cycle.enter_result, number=1)
    (result,) = table.do(cycle.confirm_result)
    assert result.croupier == "Rui"


def test_pt_a_late_relief_is_recorded_overdue_with_its_alarm_even_without_a_tick(clock):
    table = opened("pt-americana", clock)
    clock.advance(minutes=61)
    events = table.do(relief.relieve, role=Role.CROUPIER, incoming="Rui", pin=PINS["Rui"])
    assert table.kinds(events) == ["alarm-raised", "alarm-raised", "staff-relieved", "alarm-cleared"]
    assert {e.alarm_kind for e in events[:2]} == {AlarmKind.RELIEF_OVERDUE, AlarmKind.BALL_SWAP_OVERDUE}
    relief_alarm = next(e.alarm for e in events[:2] if e.alarm_kind is AlarmKind.RELIEF_OVERDUE)
    relieved, ended = events[2:]
    assert relieved.overdue and (ended.alarm, ended.answer, ended.by) == (relief_alarm, AlarmAnswer.RELIEF, "Rui")
    assert [a.kind for a in table.state.alarms.values()] == [AlarmKind.BALL_SWAP_OVERDUE]  # the ball's still waits


def test_pt_b_an_overdue_relief_needs_the_force_majeure_reported(clock):
    table = opened("pt-americana-2002", clock)
    clock.advance(minutes=31)
    table.do(tick)
    table.refused(relief.relieve, r"force majeure .* \(PT-B 35\)", role=Role.CROUPIER, incoming="Rui",
                  pin=PINS["Rui"])
    relieved, _ended = table.do(relief.relieve, role=Role.CROUPIER, incoming="Rui", pin=PINS["Rui"],
                                reason="relief croupier stuck in traffic, inspectors told")
    assert relieved.overdue and relieved.reason.startswith("relief croupier")


def test_ru_the_inspector_is_relieved_at_the_configured_interval_too(clock):
    table = opened("ru-american", clock, relief_minutes=40)
    clock.advance(minutes=41)
    subjects = sorted(e.subject.split(" on since")[0] for e in table.do(tick))
    assert subjects == ["croupier Ana", "inspector Ines"]
    relieved, ended = table.do(relief.relieve, role=Role.INSPECTOR, incoming="Olga", pin=PINS["Olga"])
    assert relieved.overdue and table.state.staff_on(Role.INSPECTOR) == "Olga"
    assert [table.state.alarms[n].facts.role for n in table.state.alarms] == [Role.CROUPIER]  # the inspector's ended
    assert ended.answer is AlarmAnswer.RELIEF and ended.by == "Olga"


@pytest.mark.parametrize("profile", ["mt-fair", "pt-srij-french"])
def test_profiles_without_a_relief_or_ball_rule_raise_nothing(profile, clock):
    table = opened(profile, clock)
    clock.advance(hours=5)
    assert table.do(tick) == [] and notices(table.state, clock.now()) == []


def test_relief_needs_the_incoming_croupiers_own_pin_and_role(clock):
    table = opened("pt-americana", clock)
    table.refused(relief.relieve, "wrong PIN for Rui", role=Role.CROUPIER, incoming="Rui", pin="1234")
    table.refused(relief.relieve, "Ines is inspector: only a croupier may take over as croupier", role=Role.CROUPIER,
                  incoming="Ines", pin=PINS["Ines"])
    table.refused(relief.relieve, "Ana is already the croupier", role=Role.CROUPIER, incoming="Ana", pin=PINS["Ana"])


# --- alarms ------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_staff_acknowledge_an_alarm_and_only_the_pit_boss_clears_it(profile, clock):
    table = opened(profile, clock)
    seat(table)
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))  # RU 4.9
    clock.advance(seconds=30)  # SRIJ 13
    table.do(cycle.launch, direction=CW)
    table.do(cycle.enter_result, number=8)
    table.do(cycle.confirm_result)
    table.do(cycle.payouts_done)
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=CW)  # the same way again: PT-A 21
    (alarm,) = table.state.alarms.values()
    table.do(alarms.acknowledge, alarm=alarm.id, by="Ana")
    assert table.state.alarms[alarm.id].acknowledged_by == "Ana"
    table.refused(alarms.acknowledge, "already acknowledged by Ana", alarm=alarm.id, by="Ines")
    table.refused(alarms.clear, "only a pit-boss may clear an alarm", alarm=alarm.id, note="ok", by="Ines",
                  pin=PINS["Ines"])
    table.refused(alarms.clear, "say why", alarm=alarm.id, note=" ", by="Boss", pin=PINS["Boss"])
    table.do(alarms.clear, alarm=alarm.id, note="new croupier, briefed", by="Boss", pin=PINS["Boss"])
    assert table.state.alarms == {}
    table.refused(alarms.clear, "no open alarm 1", alarm=1, note="again", by="Boss", pin=PINS["Boss"])
