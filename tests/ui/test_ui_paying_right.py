"""The payout sheet pays the number the table holds: a correction rebuilds it on the new number, an
alarm that the number may be wrong is on the sheet, the limits stay as the bets were made until the
spin is paid, and after a golpe nulo the bets stand."""
from decimal import Decimal

from croupier.rules.spin import Direction
from croupier.table.events import Stake
from croupier.table.state import Phase
from croupier.ui.app import TableApp
from croupier.ui.messages import WheelReport
from croupier.wheel.events import LinkStatus, WheelPhase, WheelResult, WheelState
from ui_kit import PINS, flat, kinds, press, screen_text, settle

CW = Direction.CLOCKWISE


async def wheel(pilot, *events) -> None:
    for event in events:
        pilot.app.post_message(WheelReport(event))
    await settle(pilot)


async def typed_5_read_12(pilot, app) -> None:
    """5 # typed before the wheel reports; the wheel reads 12: a result-mismatch alarm."""
    await wheel(pilot, LinkStatus(True, 0.0, "open"), WheelState(state=WheelPhase.PLACE_BETS, time=0, game=7, direction=CW),
                WheelState(state=WheelPhase.BALL_IN_RIM, time=1, game=7, direction=CW))
    await press(pilot, "5", "enter")
    assert "Payouts · 5 red" in flat(screen_text(app))
    await wheel(pilot, WheelResult(12, 3.0, 7, CW, "number-line"))


async def test_the_sheet_shows_a_result_mismatch_alarm(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await typed_5_read_12(pilot, app)
        text = flat(screen_text(app))
        assert "Payouts · 5 red" in text  # still the sheet: the croupier is paying
        assert "Typed result and sensor differ" in text and "the wheel sensor read 12" in text


async def test_a_correction_puts_the_sheet_on_the_right_number(session, config):
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await typed_5_read_12(pilot, app)
        await press(pilot, "enter", "1")  # 1 chip of red counted on 5's second row
        session.correct_result(spin=1, number=12, reason="sensor right", by="Marta", pin=PINS["Marta"])
        await settle(pilot)
        text = flat(screen_text(app))
        assert "Payouts · 12 red · spin 1" in text
        assert "4/5/7/8" not in text and "3rd column" in text  # 12's rows, not 5's
        await press(pilot, "1", "d")  # 1 chip on the 3rd column (2 to 1) of 12
        assert session.state.phase is Phase.BETTING
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert dict(recorded.stakes) == {"red": (Stake(bet="column3", chips=1),)}


async def test_limits_are_not_changed_before_the_spin_is_paid(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter")  # launched; 17 typed and confirmed: the sheet
        await press(pilot, "escape", "slash", "7", "1")  # back; menu; pit boss; Marta
        await press(pilot, *PINS["Marta"], "enter", "2")  # change the table minimum
        text = flat(screen_text(table_app))
        assert "once the payouts of spin 1 are recorded" in text and "New minimum" not in text
    assert "limits-changed" not in kinds(session)


async def test_after_a_golpe_nulo_the_bets_stand(table_app, session):
    session.place_bets(colour="red", stakes=(Stake(bet="17", chips=1),))
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "a", "1")  # launched; golpe nulo: a chip fell
        assert session.state.voided is not None
        await press(pilot, "slash", "3")  # take a colour's bets back
        assert "bets stand after a golpe nulo (PT-A 22)" in flat(screen_text(table_app))
        assert session.state.bets["red"] == (Stake(bet="17", chips=1),)
        assert "bets_open" not in table_app.board.lamps


async def test_the_screen_says_the_configuration_disagrees_and_the_pit_boss_takes_its_time_zone(
        staffed_template, tmp_path, clock):
    import dataclasses

    from croupier.session import TableSession
    from ui_kit import BALLS, COLOURS, config_for, staffed_journal

    config = config_for(tmp_path)
    config = dataclasses.replace(config, table=dataclasses.replace(config.table, currency="EUR",
                                                                   time_zone="Europe/Zurich"))
    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as session:
        session.open_table(profile="pt-americana", minimum=5, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin=PINS["Ana"], by="Marta", currency="EUR", time_zone="Europe/Lisbon")
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert ("the configuration's [table] time_zone is Europe/Zurich; the journal records Europe/Lisbon"
                    in flat(screen_text(app)))
            await press(pilot, "slash", "7", "1", *PINS["Marta"], "enter", "7", "1")  # pit boss; the configuration's
            assert "Currency and time zone recorded: EUR, Europe/Zurich" in flat(screen_text(app))
        (changed,) = [e.event for e in session.journal.entries() if e.event.kind == "context-changed"]
    assert (changed.currency, changed.time_zone, changed.previous_time_zone, changed.by) == (
        None, "Europe/Zurich", "Europe/Lisbon", "Marta")
    assert changed.reason == "the configuration was corrected"


async def test_a_refusal_quotes_amounts_in_the_journals_currency(staffed_template, tmp_path, clock):
    import dataclasses

    from croupier.i18n import Presentation, showing
    from croupier.session import TableSession
    from croupier.ui import text
    from ui_kit import BALLS, COLOURS, config_for, staffed_journal

    config = config_for(tmp_path)
    config = dataclasses.replace(config, table=dataclasses.replace(config.table, currency="RUB"))
    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as session:
        session.open_table(profile="pt-americana", minimum=5, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin=PINS["Ana"], by="Marta", currency="CHF")
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)):
            assert app.currency == "CHF" and text.worded({"minimum": Decimal(5)})["minimum"].endswith("CHF")
            with showing(Presentation.of("ru", currency="RUB")):  # another paper meanwhile, in its own
                assert text.worded({"minimum": Decimal(5)})["minimum"] == "5,00 RUB"
            assert text.worded({"minimum": Decimal(5)})["minimum"] == "5.00 CHF"
        assert text.worded({"minimum": Decimal(5)})["minimum"] == "5.00"  # the screen's currency stays its own
