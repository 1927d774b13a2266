"""Pilot tests walk the review app by keyboard, as a pit boss would, over a journal whose every
figure is known by hand (conftest.shift_events)."""
import hashlib
import sqlite3

import pytest
from textual.widgets import DataTable, Input, Static, TabbedContent
from typed_at_once import type_at_once

from croupier.journal.store import JournalError
from croupier.review.app import ReviewApp
from croupier.review.shifts import open_read_only


def cell_texts(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def detail(app) -> str:
    return str(app.query_one("#spin-detail", Static).render())


async def test_timeline_shows_every_event_and_filters_narrow_it(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        table = app.query_one("#timeline-table", DataTable)
        assert table.row_count == 38
        journal_line = str(app.query_one("#journal-line", Static).render())
        assert "read-only" in journal_line and "event 38" in journal_line
        await pilot.press("slash")
        await pilot.press(*"kind:spin-voided")
        await pilot.press("enter")
        rows = cell_texts(table)
        assert len(rows) == 1 and "VOID (chip-fell" in rows[0][4]
        # Rui was at the wheel from 20:30 to 21:45: spins 3 and 4, the alarm, the ball swap.
        app.query_one("#timeline-filter", Input).value = "croupier:rui kind:result-recorded,result-corrected"
        await pilot.press("slash", "enter")
        assert [row[4][:6] for row in cell_texts(table)] == ["spin 3", "spin 3", "spin 4"]
        app.query_one("#timeline-filter", Input).value = "colour:blue"
        await pilot.press("slash", "enter")
        assert len(cell_texts(table)) == 3  # assigned, bet on spin 1, settled on spin 1
        app.query_one("#timeline-filter", Input).value = "ball:B2"
        await pilot.press("slash", "enter")
        assert cell_texts(table)[0][4] == "ball swapped B1 -> B2 by Rui"


async def test_a_filter_it_cannot_read_is_refused_with_the_reason(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("slash", *"kind:spin-exploded", "enter")
        status = str(app.query_one("#timeline-status", Static).render())
        assert "'spin-exploded' is not an event type" in status
        assert app.query_one("#timeline-table", DataTable).row_count == 38  # the list is unchanged


async def test_enter_on_a_spin_event_opens_the_spin_for_a_dispute(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("slash", *"kind:result-corrected", "enter")
        await pilot.press("enter")
        assert app.query_one("#tabs", TabbedContent).active == "spin"
        text = detail(app)
        assert "result: 24 black" in text
        assert "corrected 5 -> 24 by Marta: sensor misread; ball seen in 24" in text
        assert "ball B1, croupier Rui, anticlockwise" in text
        assert "red bets: plein 5 x1" in text
        assert "red: staked 1, paid 0" in text and "lost 1" in text


async def test_jump_to_a_spin_by_number_shows_void_keypad_and_payouts(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("j", "2", "enter")
        text = detail(app)
        assert "result: 32 red" in text and "source: keypad, confirmed by Ana" in text
        assert "golpe nulo" in text and "chip-fell" in text and "ball put back in 17" in text
        await pilot.press("escape", "j", "1", "enter")
        text = detail(app)
        # Red's plein 17 x2 pays 35 x 2 = 70 chips of 5: 350.00; blue's "red" x5 loses on 17 black.
        assert "red: staked 2, paid 70 = 350.00, returned 2, lost 0" in text
        assert "blue: staked 5, paid 0 = 0.00, returned 0, lost 5" in text


async def test_2_opens_the_spin_tab_ready_for_the_number(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        tabs = app.query_one("#tabs", TabbedContent)
        await pilot.press("2", "3", "enter")  # the 3 is the spin's: it must not open tab 3
        assert tabs.active == "spin" and "result: 24 black" in detail(app)
        await pilot.press("4", "enter")  # another number replaces the one shown, it does not make 34
        assert tabs.active == "spin" and "result: 0 green" in detail(app)
        await pilot.press("escape", "1")  # out of the box: 1 is the timeline again
        assert tabs.active == "timeline"
        await pilot.press("2", "1", "enter")  # back: the number shown is selected, and replaced
        assert app.query_one("#spin-number", Input).value == "1" and "result: 17 black" in detail(app)
        await pilot.press("escape", "3")  # out of the box, digits switch tabs again
        assert tabs.active == "procedures"


@pytest.mark.parametrize("keys,box,left,tab", [
    ("/x\x1b2", "#timeline-filter", "x", "spin"),  # 2 after the filter: the Spin tab, not "x2" in the filter
    ("j1\x1b3", "#spin-number", "1", "procedures"),  # 3 after spin 1: the Procedures tab, not spin 13
    ("gx\x1b4", "#goto", "x", "colours"),
    ("/x\x1bj", "#timeline-filter", "x", "spin"),  # j: to the spin's number, not "xj" in the filter
])
async def test_escape_typed_at_once_with_a_key_leaves_the_box_before_the_key_acts(shift_journal, keys, box, left, tab):
    # A browser's burst, or a terminal's: Escape and the key after it arrive together, read by the
    # terminal's reader as one key (alt+j, or "™" for Escape and 2). The Escape closes the box
    # first, and the key after it acts on what is under the box.
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        await type_at_once(app, pilot, keys)
        assert app.query_one(box, Input).value == left
        assert app.query_one("#tabs", TabbedContent).active == tab
        assert not app.query_one("#goto", Input).has_class("asked")


async def test_a_spin_picked_in_the_timeline_leaves_the_digits_to_the_tabs(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        tabs = app.query_one("#tabs", TabbedContent)
        await pilot.press("slash", *"kind:spin-voided", "enter", "enter")
        assert tabs.active == "spin" and "golpe nulo" in detail(app)
        await pilot.press("1")
        assert tabs.active == "timeline" and app.query_one("#spin-number", Input).value == "2"
        for key, tab in (("3", "procedures"), ("4", "colours"), ("5", "croupiers"), ("6", "statistics"),
                         ("3", "procedures"), ("1", "timeline")):
            await pilot.press(key)
            assert tabs.active == tab, f"{key} after the previous tab"


async def test_procedures_colours_and_croupiers_tabs(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.press("3")
        assert app.query_one("#tabs", TabbedContent).active == "procedures"
        tables = {str(static.render()).split(" (")[0]: table for static, table in zip(
            app.query("#procedures-pane > Static"), app.query("#procedures-pane > DataTable"))}
        assert cell_texts(tables["Voids"])[0][1:3] == ["2", "chip-fell"]
        assert cell_texts(tables["Corrections"])[0][1:5] == ["3", "5", "24", "Marta"]
        alarm = cell_texts(tables["Alarms"])[0]
        assert alarm[2] == "direction-repeated" and alarm[5].startswith("Rui") and alarm[6].startswith("Marta")
        assert cell_texts(tables["Balls"])[0][2] == "B1 -> B2"
        assert [row[4] for row in cell_texts(tables["Reliefs"])] == ["in time", "OVERDUE"]

        await pilot.press("4")
        ledger = cell_texts(app.query_one("#colours-pane > DataTable", DataTable))
        red, blue = ledger
        # red: bought 100 chips at 5 = 500, cashed out 166 chips for 830: the player's result is
        # 830 - 500 = +330. Beside it: staked 2 + 1 + 1; paid 70 (spin 3's 35 undone by the
        # correction); collected 1 + 1; returned the winning plein's 2.
        assert red[:3] == ["red", "player-1", "5.00"]
        assert red[4:] == ["100 = 500.00", "166 chips = 830.00", "", "+330.00", "4", "70", "2", "2"]
        # blue: 50 chips at 10, still in play: no result; its 5 chips on red lost on 17.
        assert blue[4:] == ["50 = 500.00", "still in play", "", "in play", "5", "0", "5", "0"]

        await pilot.press("5")
        figures = {row[0]: row for row in cell_texts(app.query_one("#croupiers-pane > DataTable", DataTable))}
        # Ana: 20:00-20:30 and 21:45-22:00 = 45 min, 2 spins = 2.7 an hour, the void, 70 chips paid.
        assert figures["Ana"][1:] == ["0h45", "2", "0h30", "2", "2.7", "1", "0", "0", "0", "70 x 5.00", "350.00"]
        # Rui: 20:30-21:45, 2 spins = 1.6 an hour, spin 3 corrected, the repeated direction, relieved late.
        assert figures["Rui"][1:] == ["1h15", "1", "1h15", "2", "1.6", "0", "1", "1", "1", "0", "0.00"]


async def test_statistics_tab_speaks_plainly_and_draws_the_wheel(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 60)) as pilot:
        await pilot.press("6")
        text = str(app.query_one("#statistics-text", Static).render())
        assert "4 counted spins" in text
        assert "4 spins are too few to test" in text and "at most 5% of wheel-years, however often" in text
        assert "spins per pocket on a fair wheel" in text
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "whole journal: 4 counted spins" in str(app.query_one("#statistics-text", Static).render())


async def test_quitting_ends_the_whole_journal_read_at_once(shift_journal, tmp_path, monkeypatch):
    """A year's whole-journal read is seconds of Python: read in the review's own process it held the
    screen's lock, and quitting waited for it (or closed the journal under it). It is read in a
    process of its own, which the review, ending, ends."""
    import asyncio
    import os

    from croupier.review import app as review

    started = tmp_path / "reader.pid"
    monkeypatch.setattr(review, "JOURNAL_SPINS", f"import os, time; open({str(started)!r}, 'w').write("
                                                 "str(os.getpid())); time.sleep(120)")  # a read without end
    with open_read_only(shift_journal) as journal:
        app = ReviewApp(journal)
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.press("6", "a")
            for _ in range(300):
                if started.exists() and started.read_text():
                    break
                await pilot.pause(0.1)
            reader = int(started.read_text())
            assert "Reading every counted spin" in str(app.query_one("#statistics-text", Static).render())
    for _ in range(100):  # Textual cancels the read as the review ends; it kills the process and reaps it
        try:
            os.kill(reader, 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.1)
    with pytest.raises(ProcessLookupError):
        os.kill(reader, 0)


async def test_the_whole_journal_s_statistics_are_in_the_review_s_own_language(shift_journal):
    """Read in a process of their own, written in a thread: in the language the review was given,
    whatever the command's."""
    from croupier.i18n import Presentation

    app = ReviewApp(open_read_only(shift_journal), presentation=Presentation.of("it"))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("6", "a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "tutto il giornale: 4 colpi contati" in str(app.query_one("#statistics-text", Static).render())


async def test_a_whole_journal_read_that_fails_says_so(shift_journal, monkeypatch):
    from croupier.review import app as review

    monkeypatch.setattr(review, "JOURNAL_SPINS", "import sys; sys.exit(3)")
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("6", "a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "CANNOT READ THE JOURNAL'S SPINS: the read ended without them (exit status 3)" in str(
            app.query_one("#statistics-text", Static).render())


async def test_the_review_cannot_write_to_the_journal(shift_journal):
    before = hashlib.sha256(shift_journal.read_bytes()).hexdigest()
    journal = open_read_only(shift_journal)
    app = ReviewApp(journal)
    async with app.run_test(size=(140, 45)) as pilot:
        for key in ("1", "2", "3", "4", "5", "6", "a", "j", "3", "enter", "escape", "left_square_bracket"):
            await pilot.press(key)
        await app.workers.wait_for_complete()
    with pytest.raises(JournalError, match="read-only"):
        journal.append([])
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        journal._conn.execute("INSERT INTO meta VALUES ('intruder', 'x')")  # below the Python API too
    journal.close()
    assert hashlib.sha256(shift_journal.read_bytes()).hexdigest() == before


async def test_an_intact_journal_says_its_chain_was_checked(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()  # the check starts once the screen is drawn
        await app.workers.wait_for_complete()
        state = app.query_one("#chain-state", Static)
        assert str(state.render()) == "hash chain intact: events 1-38 checked"
        assert not state.has_class("damaged")


async def test_a_damaged_journal_is_shown_in_a_banner_naming_the_first_bad_event(shift_journal):
    with sqlite3.connect(shift_journal) as raw:  # behind the journal's back, as an intruder would
        raw.execute("DROP TRIGGER events_no_update")
        raw.execute("UPDATE events SET body = replace(body, '\"number\":17', '\"number\":18') WHERE seq = 11")
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()  # the check starts once the screen is drawn
        await app.workers.wait_for_complete()
        await pilot.pause()
        state = app.query_one("#chain-state", Static)
        assert str(state.render()).startswith(
            "JOURNAL DAMAGED: event 11: its content does not match its hash: the event was altered.")
        assert state.has_class("damaged")  # drawn in the error colour, above every tab
        assert "CANNOT SHOW THIS SHIFT" in str(app.query_one("#journal-line", Static).render())


def test_the_app_refuses_a_journal_open_for_writing(shift_journal):
    from croupier.journal.store import Journal

    with Journal.open(shift_journal) as writable, pytest.raises(ValueError, match="read-only"):
        ReviewApp(writable)


async def test_a_chain_check_that_ends_as_the_review_closes_is_not_a_crash(shift_journal):
    # The check runs in a process beside the screen; its verdict may come back once the screen is gone.
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await app.query_one("#chain-state").remove()  # as when the review closes: its widgets go first
        app._chain_state("hash chain intact: events 1-38 checked")  # the verdict comes back after
        assert not app.query("#chain-state")
