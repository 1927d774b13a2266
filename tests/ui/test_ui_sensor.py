"""Results from the wheel sensor: what the wheel reports is recorded as it comes (no confirmation),
the payout sheet opens on the result, a golpe nulo the sensor finds is an alarm to acknowledge, and a
link that goes down is shown and raised."""
import dataclasses

from croupier.config import default_config
from croupier.rules.spin import Direction, VoidReason
from croupier.table.state import Phase
from croupier.ui.app import TableApp
from croupier.ui.messages import WheelReport
from croupier.ui.runtime import Devices, wheel_link
from croupier.wheel.events import LinkStatus, WheelPhase, WheelResult, WheelState, WheelVoid
from croupier.wheel.simulator import WheelSimulator
from ui_kit import PINS, flat, kinds, press, screen_text

CW = Direction.CLOCKWISE


def state(phase: WheelPhase, game: int = 7, t: float = 0.0) -> WheelState:
    return WheelState(state=phase, time=t, game=game, direction=CW)


async def report(pilot, *events) -> None:
    for event in events:
        pilot.app.post_message(WheelReport(event))
        await pilot.pause()
    await pilot.pause()


async def test_sensor_result_needs_no_confirmation_and_opens_the_payout_sheet(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Sensor: OFFLINE" in screen_text(app)
        await report(pilot, LinkStatus(True, 0.0, "open"))
        assert "Sensor: online" in screen_text(app) and "Waiting for the wheel to launch" in screen_text(app)
        await press(pilot, "enter")  # the wheel launches, not the keypad
        assert session.state.phase is Phase.BETTING and "The wheel sensor reports the launch" in screen_text(app)
        await report(pilot, state(WheelPhase.PLACE_BETS), state(WheelPhase.BALL_IN_RIM, t=1))
        assert session.state.phase is Phase.SPINNING
        await report(pilot, state(WheelPhase.NO_MORE_BETS, t=2))
        assert "No more bets" in screen_text(app)
        await report(pilot, WheelResult(32, 3.0, 7, CW, "number-line"))
        assert session.state.last_result.number == 32
        assert "Payouts ·  32  red · spin 1" in screen_text(app)
    assert [k for k in kinds(session) if k in ("ball-launched", "bets-closed", "result-recorded")] == [
        "ball-launched", "bets-closed", "result-recorded"]


async def test_sensor_void_is_recorded_and_waits_for_acknowledgement(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await report(pilot, LinkStatus(True, 0.0, "open"), state(WheelPhase.PLACE_BETS),
                     state(WheelPhase.BALL_IN_RIM, t=1),
                     WheelVoid(VoidReason.SAME_DIRECTION, 2.0, 7, "flag 2"))
        assert session.state.phase is Phase.BETTING and session.state.voids == 1
        text = screen_text(app)
        assert "Void spin (sensor): Ball and wheel turned the same way" in text and "acknowledges" in text
        assert "no previous result" in text  # the first spin: no pocket to go back to
    restarted = TableApp(session, config, wheel=True)  # the screen restarted: the void still waits
    async with restarted.run_test(size=(80, 24)) as pilot:
        assert "Void spin (sensor): Ball and wheel turned the same way" in screen_text(restarted)
        await press(pilot, "enter")
        assert "Void spin (sensor)" not in screen_text(restarted)
    (seen,) = [e.event for e in session.journal.entries() if e.event.kind == "void-acknowledged"]
    assert (seen.spin, seen.by) == (1, "Ana")


async def test_a_link_that_goes_down_is_shown_and_raised(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await report(pilot, LinkStatus(True, 0.0, "open"), LinkStatus(False, 1.0, "nothing for 3 s"))
        text = screen_text(app)
        assert "Sensor: OFFLINE · type the results" in text and "Wheel sensor fault" in text
        # offline, the keypad takes over the launch
        await press(pilot, "enter")  # acknowledges the alarm first
        await press(pilot, "enter")
        assert session.state.phase is Phase.SPINNING


async def test_a_link_that_goes_down_says_why_in_the_tables_language(session, config):
    from croupier.i18n import install

    install("pt")
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await report(pilot, LinkStatus(True, 0.0, "open"),
                     LinkStatus(False, 1.0, "nothing from the wheel for 3 s", "silent", 3.0))
        text = " ".join(screen_text(app).split())
        assert "Avaria do sensor do cilindro" in text
        assert "nada do cilindro há 3 s" in text and "nothing" not in text


async def test_results_arrive_from_a_simulated_wheel_on_a_pseudo_terminal(session, config):
    """The whole path: bytes on a pty, the reader thread, post_message, the session, the screen."""
    simulator = WheelSimulator("cammegh-ss2", speed=40, seed=3, results=[19], games=1)
    wired = dataclasses.replace(config, wheel=default_config(environ={}).wheel)

    def start(app):
        stop_link = wheel_link(wired, simulator.start(), clock=simulator.clock)(app)
        return lambda: (stop_link(), simulator.stop())

    devices = Devices()
    devices.add(start)
    app = TableApp(session, wired, devices=devices)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):  # a 40 s game at speed 40: about a second
            await pilot.pause(0.05)
            if session.state.last_result is not None:
                break
        await pilot.pause()
        await pilot.pause()
        assert session.state.last_result.number == 19
        assert "Payouts ·  19  red" in screen_text(app)
    assert not simulator.running


async def test_the_wheels_result_of_a_launch_declared_void_does_not_count(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await report(pilot, LinkStatus(True, 0.0, "open"), state(WheelPhase.PLACE_BETS),
                     state(WheelPhase.BALL_IN_RIM, t=1))
        await press(pilot, "a", "3")  # golpe nulo: a foreign object in the wheel (PT-A 22)
        await report(pilot, state(WheelPhase.NO_MORE_BETS, t=2), WheelResult(11, 3.0, 7, CW, "number-line"))
        assert session.state.last_result is None and session.state.spin == 1
        assert "The wheel says 11: not counted, the spin is void" in screen_text(app)
        await report(pilot, state(WheelPhase.PLACE_BETS, game=8, t=4), state(WheelPhase.BALL_IN_RIM, game=8, t=5),
                     WheelResult(26, 6.0, 8, CW, "number-line"))
        assert session.state.last_result.number == 26 and session.state.last_result.spin == 1


async def test_a_result_typed_before_the_sensor_is_compared_never_a_second_spin(session, config):
    """The croupier typed 23 for the ball the wheel launched; the wheel then reads 14 for that game:
    an alarm for the pit boss, no new spin. The wheel launching the next ball before D keeps the
    payout sheet, and its counts are recorded against spin 1."""
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await report(pilot, LinkStatus(True, 0.0, "open"), state(WheelPhase.PLACE_BETS, 5),
                     state(WheelPhase.BALL_IN_RIM, 5, t=1))
        await press(pilot, "2", "3", "enter", "enter")
        assert session.state.last_result.number == 23 and "Payouts ·  23  red · spin 1" in screen_text(app)
        await report(pilot, WheelResult(14, 3.0, 5, CW, "number-line"), state(WheelPhase.WINNING_NUMBER, 5, t=3))
        assert session.state.counted == 1 and session.state.last_result.number == 23
        (alarm,) = session.state.alarms.values()
        assert alarm.kind.value == "result-mismatch" and (alarm.facts.typed, alarm.facts.read) == (23, 14)
        assert "Payouts ·  23  red · spin 1" in screen_text(app)  # the sheet is still the croupier's
        await report(pilot, WheelState(state=WheelPhase.PLACE_BETS, time=4.0, game=6, direction=Direction.ANTICLOCKWISE),
                     WheelState(state=WheelPhase.BALL_IN_RIM, time=5.0, game=6, direction=Direction.ANTICLOCKWISE))
        assert session.state.phase is Phase.SPINNING and "Payouts ·  23  red · spin 1" in screen_text(app)
        await press(pilot, "enter", "2")  # red: 2 chips on the second paying position (columns 1+2)
        await press(pilot, "d")  # not while the sensor contradicts the typed number
        assert "a pit boss confirms the typed number" in flat(screen_text(app))
        session.clear_alarm(alarm=alarm.id, note="23 seen in the pocket", by="Marta", pin=PINS["Marta"])
        await press(pilot, "d")
        assert "Payouts of spin 1 recorded" in screen_text(app)
    recorded = [e.event for e in session.journal.entries() if e.event.kind in ("payouts-recorded", "result-recorded")]
    assert [(e.kind, e.spin) for e in recorded] == [("result-recorded", 1), ("payouts-recorded", 1)]
    assert sum(s.chips for s in recorded[1].stakes["red"]) == 2


async def test_a_note_said_before_the_result_is_gone_when_the_croupier_leaves_the_sheet(session, config):
    # The note is cleared while the payout sheet covers the table: it must not come back with it.
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await report(pilot, LinkStatus(True, 0.0, "open"), state(WheelPhase.PLACE_BETS),
                     state(WheelPhase.BALL_IN_RIM, t=1), state(WheelPhase.NO_MORE_BETS, t=2))
        await press(pilot, "plus")  # B with nothing to pay: the table says so
        assert "There are no payouts under way" in screen_text(app)
        await report(pilot, WheelResult(32, 3.0, 7, CW, "number-line"))
        assert "Payouts ·  32  red · spin 1" in screen_text(app)
        await press(pilot, "escape")  # back to the table, the payouts still under way
        text = screen_text(app)
        assert "Payouts ·" not in text and "There are no payouts under way" not in text


async def test_after_a_restart_the_table_offers_the_sheet_the_next_launch_left_open(session, config):
    """The wheel launched the next ball before the payouts of spin 1 were recorded: they can still be
    recorded until the next result, so after a restart the table screen offers the sheet (B) for spin 1."""
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await report(pilot, LinkStatus(True, 0.0, "open"), state(WheelPhase.PLACE_BETS),
                     state(WheelPhase.BALL_IN_RIM, t=1), state(WheelPhase.NO_MORE_BETS, t=2),
                     WheelResult(32, 3.0, 7, CW, "number-line"))
        await report(pilot, state(WheelPhase.PLACE_BETS, game=8, t=4), state(WheelPhase.BALL_IN_RIM, game=8, t=5))
        assert session.state.phase is Phase.SPINNING
    restarted = TableApp(session, config, wheel=True)
    async with restarted.run_test(size=(80, 24)) as pilot:
        assert "payouts" in flat(screen_text(restarted))
        await press(pilot, "b")
        assert "Payouts ·  32  red · spin 1" in screen_text(restarted)
