"""The floor view page as its unit serves it on PostgreSQL with hw/floor-roles.sql's roles: as the
pit bosses' role it takes an acknowledgement, which the store records; as the read-only role it
offers none, whatever its command line."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from web_kit import screen, served, shows

sys.path.insert(0, str(Path(__file__).parents[1] / "floor"))
from test_floor_view_page import UNIT, floor_store, footer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def roles(tmp_path):
    """A throwaway PostgreSQL with the floor's roles, T1's and T2's shifts stored by the ingester's
    role (T2's chain broken: an alarm): a URL maker for each role."""
    from floor_kit import ThrowawayPostgres, pg_binaries

    if pg_binaries() is None:
        pytest.skip("no PostgreSQL on this machine (initdb not found under /usr/lib/postgresql/*/bin or on PATH)")
    psycopg = pytest.importorskip("psycopg", reason="psycopg comes with the floor extra: pip install '.[floor-server]'")
    server = ThrowawayPostgres().start()
    try:
        with psycopg.connect(server.url, autocommit=True) as admin:
            admin.execute((ROOT / "hw/floor-roles.sql").read_text())

        def as_role(role: str) -> str:
            return server.url.replace("postgresql://floor@", f"postgresql://{role}@")

        floor_store(tmp_path, as_role("croupier_ingest"))
        yield as_role
    finally:
        server.stop()


def test_the_page_acknowledges_as_the_pit_bosses_role(roles, tmp_path, page):
    from croupier.floor.store import open_store

    with served(UNIT, tmp_path, env={"CROUPIER_FLOOR_STORE": roles("croupier_pitboss")}) as (url, _):
        page.goto(url)
        shows(page, "T2 chain broken: at event", "(a: acknowledge)")
        assert "a acknowledge an alarm" in footer(page)
        page.keyboard.press("a")
        shows(page, "Acknowledge an alarm", "1. T2")
        page.keyboard.type("1\n", delay=100)
        page.keyboard.type("maria\n", delay=100)
        shows(page, "acknowledged on the floor by maria at ")
    with open_store(roles("croupier_view"), read_only=True) as store:
        assert [alarm.acknowledged_by for alarm in store.alarms()] == ["maria"]


def test_the_page_on_the_read_only_role_offers_no_acknowledgement(roles, tmp_path, page):
    with served(UNIT, tmp_path, env={"CROUPIER_FLOOR_STORE": roles("croupier_view")}) as (url, _):
        page.goto(url)
        shows(page, "T2 chain broken: at event", "this view only reads the store: acknowledge with croupier floor")
        assert "acknowledge" not in footer(page)
        page.keyboard.press("a")
        time.sleep(2)  # time enough for the dialog to open, were the key taken
        assert "Acknowledge an alarm" not in screen(page)
