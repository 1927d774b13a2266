"""hw/floor-roles.sql on a real PostgreSQL: the ingester's role writes the store, the view's role
reads it and can write nothing, even when it turns the read-only session setting off, and the pit
bosses' role (the view in a browser) reads it and writes nothing but acknowledgements of open alarms."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from croupier.cli import main
from croupier.floor.gate import RefusalReason
from croupier.floor.store import open_store
from croupier.floor.view import FloorView

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import write_shift  # noqa: E402
from test_floor_alarms import until  # noqa: E402
from test_floor_store import enrolled, messages  # noqa: E402

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


@pytest.fixture
def pit(postgres, tmp_path):
    """hw/floor-roles.sql run, T1's wheel-fault alarm and refused messages on T66's subject stored by
    the ingester's role: the store's URL as the superuser (who checks it) and as the pit bosses' role."""
    import psycopg

    from croupier.floor.ingester import Ingester
    from croupier.floor.store import RefusedMessages
    from croupier.table.alarms import wheel_fault

    with psycopg.connect(postgres.url, autocommit=True) as admin:
        admin.execute((ROOT / "hw/floor-roles.sql").read_text())
    db = tmp_path / "T1.db"
    with write_shift(db) as session:
        session.run(wheel_fault, detail="the wheel sensor went silent for 3 s")
    with open_store(as_role(postgres.url, "croupier_ingest")) as store:
        Ingester(enrolled(store, db), []).ingest(messages(db, "T1"))
        store.append_many([], "2026-01-01T00:00:00+00:00",
                          refused=[RefusedMessages("croupier.table.T66.events", RefusalReason.UNKNOWN_TABLE,
                                                   "no key enrolled", 3)])
    return postgres.url, as_role(postgres.url, "croupier_pitboss")


def everything(url: str) -> dict[str, list]:
    """Every row of every floor table, as the superuser reads them."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        tables = [name for (name,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return {name: sorted(map(repr, conn.execute(f"SELECT * FROM {name}").fetchall())) for name in tables}


async def test_the_pit_bosses_role_acknowledges_an_alarm_and_a_refusal_from_the_view(pit):
    admin, pitboss = pit
    with open_store(pitboss, read_only=True) as store:
        app = FloorView(store, refresh_s=60, writer_url=pitboss)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: "T66" in str(app.query_one("#alarms").render()))
            assert "a: acknowledge" in str(app.query_one("#alarms").render())
            assert app.check_action("acknowledge", ()) is True
            for name in ("Rui Costa", "Marta"):  # the first open alarm each time: T1's, then T66's
                await pilot.press("a")
                await until(pilot, lambda: app.screen.query("#number"))
                await pilot.press("1", "enter", *name, "enter")
                await until(pilot, lambda: not app.screen.query("#number"))
                await until(pilot, lambda: name in str(app.query_one("#alarms").render()))
    with open_store(admin, read_only=True) as store:
        (alarm,), (refusal,) = store.alarms(), store.refusals()
    assert (alarm.table_id, alarm.acknowledged_by) == ("T1", "Rui Costa") and alarm.acknowledged
    assert (refusal.subject, refusal.acknowledged_by) == ("croupier.table.T66.events", "Marta")


def test_the_pit_bosses_role_writes_nothing_but_an_acknowledgement(pit):
    import psycopg

    admin, pitboss = pit
    with open_store(admin, read_only=True) as store:
        (alarm,) = store.alarms()
    with psycopg.connect(pitboss, autocommit=True) as conn:  # as someone with its login would, skipping croupier
        assert conn.execute("SHOW idle_in_transaction_session_timeout").fetchone() == ("10s",)
        assert conn.execute("SELECT floor_acknowledge_alarm('T1', %s, 'Ana')", (alarm.event_seq,)).fetchone() == (True,)
        before = everything(admin)
        for statement in (
                "INSERT INTO floor_events (table_id, seq, time, kind, body, prev_hash, hash, mac, received) "
                "VALUES ('T1', 999, '', 'result-recorded', '{}', '', '', '', now())",
                "UPDATE floor_events SET body = replace(body, 'Ana', 'Rui') WHERE table_id = 'T1'",
                "UPDATE floor_summaries SET tile = '{}'", "DELETE FROM floor_events",
                "UPDATE floor_tables SET broken_at = NULL, problem = NULL",  # a resume
                "UPDATE floor_alarms SET acknowledged_by = 'Marta'", "UPDATE floor_alarms SET acknowledged = NULL",
                "UPDATE floor_refusals SET acknowledged_by = 'Marta'", "UPDATE floor_changes SET n = 0",
                "INSERT INTO floor_keys (table_id, public_key, fingerprint, enrolled) VALUES ('T9', 'k', 'f', now())",
                "CREATE TABLE mine (x int)", "CREATE FUNCTION mine() RETURNS int LANGUAGE sql AS 'SELECT 1'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        # Someone's acknowledgement stays: the function takes up open alarms only.
        assert conn.execute("SELECT floor_acknowledge_alarm('T1', %s, 'Marta')", (alarm.event_seq,)).fetchone() == (False,)
        for name in ("", "x" * 61, "Rui\x1b[2J", "[red]Rui", "<b>Rui</b>", "Rui\u202e"):
            with pytest.raises(psycopg.errors.InvalidParameterValue):
                conn.execute("SELECT floor_acknowledge_refusals('croupier.table.T66.events', %s)", (name,))
    assert everything(admin) == before


@pytest.mark.parametrize("verb", [
    ["resume", "--table", "T1", "--by", "Marta"],
    ["enrol", "--table", "T9", "--public-key", "{key}"],
])
def test_the_pit_bosses_role_is_refused_in_one_line_by_the_commands_that_write(pit, verb, tmp_path, capsys):
    import psycopg

    admin, pitboss = pit
    with psycopg.connect(admin, autocommit=True) as conn:  # T1 quarantined, as a broken chain leaves it
        conn.execute("UPDATE floor_tables SET broken_at = 2, problem = 'a test' WHERE table_id = 'T1'")
    before = everything(admin)
    key = tmp_path / "T1.db"
    from croupier.journal.signing import default_signing_key_path, public_path

    args = [part.format(key=public_path(default_signing_key_path(key))) for part in verb]
    assert main(["floor", *args, "--store", pitboss]) == 1
    err = capsys.readouterr().err
    assert "permission denied" in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert everything(admin) == before


def test_floor_acknowledge_as_the_pit_bosses_role_takes_an_open_alarm_once(pit, capsys):
    admin, pitboss = pit
    with open_store(admin, read_only=True) as store:
        (alarm,) = store.alarms()
    command = ["floor", "acknowledge", "--table", "T1", "--event", str(alarm.event_seq), "--store", pitboss]
    assert main([*command, "--by", "Marta"]) == 0
    assert main([*command, "--by", "Ana"]) == 1  # no overwriting
    assert "no open alarm" in capsys.readouterr().err
    assert main(["floor", "acknowledge", "--subject", "croupier.table.T66.events", "--by", "Ana",
                 "--store", pitboss]) == 0
    with open_store(admin, read_only=True) as store:
        assert [a.acknowledged_by for a in store.alarms()] == ["Marta"]
        assert [r.acknowledged_by for r in store.refusals()] == ["Ana"]


def test_the_view_on_the_read_only_role_offers_no_acknowledgement_whatever_its_options(pit, monkeypatch):
    from croupier.floor import view

    admin, _pitboss = pit
    reader = as_role(admin, "croupier_view")
    started = []
    monkeypatch.setattr(view.terminal, "run", lambda app: started.append(app) or 0)
    assert view.run_view(reader, reader) == 0  # `croupier floor view` on croupier_view, without --read-only
    assert started[0].writer_url is None and started[0].check_action("acknowledge", ()) is False
