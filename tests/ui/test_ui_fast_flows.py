"""Flows for fast hands: the pleins in one key on the sheet, one meaning per key in the legend, old
refusals gone once the table moves on, the sheet first when a result comes during a menu, the
sensor's reading offered to the correction, and time to bet in the demo."""
import threading

from croupier.table.state import Phase
from croupier.ui.app import TableApp
from croupier.ui.messages import WheelReport
from croupier.ui.payout_screen import PayoutScreen
from test_ui_paying_right import typed_5_read_12, wheel
from croupier.wheel.events import LinkStatus, WheelPhase, WheelResult, WheelState
from croupier.rules.spin import Direction
from ui_kit import PINS, flat, press, screen_text

CW = Direction.CLOCKWISE


async def test_c_on_the_first_row_jumps_to_the_pleins_and_with_nothing_typed_goes_up(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter")  # 17: 21 rows, the plein last
        assert "C/Del  pleins" in screen_text(table_app)
        last_split = table_app.payout_sheet.rows("red")[-2].spec
        await press(pilot, "c", "2")  # C: straight to plein 17; 2 chips on it
        assert "red is paid 70" in flat(screen_text(table_app))
        await press(pilot, "enter", "c")  # the last row stays; nothing typed: C goes up, the plein's 2 kept
        assert "red is paid 70" in flat(screen_text(table_app))
        await press(pilot, "1")  # 1 chip on the last split
        assert "red is paid 87" in flat(screen_text(table_app))
        await press(pilot, "d")
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert sorted((s.bet, s.chips) for s in recorded.stakes["red"]) == sorted([(last_split, 1), ("17", 2)])


async def test_the_legend_gives_each_key_one_meaning(session, config):
    app = TableApp(session, config, wheel=False)
    session.tick()
    async with app.run_test(size=(80, 24)) as pilot:
        session.clock.advance(minutes=61)
        app._tick()  # the relief is overdue: an alarm to acknowledge with #, in bets open (# launches)
        await press(pilot, "escape")
        legend = screen_text(app).splitlines()[-1]
        assert legend.count("#/Enter") == 1 and "acknowledge" in legend and "launch" not in legend


async def test_a_refusal_clears_once_the_table_moves_on(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "5")
        assert "The result is typed once the ball is launched" in screen_text(table_app)
        await press(pilot, "enter")  # the launch
        assert "The result is typed once" not in screen_text(table_app)


async def test_a_result_during_a_menu_opens_the_sheet(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wheel(pilot, LinkStatus(True, 0.0, "open"), WheelState(state=WheelPhase.PLACE_BETS, time=0, game=7, direction=CW),
                    WheelState(state=WheelPhase.BALL_IN_RIM, time=1, game=7, direction=CW))
        await press(pilot, "slash", "1")  # the colours menu is open
        await wheel(pilot, WheelResult(17, 3.0, 7, CW, "number-line"))
        assert isinstance(app.screen, PayoutScreen) and "Payouts · 17 black" in flat(screen_text(app))


async def test_a_correction_offers_the_sensors_reading(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await typed_5_read_12(pilot, app)
        await press(pilot, "escape", "slash", "7", "1", *PINS["Marta"], "enter", "3", "1")  # correct spin 1
        assert "The wheel sensor read 12: # takes it" in flat(screen_text(app))
        await press(pilot, "enter", "1")  # # takes 12; why: the number typed was wrong
        assert session.state.last_result.number == 12


def test_the_demo_keeps_bets_open_for_its_betting_window():
    """After the payouts, the simulated wheel waits the betting window before its next launch."""
    from types import SimpleNamespace

    from croupier.commands.demo import _parser
    from croupier.ui.demo import PayoutGate

    assert _parser().parse_args([]).betting_window >= 15
    session = SimpleNamespace(state=SimpleNamespace(phase=Phase.BETTING))
    gate = PayoutGate(session, betting_window=600)
    waiting = threading.Thread(target=gate, args=(None,))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive()  # bets open, and the wheel does not launch yet
    gate.stopping.set()
    waiting.join(5)
    assert not waiting.is_alive()


async def test_keys_typed_for_a_dialog_the_sheet_closed_are_not_counted_on_it(session, config):
    """A PIN half typed when the result comes: the sheet opens, and the PIN's digits are no chips."""
    from ui_kit import burst, settle

    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wheel(pilot, LinkStatus(True, 0.0, "open"), WheelState(state=WheelPhase.PLACE_BETS, time=0, game=7, direction=CW),
                    WheelState(state=WheelPhase.BALL_IN_RIM, time=1, game=7, direction=CW))
        await press(pilot, "slash", "5", "1")  # relief: Rui's PIN is asked
        burst(app, "2", "2")
        app.post_message(WheelReport(WheelResult(17, 3.0, 7, CW, "number-line")))
        burst(app, "2", "2", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PayoutScreen)
        assert app.screen.sheet.counts == {} and "relieved" not in [e.event.kind for e in session.journal.entries()]


async def test_a_ball_swap_during_a_spin_is_refused_before_the_ball_is_chosen(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "slash", "4")  # launched; menu; ball swap
        text = flat(screen_text(table_app))
        assert "change the ball between spins" in text and "put in play" not in text
