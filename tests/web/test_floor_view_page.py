"""The floor view page as `croupier-floor-view-web.service` serves it, and its read-only variant,
on a real store (SQLite here, as the ingester left it), in Chromium."""
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


def floor_store(folder: Path, url: str | None = None) -> str:
    """A store (at `url`, else an SQLite file in `folder`) with T1's shift and T2's, T2's last event
    altered (a chain alarm): its URL."""
    from croupier.floor.ingester import Ingester
    from croupier.floor.store import open_store
    from test_floor_store import enrolled, messages, storing

    for table in ("T1", "T2"):
        (folder / table).mkdir()
        write_shift(folder / table / "journal.db").close()
    with raw(folder / "T2" / "journal.db") as conn:
        conn.execute("UPDATE events SET body = replace(body, 'Ana', 'Rui') WHERE seq = (SELECT max(seq) FROM events)")
    url = url or str(folder / "floor.db")
    with open_store(url) as store:
        ingester = Ingester(store, [])
        for table in ("T1", "T2"):
            enrolled(store, folder / table / "journal.db", table)
            ingester.ingest(messages(folder / table / "journal.db", table))
        storing(store)
    return url


READ_ONLY = {"croupier floor view'": "croupier floor view --read-only'"}  # hw/floor.md's wall display


def serve(folder: Path, store: str | None = None, **options):
    """The unit serving the store (named in $CROUPIER_FLOOR_STORE, as its floor-view.env does)."""
    return served(UNIT, folder, env={"CROUPIER_FLOOR_STORE": floor_store(folder, store)}, **options)


def footer(page) -> str:
    """The footer's row, once drawn."""
    return wait_until(lambda: next((row for row in screen(page).splitlines() if "q quit" in row), None),
                      what="the footer showing")


@pytest.fixture
def floor_view(tmp_path):
    with serve(tmp_path) as (page_url, process):
        yield page_url, process


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """An SQLite store's path, or a throwaway PostgreSQL's URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "floor.db")
        return
    from floor_kit import ThrowawayPostgres, pg_binaries

    if pg_binaries() is None:
        pytest.skip("no PostgreSQL on this machine (initdb not found under /usr/lib/postgresql/*/bin or on PATH)")
    pytest.importorskip("psycopg", reason="psycopg comes with the floor extra: pip install '.[floor-server]'")
    server = ThrowawayPostgres().start()
    try:
        yield server.url
    finally:
        server.stop()


def test_a_pit_boss_acknowledges_an_alarm_in_the_floor_view_page(store_url, tmp_path, page):
    from croupier.floor.store import open_store

    with serve(tmp_path, store_url) as (url, _):
        page.goto(url)
        shows(page, "T1", "OPEN", "croupier Ana", "last: " + " ".join(str(n) for n in reversed(NUMBERS)),
              "T2 chain broken: at event", "(a: acknowledge)", f"T1: {len(NUMBERS)} spins")
        assert "a acknowledge an alarm" in footer(page)
        page.keyboard.press("a")
        shows(page, "Acknowledge an alarm", "1. T2")
        page.keyboard.type("1\n", delay=100)  # as a person types
        page.keyboard.type("maria\n", delay=100)
        shows(page, "acknowledged on the floor by maria at ")
    with open_store(store_url, read_only=True) as store:
        assert [alarm.acknowledged_by for alarm in store.alarms()] == ["maria"]


def test_an_acknowledgement_typed_at_once_reaches_the_dialog(floor_view, page, tmp_path):
    url, _ = floor_view
    page.goto(url)
    shows(page, "T2 chain broken: at event", "(a: acknowledge)")
    page.keyboard.type("a1\nmaria\n")
    shows(page, "acknowledged on the floor by maria at ", timeout=10)


def test_the_read_only_floor_view_page_takes_no_acknowledgement(tmp_path, page):
    with serve(tmp_path, replace=READ_ONLY) as (url, _):
        page.goto(url)
        shows(page, "T1", "OPEN", "T2 chain broken: at event",
              "this view only reads the store: acknowledge with croupier floor acknowledge")
        assert "acknowledge" not in footer(page)  # the footer offers no acknowledgement
        page.keyboard.press("a")
        time.sleep(2)  # time enough for the dialog to open, were the key taken
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
