"""`croupier run --headless`: what the wheel reports becomes table events, once each; bad arguments
and a journal of another table are refused before anything is recorded."""
from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.sensor_table import SensorTable
from croupier.rules.spin import Direction, VoidReason
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Ball
from croupier.wheel.events import LinkStatus, VoidSpinNumber, WheelPhase, WheelResult, WheelState, WheelVoid

CW, ACW = Direction.CLOCKWISE, Direction.ANTICLOCKWISE
BALLS = (Ball(id="A", diameter_mm=Decimal(21)), Ball(id="B", diameter_mm=Decimal(21)))


@pytest.fixture
def sensor(tmp_path):
    session = TableSession.open(tmp_path / "j.db", FakeClock())
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="unattended",
                       sensor_only=True)
    yield SensorTable(session)
    session.close()


def state(phase: WheelPhase, game: int, direction=CW, flags=0) -> WheelState:
    return WheelState(state=phase, time=0.0, game=game, direction=direction, flags=flags)


def kinds(table: SensorTable, *events) -> list[str]:
    return [recorded.kind for event in events for recorded in table.handle(event)]


def test_one_game_is_one_launch_one_no_more_bets_one_result(sensor):
    assert kinds(sensor, state(WheelPhase.PLACE_BETS, 1), state(WheelPhase.BALL_IN_RIM, 1),
                 state(WheelPhase.BALL_IN_RIM, 1, flags=8),  # a changed flag is a new status, not a new launch
                 state(WheelPhase.NO_MORE_BETS, 1), WheelResult(17, 0.0, 1, CW, "number-line"),
                 state(WheelPhase.WINNING_NUMBER, 1)) == ["ball-launched", "bets-closed", "result-recorded"]
    result = sensor.session.state.last_result
    assert (result.number, result.wheel_game, result.direction, result.croupier) == (17, 1, CW, "unattended")


def test_a_void_from_the_sensor_is_recorded_and_the_result_of_that_spin_is_not(sensor):
    recorded = kinds(sensor, state(WheelPhase.PLACE_BETS, 1), state(WheelPhase.BALL_IN_RIM, 1, ACW),
                     WheelVoid(VoidReason.SAME_DIRECTION, 0.0, 1, "flag 2 in state 3"),
                     state(WheelPhase.NO_MORE_BETS, 1, ACW),  # the voided ball still rides: no new launch
                     VoidSpinNumber(3, 0.0, 1, VoidReason.SAME_DIRECTION),
                     state(WheelPhase.PLACE_BETS, 1, CW), state(WheelPhase.BALL_IN_RIM, 1, CW),  # the re-spin
                     WheelResult(9, 0.0, 1, CW, "number-line"))
    assert recorded == ["ball-launched", "spin-voided", "ball-launched", "result-recorded"]
    state_ = sensor.session.state
    assert (state_.voids, state_.counted, state_.last_result.number, state_.alarms) == (1, 1, 9, {})


def test_a_restarted_reader_meeting_the_recorded_game_again_records_nothing(sensor):
    kinds(sensor, state(WheelPhase.BALL_IN_RIM, 4), WheelResult(22, 0.0, 4, CW, "number-line"))
    again = SensorTable(sensor.session)  # as after a restart
    assert kinds(again, state(WheelPhase.WINNING_NUMBER, 4), WheelResult(22, 0.0, 4, CW, "state-5")) == []
    assert sensor.session.state.counted == 1


def test_a_launch_whose_result_was_missed_is_raised_and_the_next_game_counts(sensor):
    recorded = kinds(sensor, state(WheelPhase.BALL_IN_RIM, 1), state(WheelPhase.PLACE_BETS, 2, ACW),
                     state(WheelPhase.BALL_IN_RIM, 2, ACW), WheelResult(5, 0.0, 2, ACW, "number-line"))
    assert recorded == ["ball-launched", "alarm-raised", "ball-launched", "result-recorded"]
    (alarm,) = sensor.session.state.alarms.values()
    assert alarm.kind.value == "wheel-fault" and "no result was recorded" in alarm.detail


def test_a_lost_link_raises_one_wheel_fault_until_cleared(sensor):
    assert kinds(sensor, LinkStatus(False, 0.0, "nothing from the wheel for 3 s"), LinkStatus(True, 1.0, "heard"),
                 LinkStatus(False, 2.0, "unplugged")) == ["alarm-raised"]


@pytest.mark.parametrize("arguments, message", [
    (["--db", "J", "--profile", "pt-americana", "--wheel", "cammegh-ss2:/dev/null"], "add --headless"),
    (["--headless", "--db", "J", "--profile", "pt-brasil", "--wheel", "cammegh-ss2:/dev/null"],
     "'pt-brasil' is not a profile"),
    (["--headless", "--db", "J", "--profile", "pt-americana", "--wheel", "cammegh-ss9:/dev/null"],
     "unknown wheel protocol 'cammegh-ss9'"),
])
def test_run_refuses_bad_arguments_and_records_nothing(arguments, message, tmp_path, capsys):
    arguments = [str(tmp_path / "j.db") if a == "J" else a for a in arguments]
    assert cli(["run", *arguments]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "j.db").exists()


def test_run_refuses_a_wheel_argument_without_a_device(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli(["run", "--headless", "--db", "j.db", "--profile", "pt-americana", "--wheel", "cammegh-ss2"])
    assert exit_.value.code == 2 and "is not PROTOCOL:DEVICE" in capsys.readouterr().err


def test_run_will_not_take_over_the_journal_of_another_table(tmp_path, capsys):
    session = TableSession.open(tmp_path / "j.db", FakeClock())
    session.open_table(profile="mt-fair", minimum=5, colours=("red",), balls=BALLS, croupier="x", sensor_only=True)
    session.close()
    before = (tmp_path / "j.db").read_bytes()
    assert cli(["run", "--headless", "--db", str(tmp_path / "j.db"), "--profile", "pt-americana",
                "--wheel", "cammegh-ss2:/dev/null"]) == 2
    err = capsys.readouterr().err
    assert "plays mt-fair, not pt-americana: run it with --profile mt-fair" in err and "table screen" not in err
    assert (tmp_path / "j.db").read_bytes() == before


def test_run_stops_on_a_file_that_is_not_a_journal(tmp_path, capsys):
    path = tmp_path / "j.db"
    path.write_text("minutes of the staff meeting\n" * 200)
    assert cli(["run", "--headless", "--db", str(path), "--profile", "pt-americana",
                "--wheel", "cammegh-ss2:/dev/null"]) == 2
    assert "Nothing was written" in capsys.readouterr().err
    assert path.read_text() == "minutes of the staff meeting\n" * 200


def test_a_reader_restarted_mid_spin_keeps_the_launch_already_recorded(sensor):
    assert kinds(sensor, state(WheelPhase.BALL_IN_RIM, 3)) == ["ball-launched"]
    again = SensorTable(sensor.session)  # killed and started again while the ball was running
    assert kinds(again, state(WheelPhase.BALL_IN_RIM, 3), state(WheelPhase.NO_MORE_BETS, 3),
                 WheelResult(8, 0.0, 3, CW, "number-line")) == ["bets-closed", "result-recorded"]
    assert sensor.session.state.alarms == {}


def test_a_reader_restarted_in_a_later_game_raises_the_missed_result(sensor):
    kinds(sensor, state(WheelPhase.BALL_IN_RIM, 3))
    again = SensorTable(sensor.session)
    assert kinds(again, state(WheelPhase.BALL_IN_RIM, 4, ACW)) == ["alarm-raised", "ball-launched"]


@pytest.mark.parametrize("protocol", ["cammegh-ss2", "cammegh-m360-advanced", "cammegh-m360-extended"])
def test_simulated_faulty_games_record_each_launch_and_each_real_result(protocol, tmp_path):
    """The wheel reverses its rotor before every launch, re-spins included, and the Mercury re-spins
    without leaving play (guide 5.3): every planned game is counted with its own number, every
    result follows a launch, and no launch is a false "direction repeated" (PT-A 21); a repeat the
    SS2 makes by restarting after a power cycle says so."""
    import random

    from croupier.wheel.games import SimulatedWheel
    from croupier.wheel.protocols import make_decoder

    faults = [None, "same-direction", None, "ball-removed", "weak-spin", None, "sensor-fault", None]
    wheel, decoder = SimulatedWheel(protocol, random.Random(11)), make_decoder(protocol)
    session = TableSession.open(tmp_path / "j.db", FakeClock())
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="unattended",
                       sensor_only=True)
    table = SensorTable(session, respins_in_play=decoder.respin_clears_voids)
    recorded, planned, time = [], [], 0.0
    emissions = list(wheel.opening())
    for fault in faults:
        game = wheel.play(None, fault)
        planned.append(game)
        emissions += game.emissions
    for emission in emissions:
        time += emission.delay
        for event in decoder.feed(emission.data, time):
            recorded += table.handle(event)
    with session:
        results = [e for e in recorded if e.kind == "result-recorded"]
        assert [r.number for r in results] == [g.number for g in planned]
        launches = [e for e in recorded if e.kind == "ball-launched"]
        assert [launch.direction for launch in launches] == [d for g in planned for d in g.launches]
        kinds_ = [e.kind for e in recorded if e.kind in ("ball-launched", "result-recorded")]
        assert all(before == "ball-launched" for before, now in zip([""] + kinds_, kinds_) if now == "result-recorded")
        repeats = [e for e in recorded if e.kind == "alarm-raised" and e.alarm_kind.value == "direction-repeated"]
        expected = [d for d, before in zip(launches[1:], launches) if d.direction is before.direction]
        assert len(repeats) == len(expected)
        assert all(a.facts.wheel_restarted for a in repeats)  # only the SS2's power cycle repeats a direction


def test_a_mercury_respin_in_play_is_a_launch_and_its_number_the_result(tmp_path):
    session = TableSession.open(tmp_path / "j.db", FakeClock())
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="unattended",
                       sensor_only=True)
    table = SensorTable(session, respins_in_play=True)
    with session:
        recorded = kinds(table, state(WheelPhase.PLACE_BETS, 3), state(WheelPhase.BALL_IN_RIM, 3, CW, flags=2),
                         WheelVoid(VoidReason.SAME_DIRECTION, 0.0, 3, "flag 2"),
                         state(WheelPhase.BALL_IN_RIM, 3, ACW, flags=0),  # the re-spin: flags back to 0
                         state(WheelPhase.NO_MORE_BETS, 3, ACW), WheelResult(21, 0.0, 3, ACW, "number-line"))
        assert recorded == ["ball-launched", "spin-voided", "ball-launched", "bets-closed", "result-recorded"]
        assert (session.state.last_result.number, session.state.counted, session.state.alarms) == (21, 1, {})


def test_an_ss2_flag_that_clears_in_play_does_not_undo_its_void(sensor):
    recorded = kinds(sensor, state(WheelPhase.PLACE_BETS, 3), state(WheelPhase.BALL_IN_RIM, 3, CW, flags=8),
                     WheelVoid(VoidReason.TOO_FEW_REVOLUTIONS, 0.0, 3, "flag 8 past 3 s"),
                     state(WheelPhase.BALL_IN_RIM, 3, CW, flags=0),
                     VoidSpinNumber(21, 0.0, 3, VoidReason.TOO_FEW_REVOLUTIONS))
    assert recorded == ["ball-launched", "spin-voided"] and sensor.session.state.counted == 0
