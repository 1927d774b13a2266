"""The PostgreSQL store as the casino's own tools read it: times are timestamptz, bodies jsonb, and
the documented views (README) answer through the read-only role, which can change nothing."""
from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import pytest

from croupier.floor.ingester import Ingester
from croupier.floor.store import open_store
from croupier.table.events import Role

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import NUMBERS, write_shift  # noqa: E402
from test_floor_store import enrolled, messages  # noqa: E402


@pytest.fixture
def analyst(postgres, tmp_path):
    """A store with a shift in it (a relief and a correction), and a connection as an analyst."""
    import psycopg

    with psycopg.connect(postgres.url, autocommit=True) as admin:  # what the database's administrator runs
        admin.execute("CREATE ROLE croupier_view NOLOGIN")
        admin.execute("CREATE ROLE analyst LOGIN IN ROLE croupier_view")
    session = write_shift(tmp_path / "T1.db")
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    session.relieve(role=Role.CROUPIER, incoming="Rui", pin="2222")
    session.correct_result(spin=2, number=3, reason="misread", by="Boss", pin="9000")
    session.close()
    with open_store(postgres.url) as store:
        Ingester(enrolled(store, tmp_path / "T1.db"), []).ingest(messages(tmp_path / "T1.db", "T1"))
        store.raise_alarm("T1", 99, "a test alarm")
        store.acknowledge_alarm("T1", 99, "Boss")
    with psycopg.connect(postgres.url.replace("floor@", "analyst@"), autocommit=True) as conn:
        yield conn


def test_times_are_timestamptz_and_bodies_jsonb(analyst):
    kinds = dict(analyst.execute("SELECT column_name, data_type FROM information_schema.columns "
                                 "WHERE table_name = 'floor_events'").fetchall())
    assert kinds["received"] == kinds["at"] == "timestamp with time zone" and kinds["data"] == "jsonb"
    assert kinds["body"] == "text"  # the signed text, exactly as hashed
    number, = analyst.execute("SELECT data->>'number' FROM floor_events WHERE kind = 'result-recorded' "
                              "ORDER BY seq LIMIT 1").fetchone()
    assert int(number) == NUMBERS[0]


def test_the_views_answer_an_analysts_first_questions(analyst):
    spins = analyst.execute("SELECT spin, recorded_number, corrected_number, corrected_by, correction_reason, number, "
                            "recorded_at FROM floor_spins WHERE table_id = 'T1' ORDER BY spin").fetchall()
    assert [s[0] for s in spins] == list(range(1, len(NUMBERS) + 1))
    assert spins[1][1:6] == (NUMBERS[1], 3, "Boss", "misread", 3)
    assert all(s[2] is None for s in spins if s[0] != 2) and isinstance(spins[0][6], datetime)
    (hour,) = analyst.execute("SELECT sum(spins), sum(corrected), sum(zeros) FROM floor_results_hourly "
                              "WHERE table_id = 'T1'").fetchall()
    assert hour == (len(NUMBERS), 1, NUMBERS.count(0) - 1)  # the zero was corrected to 3
    duty = analyst.execute("SELECT croupier, since, until FROM floor_croupier_duty WHERE table_id = 'T1' "
                           "ORDER BY since").fetchall()
    assert [d[0] for d in duty] == ["Ana", "Rui"] and duty[0][2] == duty[1][1] and duty[1][2] is None
    alarm = analyst.execute("SELECT problem, acknowledged_by, acknowledged, acknowledged_where, answer "
                            "FROM floor_alarm_log").fetchone()
    assert alarm[:2] == ("a test alarm", "Boss") and isinstance(alarm[2], datetime)
    assert alarm[3:] == ("floor", None)  # taken up on the floor; no event of the table's ended it


def test_the_read_only_role_changes_nothing(analyst):
    import psycopg

    for statement in ("DELETE FROM floor_events", "UPDATE floor_alarms SET acknowledged_by = 'x'",
                      "INSERT INTO floor_ingester (id, holder, lease_until) VALUES (2, 'x', 0)"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            analyst.execute(statement)


def test_the_floor_reads_its_typed_store_back_as_it_wrote_it(postgres, tmp_path):
    write_shift(tmp_path / "T1.db").close()
    with open_store(postgres.url) as store:
        Ingester(enrolled(store, tmp_path / "T1.db"), []).ingest(messages(tmp_path / "T1.db", "T1"))
    with open_store(postgres.url, read_only=True) as store:
        record = store.table("T1")
        assert datetime.fromisoformat(record.last_received).tzinfo is not None
        assert record.last_event_time.startswith(datetime.fromisoformat(record.last_event_time).date().isoformat())


def test_events_without_their_typed_copies_get_them_at_the_next_start_found_without_reading_every_event(
        postgres, tmp_path):
    write_shift(tmp_path / "T1.db").close()
    with open_store(postgres.url) as store:
        Ingester(enrolled(store, tmp_path / "T1.db"), []).ingest(messages(tmp_path / "T1.db", "T1"))
        store._execute("UPDATE floor_events SET data = NULL, at = NULL WHERE seq <= 5")  # as an older floor stored them
        store._conn.commit()
    with open_store(postgres.url) as store:
        untyped = store._execute("SELECT count(*) FROM floor_events WHERE data IS NULL OR at IS NULL").fetchone()[0]
        plan = " ".join(row[0] for row in store._execute(
            "EXPLAIN SELECT 1 FROM floor_events WHERE data IS NULL AND at IS NULL LIMIT 1").fetchall())
    assert untyped == 0
    assert "floor_events_untyped" in plan and "Seq Scan" not in plan, plan
