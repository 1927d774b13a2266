"""The floor view page as `croupier-floor-view-web.service` serves it: a read-only view of a real
store (SQLite here, as the ingester left it), in Chromium."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from web_kit import descendants, listening_addresses, screen, served, shows, wait_until

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
sys.path.insert(0, str(Path(__file__).parents[1] / "floor"))
from journal_kit import NUMBERS, raw, write_shift  # noqa: E402

UNIT = "croupier-floor-view-web.service"


def floor_store(folder: Path) -> str:
    """A store with T1's shift and T2's, T2's last event altered (a chain alarm): its URL."""
    from croupier.floor.ingester import Ingester
    from croupier.floor.store import open_store
    from test_floor_store import enrolled, messages, storing

    for table in ("T1", "T2"):
        (folder / table).mkdir()
        write_shift(folder / table / "journal.db").close()
    with raw(folder / "T2" / "journal.db") as conn:
        conn.execute("UPDATE events SET body = replace(body, 'Ana', 'Rui') WHERE seq = (SELECT max(seq) FROM events)")
    url = str(folder / "floor.db")
    with open_store(url) as store:
        ingester = Ingester(store, [])
        for table in ("T1", "T2"):
            enrolled(store, folder / table / "journal.db", table)
            ingester.ingest(messages(folder / table / "journal.db", table))
        storing(store)
    return url


@pytest.fixture
def floor_view(tmp_path):
    """The unit serving the store (named in $CROUPIER_FLOOR_STORE, as its floor-view.env does)."""
    url = floor_store(tmp_path)
    with served(UNIT, tmp_path, env={"CROUPIER_FLOOR_STORE": url}) as (page_url, process):
        yield page_url, process


def test_the_floor_view_page_shows_the_stores_tables_and_takes_no_acknowledgement(floor_view, page):
    url, _ = floor_view
    page.goto(url)
    text = shows(page, "T1", "OPEN", "croupier Ana", "last: " + " ".join(str(n) for n in reversed(NUMBERS)),
                 "T2 chain broken: at event", "this view only reads the store: acknowledge with croupier floor acknowledge",
                 f"T1: {len(NUMBERS)} spins")
    assert "acknowledge an alarm" not in text.splitlines()[-1]  # the footer offers no acknowledgement
    page.focus(".xterm-helper-textarea")
    page.keyboard.press("a")
    time.sleep(2)  # time enough for a dialog to open, were the key taken
    assert "Acknowledge an alarm" not in screen(page)
    page.keyboard.press("q")  # the view ends, and the page says so
    wait_until(lambda: "-closed" in (page.evaluate("document.body.className") or ""), what="the page closing")


def test_the_page_is_served_on_localhost_only(floor_view):
    url, _ = floor_view
    port = int(url.rsplit(":", 1)[1].strip("/"))
    assert listening_addresses(port) == {"127.0.0.1"}


def test_a_closed_tab_leaves_no_view_process_behind(floor_view, browser):
    url, process = floor_view
    for _ in range(2):  # twice: each tab its own view, each ended with its tab
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(url)
        shows(page, "T1", "OPEN")
        assert descendants(process.pid)  # the tab's view process
        context.close()
        wait_until(lambda: not descendants(process.pid), what="the view process ending with its tab")
