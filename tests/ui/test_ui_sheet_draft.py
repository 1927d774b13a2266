"""The payout sheet's work survives a restart before D: the counts typed and the colours marked as
played are kept beside the journal and put back on the sheet after a restart, for the croupier to
check; D then records what it would have recorded without the restart. A draft that is not this
sheet's (another spin, table or journal, others may write it, garbled) is left out, and said."""
import dataclasses
import os
import re
from datetime import datetime, timedelta

import pytest

from croupier.journal import sheet_draft
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.events import Stake
from croupier.table.state import Phase
from croupier.ui.app import TableApp
from ui_kit import flat, play_spins, press, screen_text, settle

# 17 at pt-americana: red counts 3 on the 2nd column and 2 on columns 1+2; blue is marked played
KEYS = ("3", "enter", "2", "b", "a")
PAID = {"red": (Stake(bet="column2", chips=3), Stake(bet="column1+2", chips=2))}


def payouts(session):
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    return dict(recorded.stakes), tuple(recorded.played)


async def started(pilot) -> str:
    """The screen once the table has started (what it says of a draft is said then)."""
    await settle(pilot)
    return flat(screen_text(pilot.app))


def reopened(session, clock):
    """The table restarted: the session closed and its journal opened again (a new app, a new state)."""
    session.close()
    return TableSession.open(session.journal.path, clock)


@pytest.mark.parametrize("restart", [False, True], ids=["straight", "restarted"])
async def test_the_counts_and_marks_typed_survive_a_restart_and_d_records_the_same(session, config, clock, restart):
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter", *KEYS)  # launched; 17; red counted; blue played
        if not restart:
            await press(pilot, "d")
    if restart:
        session = reopened(session, clock)
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            assert "B: the payout sheet of spin 1 with the counts typed before the restart" in await started(pilot)
            await press(pilot, "b")
            text = flat(screen_text(app))
            assert re.search(r"Counts typed before the restart, kept at \d\d:\d\d:\d\d, are back: check them", text)
            assert "2nd column 3" in text and "columns 1+2 2" in text
            assert "Played (PT-A 12): red, blue · not seen: -" in text
            await press(pilot, "d")
    assert session.state.phase is Phase.BETTING
    assert payouts(session) == (PAID, ("red", "blue"))
    if restart:
        session.close()
    assert not sheet_draft.draft_path(session.journal.path).exists()  # recorded: the draft is gone


async def test_a_draft_of_another_spin_is_not_used(session, config, clock):
    """A draft left from spin 1 (its payouts recorded) is not put on the sheet of spin 2."""
    play_spins(session, 8)
    spin_1 = session.state.last_result
    session.launch(direction=session.state.last_direction.opposite())
    session.enter_result(number=17, by="Ana")
    session.confirm_result(by="Ana")
    path = sheet_draft.draft_path(session.journal.path)
    sheet_draft.save(path, sheet_draft.SheetDraft(
        table=config.table.id, journal=session.journal.hash_at(1), spin=1, number=8,
        result_time=spin_1.time.isoformat(), counts=(("red", "column2", 3),), played=("blue",)), session.journal.key)
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "The payout sheet kept before the restart was not used: it is of spin 1" in await started(pilot)
        await press(pilot, "b")
        text = flat(screen_text(app))
        assert "Payouts · 17 black · spin 2" in text and "2nd column · " in text and "restart" not in text
        assert "not seen: red, blue" in text
    assert not path.exists()  # this table's own leftover: removed


def _draft_for_the_open_sheet(session, config, **changes):
    result = session.state.last_result
    draft = sheet_draft.SheetDraft(
        table=config.table.id, journal=session.journal.hash_at(1), spin=result.spin, number=result.number,
        result_time=result.time.isoformat(), counts=(("red", "column2", 3),), played=())
    return dataclasses.replace(draft, **changes)


@pytest.mark.parametrize(("spoil", "said"), [
    ("other table", "it is of table T9"),
    ("other journal", "it is of another journal"),
    ("world-writable", "others may write it"),
    ("garbled", "it cannot be read"),
    ("unsigned", "it cannot be read"),
])
async def test_a_draft_that_is_not_this_sheets_is_not_used(session, config, spoil, said):
    session.launch(direction=Direction.CLOCKWISE)
    session.enter_result(number=17, by="Ana")
    session.confirm_result(by="Ana")
    path = sheet_draft.draft_path(session.journal.path)
    changes = {"other table": {"table": "T9"}, "other journal": {"journal": "0" * 64}}.get(spoil, {})
    sheet_draft.save(path, _draft_for_the_open_sheet(session, config, **changes),
                     None if spoil == "unsigned" else session.journal.key)
    if spoil == "world-writable":
        os.chmod(path, 0o666)
    elif spoil == "garbled":
        path.write_bytes(path.read_bytes()[:-9])
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert f"The payout sheet kept before the restart was not used: {said}" in await started(pilot)
        await press(pilot, "b")
        assert "2nd column · " in flat(screen_text(app))  # nothing counted from it
    assert path.exists()  # not this table's own: left as found


async def test_an_older_draft_of_the_same_sheet_put_back_is_not_used_and_said(session, config, clock):
    """Counted red 3 on the 2nd column, copied the draft, counted on; the copy put back a minute later
    and the table restarted: the sheet does not come back with the older counts, and says why."""
    app = TableApp(session, config, wheel=False)
    path = sheet_draft.draft_path(session.journal.path)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter", "3")
        copy, written = path.read_bytes(), sheet_draft.load(
            path, session.journal.key, table=config.table.id, journal=session.journal.hash_at(1), spin=1,
            number=17, result_time=session.state.last_result.time.isoformat()).written
        await press(pilot, "enter", "2", "b", "a")
    path.write_bytes(copy)
    put_back = (datetime.fromisoformat(written) + timedelta(minutes=2)).timestamp()
    os.utime(path, (put_back, put_back))
    session = reopened(session, clock)
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        text = await started(pilot)
        assert "The payout sheet kept before the restart was not used: it is a copy put back, written at" in text
        await press(pilot, "b")
        text = flat(screen_text(app))
        assert "2nd column · " in text and "back: check them" not in text  # nothing counted from it
    session.close()


async def test_the_time_the_counts_were_kept_is_the_tables_clock(session, config, clock):
    """A table in Moscow run on a machine set to UTC says when the counts were kept by its own clock."""
    import json
    from zoneinfo import ZoneInfo

    config = dataclasses.replace(config, table=dataclasses.replace(config.table, time_zone="Europe/Moscow"))
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter", *KEYS)
    written = json.loads(sheet_draft.draft_path(session.journal.path).read_text())["written"]
    shown = datetime.fromisoformat(written).astimezone(ZoneInfo("Europe/Moscow")).strftime("%H:%M:%S")
    session = reopened(session, clock)
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await press(pilot, "b")
        assert f"kept at {shown}, are back" in flat(screen_text(app))
    session.close()
