"""hw/floor-roles.sql on a real PostgreSQL: the ingester's role writes the store, the view's role
reads it and can write nothing, even when it turns the read-only session setting off."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def as_role(url: str, role: str) -> str:
    return url.replace("postgresql://floor@", f"postgresql://{role}@")


def test_the_view_role_reads_and_only_the_ingester_role_writes(postgres):
    import psycopg

    from croupier.floor.store import StoreError, open_store

    with psycopg.connect(postgres.url, autocommit=True) as admin:
        admin.execute((ROOT / "hw/floor-roles.sql").read_text())
        admin.execute((ROOT / "hw/floor-roles.sql").read_text())  # again, as an upgrade runs it: no error
    with open_store(as_role(postgres.url, "croupier_ingest")) as store:  # creates its tables
        store.raise_alarm("T1", 3, "chain broken at 3")
    with open_store(as_role(postgres.url, "croupier_ingest")) as store:
        assert [a.table_id for a in store.alarms()] == ["T1"]
    with open_store(as_role(postgres.url, "croupier_view"), read_only=True) as view:
        assert [a.table_id for a in view.alarms()] == ["T1"]
    with psycopg.connect(as_role(postgres.url, "croupier_view"), autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")
        for statement in ("DELETE FROM floor_alarms", "CREATE TABLE mine (x int)",
                          "UPDATE floor_tables SET table_id = 'T9'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    # The view's role cannot make the store either: opening it to write is refused.
    with pytest.raises(StoreError):
        open_store(as_role(postgres.url, "croupier_view")).close()
