"""The payout sheet on an 80x24 terminal, the smallest a table screen runs in: the winning plein and
the row being counted are always in view, however many rows the number has and whatever alarms
wait; the alarms take one line; the legend breaks a line only between two entries; C takes a digit typed off, and goes back up
the rows."""
import re

import pytest

from croupier.i18n import install
from croupier.ui.text import position
from croupier.table.events import Role
from ui_kit import flat, kinds, press, screen_text, settle

SIZE = (80, 24)


async def overdue_and_paying(pilot, app, session, clock, number: str = "17") -> None:
    """Launched; relief and ball swap fall overdue (two alarms waiting); `number` typed: the sheet."""
    await press(pilot, "enter")
    clock.advance(minutes=61)
    session.tick()
    await pilot.pause()
    await press(pilot, *number, "enter")
    assert app.screen.id == "payouts" and app.payout_sheet.number == int(number)


def lines_of(app) -> list[str]:
    return screen_text(app).splitlines()


async def test_two_alarms_take_one_line_and_the_plein_is_in_view_on_every_row(table_app, session, clock):
    async with table_app.run_test(size=SIZE) as pilot:
        await overdue_and_paying(pilot, table_app, session, clock)
        lines = lines_of(table_app)
        alarm = [line for line in lines if "⚠" in line]
        assert len(alarm) == 1 and "2 alarms: Croupier relief overdue · Ball swap overdue" in alarm[0]
        for at, row in enumerate(table_app.payout_sheet.rows("red")):
            text = screen_text(table_app)
            assert re.search(r"Pleins +17 ", text), (at, text)  # the winning plein, always
            assert position(row.spec) in text, (row, text)  # and the row the bar is on
            await press(pilot, "enter")


async def test_the_row_being_counted_is_always_on_screen(table_app, session, clock):
    async with table_app.run_test(size=SIZE) as pilot:
        await overdue_and_paying(pilot, table_app, session, clock)
        sheet = table_app.screen
        for at, row in enumerate(table_app.payout_sheet.rows("red")):
            await press(pilot, "5")  # counted on the row the bar is on
            assert f"{sheet.typed}_" in screen_text(table_app), (at, row, screen_text(table_app))
            await press(pilot, "enter")
        assert all(table_app.payout_sheet.counted("red", row.spec) == 5 for row in table_app.payout_sheet.rows("red"))


async def test_c_goes_up_the_rows_and_from_the_first_to_the_pleins(table_app, session, clock):
    async with table_app.run_test(size=SIZE) as pilot:
        await overdue_and_paying(pilot, table_app, session, clock)
        rows = table_app.payout_sheet.rows("red")
        assert "C/Del  pleins" in screen_text(table_app)
        await press(pilot, "c")  # from the first row to the plein, the last
        assert table_app.screen.row_at == len(rows) - 1 and "C/Del  up" in screen_text(table_app)
        await press(pilot, "c", "2", "enter")  # up to the last split: 2 chips there; # down to the plein
        assert table_app.payout_sheet.counted("red", rows[-2].spec) == 2 and "/" in rows[-2].spec
        await press(pilot, "c", "c")  # nothing typed: up past the counted split, its count kept
        assert table_app.screen.row_at == len(rows) - 3 and table_app.payout_sheet.counted("red", rows[-2].spec) == 2


async def test_c_takes_off_the_last_digit_typed_then_goes_up(table_app, session, clock):
    async with table_app.run_test(size=SIZE) as pilot:
        await overdue_and_paying(pilot, table_app, session, clock)
        rows = table_app.payout_sheet.rows("red")
        await press(pilot, "enter", "2", "5")  # 25 on the second row: meant 2
        assert "C/Del  delete digit" in screen_text(table_app)
        await press(pilot, "c")
        assert table_app.payout_sheet.counted("red", rows[1].spec) == 2 and "2_" in screen_text(table_app)
        await press(pilot, "c")  # the last digit typed off: nothing counted there, the row stays
        assert table_app.screen.row_at == 1 and not table_app.payout_sheet.counted("red", rows[1].spec)
        assert "C/Del  up" in screen_text(table_app)
        await press(pilot, "3", "enter", "c", "4")  # 3 counted; back up to it: 4 typed over it is the count
        assert table_app.screen.row_at == 1 and table_app.payout_sheet.counted("red", rows[1].spec) == 4


def legend_entries_whole(app) -> None:
    from croupier.ui.key_legend import KeyLegend
    from croupier.ui.keys import label

    legend = app.screen.query_one(KeyLegend)
    shown = [" ".join(line.split()) for line in screen_text(app).splitlines()]
    for key, meaning in legend._shown:
        entry = " ".join(f"{label(key)} {meaning}".split())
        assert any(entry in line for line in shown), (entry, screen_text(app))


@pytest.mark.parametrize("language", ["en", "pt", "ru", "it"])
async def test_the_legend_never_breaks_between_a_key_and_its_meaning(table_app, session, clock, language):
    install(language)
    app = table_app
    async with app.run_test(size=SIZE) as pilot:
        legend_entries_whole(app)  # the table, bets open
        await overdue_and_paying(pilot, app, session, clock)
        legend_entries_whole(app)  # the sheet's first row
        await press(pilot, "enter", "3")
        legend_entries_whole(app)  # a row with a count
        await press(pilot, "c")
        legend_entries_whole(app)  # a row below the first, empty
        await press(pilot, "escape")
        legend_entries_whole(app)  # the table, paying
        await press(pilot, "d")
        legend_entries_whole(app)  # the menu


async def test_a_legend_entry_that_reaches_the_edge_goes_whole_to_the_next_line():
    from textual.app import App

    from croupier.keypad.entry import Key
    from croupier.ui.key_legend import KeyLegend

    class Legend(App):
        def compose(self):
            yield KeyLegend(id="legend")

    app = Legend()
    async with app.run_test(size=SIZE) as pilot:
        legend = app.query_one(KeyLegend)
        # The first entry ends 8 columns before the edge: "D//" would fit there, "payouts done" not.
        legend.show([(Key.ENTER, "x" * 60), (Key.MENU, "payouts done"), (Key.CANCEL, "back")])
        await pilot.pause()
        lines = [line.strip() for line in screen_text(app).splitlines() if line.strip()]
        assert lines[0].endswith("x" * 60) and lines[1].startswith("D//  payouts done"), lines


async def test_a_long_category_name_is_not_run_into_its_first_position(table_app):
    install("it")
    app = table_app
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "1", "7", "enter")
        text = screen_text(app)
        assert "Chances semplici " in text and "Chances semplicinero" not in text, text


async def test_relief_while_the_ball_runs_is_refused_before_any_pin(table_app, session):
    async with table_app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # the ball is launched
        await press(pilot, "d", "5", "1")  # relief of the croupier
        text = flat(screen_text(table_app))
        assert "relieved between spins" in text and "PIN" not in text and table_app.screen is table_app.table_screen


async def test_a_refusal_clears_when_the_next_question_is_asked(table_app, session):
    async with table_app.run_test(size=SIZE) as pilot:
        await press(pilot, "d", "7", "1", "1", "2", "3", "4", "enter")  # the pit boss's PIN, wrong
        assert "wrong PIN for Marta" in screen_text(table_app)
        await press(pilot, "d")  # the menu: the next question
        assert "wrong PIN" not in screen_text(table_app)
        await press(pilot, "escape")
        assert "wrong PIN" not in screen_text(table_app)


async def test_an_overdue_relief_or_ball_swap_alarm_ends_when_the_relief_or_swap_is_done(table_app, session, clock):
    from croupier.cli import main as cli

    async with table_app.run_test(size=SIZE) as pilot:
        clock.advance(minutes=61)
        session.tick()
        await pilot.pause()
        await press(pilot, "enter")  # the relief alarm seen: the ball swap's waits
        assert "1 acknowledged alarm waits" in flat(screen_text(table_app))
        await press(pilot, "d", "5", "1", "1", *"2222", "enter")  # Rui takes over
        text = flat(screen_text(table_app))
        assert "Croupier: Rui" in text and "acknowledged alarm" not in text and "Ball swap overdue" in text
        await press(pilot, "d", "4", "1")  # the other ball in play
        text = flat(screen_text(table_app))
        assert "overdue" not in text and "acknowledged alarm" not in text and "⚠" not in text, text
    assert session.state.alarms == {}
    session.close()


async def test_a_flow_a_result_closes_says_so_and_opens_again_after_the_payouts(table_app, session):
    from croupier.rules.spin import Direction

    async with table_app.run_test(size=SIZE) as pilot:
        await press(pilot, "d", "5")  # relief: of whom?
        assert "Relief of" in screen_text(table_app)
        session.launch(direction=Direction.CLOCKWISE)  # the wheel launches and reads 17 meanwhile
        session.enter_result(number=17, by="Ana")
        session.confirm_result(by="Ana")
        await settle(pilot)
        text = flat(screen_text(table_app))
        assert "Payouts · 17" in text and "Relief interrupted by the result 17" in text, text
        await press(pilot, "1", "d")  # 1 chip on the first row; the payouts recorded
        await settle(pilot)
        text = flat(screen_text(table_app).replace("█", " "))
        assert "Relief again, after the payouts" in text and "Relief of" in text, text
        await press(pilot, "1", "1", *"2222", "enter")  # the croupier, by Rui
        assert session.state.staff_on(Role.CROUPIER) == "Rui"


async def test_a_storm_of_sheet_keys_at_zero_pause_records_what_the_keys_say(table_app, session, clock):
    from ui_kit import burst

    async with table_app.run_test(size=SIZE) as pilot:
        await overdue_and_paying(pilot, table_app, session, clock)
        last_split = table_app.payout_sheet.rows("red")[-2].spec
        # up to the plein, 2, cleared, up to the last split, 1, down to the plein, 5, recorded: all queued at once
        burst(table_app, "c", "2", "c", "c", "1", "enter", "5", "d")
        await settle(pilot, 12)
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert sorted((s.bet, s.chips) for s in recorded.stakes["red"]) == sorted([(last_split, 1), ("17", 5)])


async def test_keys_typed_into_a_flow_a_result_closes_are_dropped_and_nothing_is_recorded(table_app, session):
    from croupier.rules.spin import Direction
    from ui_kit import burst

    async with table_app.run_test(size=SIZE) as pilot:
        await press(pilot, "d", "5")  # relief: of whom?
        before = session.seq
        session.launch(direction=Direction.CLOCKWISE)
        session.enter_result(number=17, by="Ana")
        session.confirm_result(by="Ana")
        burst(table_app, "1", "1", *"2222", "enter")  # meant for the relief, typed as the result came
        await settle(pilot, 12)
        assert set(kinds(session, before)) <= {"ball-launched", "bets-closed", "result-entered", "result-recorded"}
        assert table_app.payout_sheet.counts == {} and session.state.staff_on(Role.CROUPIER) == "Ana"


async def test_the_note_of_a_correction_is_never_broken_over_two_lines(table_app, session):
    """Twelve results and a correction at 80 columns: the oldest numbers give way to the note,
    which read "(spin 12 corrected" on one line and "from 17)" on the next."""
    from ui_kit import PINS, play_spins

    play_spins(session, 17, 8, 32, 0, 5, 14, 26, 3, 36, 11, 19, 17)
    session.correct_result(spin=12, number=20, reason="sensor right", by="Marta", pin=PINS["Marta"])
    async with table_app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = screen_text(table_app).splitlines()
        (line,) = [line for line in lines if line.startswith(" Last results:")]
        assert "(spin 12 corrected from 17)" in line and " 20 " in line
