"""The main screens pinned as pictures (pytest-textual-snapshot; Textual is pinned in pyproject), on
a Raspberry Pi console (80x24) and on a 1024x600 panel (128x37). Update them on purpose with
`pytest tests/ui/test_ui_snapshots.py --snapshot-update` and look at the report before committing."""
from pathlib import Path

import pytest

from croupier.billboard.app import BillboardApp
from croupier.i18n import install
from croupier.table.events import Stake
from croupier.ui.app import TableApp
from ui_kit import play_spins

CONSOLE, PANEL = (80, 24), (128, 37)


@pytest.fixture
def played(session):
    """Three spins played, blue with an orphelins bet on the layout."""
    play_spins(session, 32, 0, 17)
    session.place_bets(colour="blue", stakes=(Stake(bet="orphelins", chips=1),))
    return session


def test_table_screen_on_the_console(snap_compare, played, config):
    assert snap_compare(TableApp(played, config, wheel=False), terminal_size=CONSOLE)


def test_table_screen_on_the_panel_in_portuguese_with_the_board_and_an_alarm(snap_compare, played, config, clock):
    install("pt")
    clock.advance(minutes=61)
    played.tick()  # relief and ball swap overdue (PT-A 33, PT-A 17)
    assert snap_compare(TableApp(played, config, wheel=True, show_board=True), terminal_size=PANEL)


def test_payout_sheet_on_the_console(snap_compare, session, config):
    # launch, 17, then 3 chips on black (the fourth position) and 2 on the split 14/17
    keys = ["enter", "1", "7", "enter", "enter", "enter", "enter", "3", *["enter"] * 14, "2"]
    assert snap_compare(TableApp(session, config, wheel=False), press=keys, terminal_size=CONSOLE)


def test_the_next_results_payout_sheet_on_the_console(snap_compare, session, config):
    # The sheet is built once and pushed again for each result, without being styled again:
    # spin 2's sheet looks as a first one does (red's 2 chips on 5's second column, the bar under them).
    keys = ["enter", "1", "7", "enter", "d", "d", "enter", "5", "enter", "2"]  # D D: nothing counted
    assert snap_compare(TableApp(session, config, wheel=False), press=keys, terminal_size=CONSOLE)


def test_payout_sheet_on_the_panel(snap_compare, session, config):
    assert snap_compare(TableApp(session, config, wheel=False), press=["enter", "2", "6", "enter", "5"],
                        terminal_size=PANEL)


def test_golpe_nulo_reasons_on_the_console(snap_compare, session, config):
    assert snap_compare(TableApp(session, config, wheel=False), press=["enter", "a"], terminal_size=CONSOLE)


def test_menu_on_the_console(snap_compare, session, config):
    assert snap_compare(TableApp(session, config, wheel=False), press=["d"], terminal_size=CONSOLE)


@pytest.mark.parametrize("size", [CONSOLE, PANEL], ids=["console", "panel"])
def test_billboard(snap_compare, played, size):
    from croupier.table.clock import FakeClock

    path = Path(played.journal.path)
    app = BillboardApp(path, table_name="Roleta 1", clock=FakeClock(played.clock.now()))
    assert snap_compare(app, terminal_size=size)
