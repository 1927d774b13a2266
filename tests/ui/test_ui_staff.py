"""Staff at the table: relief with the incoming croupier's PIN, the ball swap, alarms that fall due
and are acknowledged, and the pit boss's protected actions, refused without the right PIN."""
from decimal import Decimal

from croupier.rules.spin import Direction
from croupier.table.events import AlarmKind, Role
from ui_kit import flat, play_spins, press, screen_text


async def test_relief_needs_the_incoming_croupiers_pin(table_app, session):
    before = session.seq
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "5", "1", "1")  # relief, of the croupier, by Rui (the only other)
        await press(pilot, "1", "1", "1", "1", "enter")  # Ana's PIN, not Rui's
        assert "Refused: wrong PIN for Rui: only the attempt is recorded" in screen_text(table_app)
        assert session.state.staff_on(Role.CROUPIER) == "Ana" and session.state.wrong_pins == {"Rui": 1}
        await press(pilot, "d", "5", "1", "1", "2", "2", "2", "2", "enter")
        assert "Croupier: Rui" in screen_text(table_app)
    assert session.state.staff_on(Role.CROUPIER) == "Rui"


async def test_the_ball_swap(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "4")
        assert "Announce the change to the players" in screen_text(table_app)
        await press(pilot, "1")
        assert "Ball B in play: announce it" in screen_text(table_app) and "Ball: B" in screen_text(table_app)
    assert session.state.ball_in_play == "B"


async def test_relief_and_ball_swap_warn_before_and_alarm_when_late(table_app, session, clock):
    async with table_app.run_test(size=(80, 24)) as pilot:
        clock.advance(minutes=56)
        table_app.table_screen.show()
        await pilot.pause()
        text = screen_text(table_app)
        assert "relief in 4 min" in text and "swap in 4 min" in text  # PT-A 33 one hour; PT-A 17 hourly
        assert "Relieve croupier Ana within 4 min (PT-A 33)" in text and "Ball swap due in 4 min" in text
        clock.advance(minutes=5)
        session.tick()  # the app's timer records what fell due
        await pilot.pause()
        text = flat(screen_text(table_app))
        assert "Croupier relief overdue" in text and "Ball swap overdue" in text and "(# acknowledges)" in text
        await press(pilot, "enter", "enter")
        assert "2 acknowledged alarms wait for a pit boss to clear them" in flat(screen_text(table_app))
    assert {a.kind for a in session.state.alarms.values() if a.acknowledged_by == "Ana"} == {
        AlarmKind.RELIEF_OVERDUE, AlarmKind.BALL_SWAP_OVERDUE}


async def test_a_protected_action_without_the_pit_boss_pin_is_refused(table_app, session):
    before = session.seq
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "7", "1")  # pit boss menu, Marta
        await press(pilot, "enter")  # no PIN typed: # does nothing
        assert "PIN of Marta" in screen_text(table_app)
        await press(pilot, "1", "2", "3", "4", "enter")
        assert "Refused: wrong PIN for Marta: only the attempt is recorded" in screen_text(table_app)
        assert "Clear an alarm" not in screen_text(table_app)  # the pit boss menu stays shut
        await press(pilot, "d", "7", "1", "9", "0", "0", "0", "enter")  # the right PIN now
        assert "wrong PIN" not in screen_text(table_app)  # the earlier refusal no longer stands
    assert session.seq == before + 1  # the wrong PIN, recorded; nothing else


async def test_pit_boss_changes_the_minimum_and_corrects_a_result(table_app, session):
    play_spins(session, 8)
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "7", "1", "9", "0", "0", "0", "enter")
        await press(pilot, "2", "1", "0", "enter", "1")  # the minimum is 10 now, management's decision
        assert "minimum 10.00 EUR" in screen_text(table_app)
        await press(pilot, "d", "7", "1", "9", "0", "0", "0", "enter")
        await press(pilot, "3", "1", "2", "8", "enter", "1")  # spin 1 was 28, typed wrong
        assert "(spin 1 corrected from 8)" in screen_text(table_app)
    assert session.state.minimum == Decimal(10)
    assert (session.state.last_result.number, session.state.last_result.corrected_from) == (28, 8)


async def test_a_correction_at_a_keypad_table_offers_no_sensor_misread(session, config):
    """A table without a sensor offers only the reasons that apply to it; one with a sensor offers that too."""
    from croupier.ui.app import TableApp

    play_spins(session, 8)
    for wired in (False, True):
        app = TableApp(session, config, wheel=wired)
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "d", "7", "1", "9", "0", "0", "0", "enter", "3", "1", "2", "8", "enter")
            shown = flat(screen_text(app))
            assert "wrong number typed" in shown and "ball jumped after the reading" in shown
            assert ("sensor misread the pocket" in shown) is wired


async def test_pit_boss_clears_an_acknowledged_alarm(table_app, session):
    session.launch(direction=Direction.CLOCKWISE)
    session.enter_result(number=3, by="Ana")
    session.confirm_result(by="Ana")
    session.payouts_done(by="Ana")
    session.launch(direction=Direction.CLOCKWISE)  # PT-A 21: the same way twice, raised
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter")  # acknowledged by Ana
        await press(pilot, "d", "7", "1", "9", "0", "0", "0", "enter", "1")  # clear an alarm
        assert "Launch direction repeated" in screen_text(table_app)
        await press(pilot, "1", "1")  # that alarm, seen and dealt with
        assert "wait for a pit boss" not in screen_text(table_app)
    assert session.state.alarms == {}
