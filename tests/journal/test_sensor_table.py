"""The wheel sensor at an attended table: a launch the croupier voids at the keypad still ends with a
number on the wheel, and that number is not a result (PT-A 22); the wheel's next game counts."""
from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.rules.spin import Direction, VoidReason
from croupier.sensor_table import SensorTable
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Role, Stake
from croupier import i18n
from croupier.table.events import AlarmKind
from croupier.ui.text import alarm_detail as alarm_text
from croupier.wheel.events import NumberConflict, WheelPhase, WheelResult, WheelState

from journal_kit import BALLS

CW, ACW = Direction.CLOCKWISE, Direction.ANTICLOCKWISE


@pytest.fixture
def attended(tmp_path):
    session = TableSession.open(tmp_path / "j.db", FakeClock())
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    session.assign_colour(colour="red", player="seat 1", chip_value=Decimal(5), chips=100, by="Ana")
    session.place_bets(colour="red", stakes=(Stake(bet="red", chips=1),))
    yield session
    session.close()


def alarm_text_in(language: str, alarm) -> str:
    i18n.install(language)
    try:
        return alarm_text(alarm)
    finally:
        i18n.install("en")


def wheel(phase: WheelPhase, game: int | None) -> WheelState:
    """The wheel's status; the rotor reverses from game to game, as a real one does before each launch."""
    return WheelState(state=phase, time=0.0, game=game, direction=CW if game is None or game % 2 else ACW)


def feed(table: SensorTable, *events) -> list[str]:
    return [recorded.kind for event in events for recorded in table.handle(event)]


def test_the_wheels_number_for_a_launch_voided_at_the_keypad_is_not_a_result(attended):
    dropped = []
    sensor = SensorTable(attended, on_void_result=dropped.append)
    assert feed(sensor, wheel(WheelPhase.PLACE_BETS, 7), wheel(WheelPhase.BALL_IN_RIM, 7)) == ["ball-launched"]
    attended.void_spin(reason=VoidReason.FOREIGN_OBJECT, by="Ana")  # the croupier, at the keypad
    void_number = WheelResult(11, 1.0, 7, CW, "number-line")
    assert feed(sensor, wheel(WheelPhase.NO_MORE_BETS, 7), void_number, wheel(WheelPhase.WINNING_NUMBER, 7)) == []
    assert dropped == [void_number] and attended.state.counted == 0
    assert feed(sensor, wheel(WheelPhase.PLACE_BETS, 8), wheel(WheelPhase.BALL_IN_RIM, 8),
                WheelResult(26, 2.0, 8, CW, "number-line")) == ["ball-launched", "result-recorded"]
    assert (attended.state.last_result.number, attended.state.last_result.spin) == (26, 1)


def test_the_void_is_remembered_by_the_journal_across_a_restart(attended, tmp_path):
    sensor = SensorTable(attended)
    feed(sensor, wheel(WheelPhase.PLACE_BETS, 7), wheel(WheelPhase.BALL_IN_RIM, 7))
    attended.void_spin(reason=VoidReason.CHIP_FELL, by="Ana")
    restarted = SensorTable(attended)  # the screen restarted while the voided ball still ran
    assert feed(restarted, wheel(WheelPhase.NO_MORE_BETS, 7), WheelResult(11, 1.0, 7, CW, "number-line")) == []
    assert attended.state.counted == 0


def test_a_wheel_without_game_numbers_loses_only_the_voided_launchs_number(attended):
    """The plain number line: the number after the void is the void launch's; the next is a result."""
    sensor = SensorTable(attended)
    attended.launch(direction=CW)  # from the keypad: the sensor does not see launches
    attended.void_spin(reason=VoidReason.CHIP_FELL, by="Ana")
    assert feed(sensor, WheelResult(11, 1.0, None, None, "line")) == []
    assert feed(sensor, WheelResult(4, 2.0, None, None, "line")) == ["result-recorded"]
    assert attended.state.last_result.number == 4


def test_two_numbers_from_the_wheel_raise_an_alarm_and_the_croupier_types_the_result(attended):
    sensor = SensorTable(attended)
    feed(sensor, wheel(WheelPhase.PLACE_BETS, 7), wheel(WheelPhase.BALL_IN_RIM, 7), wheel(WheelPhase.NO_MORE_BETS, 7))
    assert feed(sensor, NumberConflict(28, 17, 1.0, 7, CW), wheel(WheelPhase.WINNING_NUMBER, 7)) == ["alarm-raised"]
    [alarm] = attended.state.alarms.values()
    assert alarm.kind is AlarmKind.WHEEL_FAULT and "28" in alarm.detail and "17" in alarm.detail
    assert alarm_text(alarm) == "The wheel gave two numbers for spin 1: 28 on its winning-number line, 17 on its " \
        "state-5 line; neither was recorded: type the number the ball is in"
    # worded in the table's language, both numbers shown
    assert alarm_text_in("pt", alarm) == "O cilindro deu dois números na jogada 1: 28 na linha do número vencedor, " \
        "17 nas linhas de estado 5; nenhum foi registado: digite o número em que a bola está"
    assert attended.state.counted == 0 and attended.state.last_result is None
    attended.enter_result(number=17, by="Ana")
    attended.confirm_result(by="Ana")
    assert (attended.state.last_result.number, attended.state.counted) == (17, 1)


def test_two_state_5_lines_that_differ_raise_the_alarm_with_both_and_count_neither(attended):
    sensor = SensorTable(attended)
    feed(sensor, wheel(WheelPhase.PLACE_BETS, 7), wheel(WheelPhase.BALL_IN_RIM, 7), wheel(WheelPhase.NO_MORE_BETS, 7))
    conflict = NumberConflict(None, 17, 1.0, 7, CW, first_state_five=23)
    assert feed(sensor, conflict, wheel(WheelPhase.WINNING_NUMBER, 7)) == ["alarm-raised"]
    [alarm] = attended.state.alarms.values()
    assert alarm.kind is AlarmKind.WHEEL_FAULT and "23 then 17 on its state-5 lines" in alarm.detail
    assert alarm_text(alarm) == "The wheel gave two numbers for spin 1 on its state-5 lines: 23, then 17; neither " \
        "was recorded: type the number the ball is in"
    assert alarm_text_in("pt", alarm) == "O cilindro deu dois números na jogada 1 nas linhas de estado 5: 23, " \
        "depois 17; nenhum foi registado: digite o número em que a bola está"
    assert attended.state.counted == 0 and attended.state.last_result is None


def test_a_lone_state_5_line_with_no_number_line_counts_nothing_and_the_next_launch_says_so(attended):
    from croupier.wheel.ss2 import Ss2Decoder

    def ss2(state: int, spin: int, last: int | None) -> bytes:
        return f"*X;{state};{spin:03d};{'  ' if last is None else f'{last:>2}'};0;170;{spin % 2}\r\n".encode()

    decoder, sensor = Ss2Decoder(), SensorTable(attended)
    lines = [ss2(2, 7, None), ss2(3, 7, None), ss2(4, 7, None), ss2(5, 7, 13),  # one state-5 line, then
             ss2(2, 8, 13), ss2(3, 8, 13)]  # the wheel launches the next game
    recorded = [kind for at, line in enumerate(lines) for kind in feed(sensor, *decoder.feed(line, at * 0.5))]
    assert "result-recorded" not in recorded and attended.state.counted == 0
    [alarm] = [a for a in attended.state.alarms.values() if a.kind is AlarmKind.WHEEL_FAULT]
    assert "launched again before spin 1 had a result" in alarm_text(alarm)
