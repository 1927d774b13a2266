"""The floor at scale, against a real nats-server and a real PostgreSQL: a batch holding a forgery
stores the rest at once; a store error in the middle of a batch acknowledges nothing and the batch
is stored when the store answers; each table's stored summary is the fold of its events, after
ingest and after the ingester restarts."""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from croupier.floor.store import open_store
from croupier.floor.summaries import RECENT, TileFacts, fold as summary_fold
from croupier.floor.wire import Link, events_subject, message_id
from croupier.history.spins import SPIN_EVENTS, counted_spins
from croupier.journal.signing import sign_event
from croupier.journal.store import Journal, event_hash
from croupier.journal.verify import verify
from croupier.rules.wheel import numbering
from croupier.stats.watch import watch
from croupier.table.alarms import wheel_fault
from croupier.table.events import EVENT_TYPES, Role, decode
from croupier.table.regulation import relief_interval
from croupier.table.state import Phase, fold

from floor_kit import consumer_state, enrol_journal, journal_links, log_text, publish, start_ingester, stop, wait_for

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import write_shift  # noqa: E402

pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor-server]'")


def a_day(db: Path, corrected: int = 2, **shift) -> None:
    """A shift with what a summary must follow: a relief, a correction, a table alarm, and more spins."""
    session = write_shift(db, **shift)
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    session.relieve(role=Role.CROUPIER, incoming="Rui", pin="2222")
    session.correct_result(spin=corrected, number=3, reason="misread", by="Boss", pin="9000")
    session.run(wheel_fault, detail="the wheel sensor went silent for 3 s")
    session.close()


def head(url: str, table_id: str = "T1") -> int:
    try:
        with open_store(url, read_only=True) as store:
            return store.head(table_id)[0]
    except Exception:  # not made yet, or restarting
        return -1


def assert_summary_is_the_fold(url: str, db: Path, table_id: str = "T1") -> None:
    """The stored summary equals the table's own fold of its journal, its counted spins and its watch."""
    with Journal.open(db, read_only=True) as journal:
        rows = list(journal.rows())
    state = fold(decode(row.body) for row in rows)
    spins = counted_spins([(row.seq, decode(row.body)) for row in rows if EVENT_TYPES.get(row.kind) in SPIN_EVENTS])
    with open_store(url, read_only=True) as store:
        seq, tile = store.tiles([table_id])[table_id]
        stored = [(link.seq, link.kind, link.body) for link in store.links(table_id)]
    facts = TileFacts.read(seq, tile)
    duty = state.on_duty.get(Role.CROUPIER)
    assert seq == rows[-1].seq
    assert (facts.open, facts.profile, facts.minimum, facts.croupier) == (
        state.phase is not Phase.CLOSED, state.profile, str(state.minimum), state.staff_on(Role.CROUPIER))
    assert facts.croupier == "Rui"
    assert facts.relief_due == duty.since + relief_interval(state, Role.CROUPIER)
    assert [s.number for s in facts.recent] == [s.number for s in spins][-RECENT:]
    assert 3 in [s.number for s in facts.recent]  # the correction counts
    assert facts.watch.charts() == watch([s.number for s in spins], numbering("french"))
    assert TileFacts.read(seq, summary_fold(stored).tile_text()) == facts


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "floor.db")
    return request.getfixturevalue("postgres").url


def test_the_summary_is_the_fold_of_the_events_after_ingest_and_after_a_restart(tmp_path, broker, store_url):
    a_day(tmp_path / "T1.db")
    links = journal_links(tmp_path / "T1.db")
    corrected = next(link.seq for link in links if link.kind == "result-corrected")
    enrol_journal(store_url, tmp_path / "T1.db", "T1")
    log_path = tmp_path / "ingester.log"
    with open(log_path, "wb") as log:
        publish(broker.url, "T1", links[:corrected - 3])
        ingester = start_ingester(broker.url, store_url, log, folder=tmp_path)
        try:
            assert wait_for(lambda: head(store_url) == corrected - 3, timeout=60), log_text(log_path)
            assert stop(ingester) == 0
            publish(broker.url, "T1", links[corrected - 3:])  # the relief, the correction, the alarm
            ingester = start_ingester(broker.url, store_url, log, folder=tmp_path)
            assert wait_for(lambda: head(store_url) == len(links), timeout=60), log_text(log_path)
        finally:
            stop(ingester)
    assert_summary_is_the_fold(store_url, tmp_path / "T1.db")
    with open_store(store_url, read_only=True) as store:
        assert [alarm.kind for alarm in store.alarms()] == ["wheel-fault"]  # recorded with its event


def test_a_summary_stored_without_its_base_is_counted_again_at_a_correction_each_result_once(tmp_path, postgres):
    """A correction the summary cannot count from its base (a summary stored before bases were kept)
    counts every result again from the store: in a batch of hundreds of events, each result once."""
    from croupier.floor.ingester import Ingester
    from test_floor_store import enrolled, messages

    a_day(tmp_path / "T1.db", corrected=55, numbers=[n % 37 for n in range(7, 7 + 60)])
    with open_store(postgres.url) as store:
        Ingester(enrolled(store, tmp_path / "T1.db"), []).ingest(messages(tmp_path / "T1.db", "T1", upto=20))
        store._execute("UPDATE floor_summaries SET base = 'null'")  # as stored before bases were kept
        rest = messages(tmp_path / "T1.db", "T1", after=20)
        assert len(rest) >= 256 and "result-corrected" in [json.loads(m.data)["kind"] for m in rest]
        Ingester(store, []).ingest(rest)
    assert_summary_is_the_fold(postgres.url, tmp_path / "T1.db")


def forged(links: list[Link], seq: int) -> Link:
    """Event `seq` made again with another number: hashed right, following its predecessor, signed by a
    key not the table's."""
    row = links[seq - 1]
    record = json.loads(row.body)
    record["number"] = (record["number"] + 1) % 37
    body = json.dumps(record, separators=(",", ":"))
    digest = event_hash(row.prev_hash, seq, row.time, row.kind, body.encode())
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Link(seq, row.time, row.kind, body, row.prev_hash, digest, "0" * 64,
                sig=sign_event(Ed25519PrivateKey.generate(), digest))


def test_a_forgery_in_the_middle_of_a_batch_is_terminated_alone_and_the_rest_stored(tmp_path, broker, postgres):
    write_shift(tmp_path / "T1.db").close()
    links = journal_links(tmp_path / "T1.db")
    middle = next(link.seq for link in links[len(links) // 2:] if link.kind == "result-recorded")
    forgery = forged(links, middle)
    enrol_journal(postgres.url, tmp_path / "T1.db", "T1")
    # One batch: the table's events, the forgery just before the genuine event it imitates.
    publish(broker.url, "T1", [*links[:middle - 1], forgery, *links[middle - 1:]])
    log_path = tmp_path / "ingester.log"
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, postgres.url, log, folder=tmp_path)
        try:
            assert wait_for(lambda: head(postgres.url) == len(links), timeout=60), log_text(log_path)
            assert wait_for(lambda: consumer_state(broker.url).num_ack_pending == 0, timeout=20)
        finally:
            stop(ingester)
    info = consumer_state(broker.url)
    assert info.num_pending == 0 and info.num_redelivered == 0  # terminated, never offered again
    assert "waits for event" not in log_text(log_path)  # nothing held up: stored in the one pass
    with Journal.open(tmp_path / "T1.db", read_only=True) as journal, open_store(postgres.url, read_only=True) as store:
        verdict = verify(journal)
        assert (store.table("T1").head_seq, store.table("T1").head_hash) == verdict.head
        assert [(link.seq, link.hash) for link in store.links("T1")] == [(link.seq, link.hash) for link in links]
        (refusal,) = store.refusals()
        assert (refusal.subject, refusal.reason, refusal.messages) == (events_subject("T1"), "bad signature", 1)
        assert f"event {middle} is not signed by the key enrolled for table T1" in refusal.detail
        assert store.alarms() == []  # no chain alarm: the forgery never counted as the table's
    assert_no_forgery_in_summary(postgres.url, links)


def assert_no_forgery_in_summary(url: str, links: list[Link]) -> None:
    with open_store(url, read_only=True) as store:
        seq, tile = store.tiles(["T1"])["T1"]
    expected = summary_fold([(link.seq, link.kind, link.body) for link in links])
    assert TileFacts.read(seq, tile) == TileFacts.read(expected.seq, expected.tile_text())


def test_a_store_error_in_the_middle_of_a_batch_acknowledges_nothing_and_the_batch_is_stored_later(
        tmp_path, broker, postgres):
    import psycopg

    write_shift(tmp_path / "T1.db").close()
    links = journal_links(tmp_path / "T1.db")
    enrol_journal(postgres.url, tmp_path / "T1.db", "T1")
    middle = len(links) // 2
    with psycopg.connect(postgres.url, autocommit=True) as admin:  # the store fails on the middle event's row
        admin.execute("CREATE TABLE broken (seq BIGINT)")
        admin.execute(f"INSERT INTO broken VALUES ({middle})")
        admin.execute("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                      "IF EXISTS (SELECT 1 FROM broken WHERE seq = NEW.seq) THEN RAISE EXCEPTION 'disk failure'; "
                      "END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
        admin.execute("CREATE TRIGGER refuse BEFORE INSERT ON floor_events FOR EACH ROW EXECUTE FUNCTION refuse()")
    publish(broker.url, "T1", links)
    log_path = tmp_path / "ingester.log"
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, postgres.url, log, folder=tmp_path)
        try:
            assert wait_for(lambda: log_text(log_path).count("store unavailable") >= 2, timeout=60), \
                log_text(log_path)
            assert head(postgres.url) == 0  # the batch's transaction, rolled back whole
            assert consumer_state(broker.url).ack_floor.stream_seq == 0  # nothing acknowledged that was not committed
            with psycopg.connect(postgres.url, autocommit=True) as admin:
                admin.execute("DELETE FROM broken")
            # The same process stores it all: its transaction let go of its lock when the store failed.
            assert wait_for(lambda: head(postgres.url) == len(links), timeout=60), log_text(log_path)
            assert ingester.poll() is None
        finally:
            stop(ingester)
    assert "disk failure" in log_text(log_path)
    assert_no_forgery_in_summary(postgres.url, links)


def test_one_pass_over_a_batch_with_a_forgery_stores_every_genuine_event(tmp_path, postgres):
    from croupier.floor.ingester import Ingester
    from test_floor_store import Message, enrolled, messages

    write_shift(tmp_path / "T1.db").close()
    batch = messages(tmp_path / "T1.db", "T1")
    links = journal_links(tmp_path / "T1.db")
    middle = next(link.seq for link in links[len(links) // 2:] if link.kind == "result-recorded")
    forgery = forged(links, middle)
    intruder = Message(events_subject("T1"), forgery.encode(), {"Nats-Msg-Id": message_id("T1", middle, forgery.hash)})
    for at in (middle - 1, middle):  # before the genuine event, and after it
        with open_store(postgres.url) as store:
            store._execute("DELETE FROM floor_events")
            store._execute("DELETE FROM floor_tables")
            store._execute("DELETE FROM floor_summaries")
            store._execute("DELETE FROM floor_refusals")
            outcome = Ingester(enrolled(store, tmp_path / "T1.db"), []).ingest([*batch[:at], intruder, *batch[at:]])
            assert outcome.poison == {id(intruder)}  # terminated alone
            assert store.head("T1") == (links[-1].seq, links[-1].hash)  # the rest, stored in this one pass
            assert [r.reason for r in store.refusals()] == ["bad signature"]


def break_commits(url: str, seq: int) -> None:
    """The store fails the batch that holds event `seq`: PostgreSQL at COMMIT (a deferred trigger),
    SQLite on the event's row, after everything before it in the transaction was written."""
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"CREATE TABLE broken AS SELECT {seq}::BIGINT AS seq")
            admin.execute("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                          "IF EXISTS (SELECT 1 FROM broken WHERE seq = NEW.seq) THEN RAISE EXCEPTION 'disk failure'; "
                          "END IF; RETURN NULL; END $$ LANGUAGE plpgsql")
            admin.execute("CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON floor_events DEFERRABLE INITIALLY DEFERRED "
                          "FOR EACH ROW EXECUTE FUNCTION refuse()")
        return
    with sqlite3.connect(url, isolation_level=None) as admin:
        admin.execute(f"CREATE TABLE broken AS SELECT {seq} AS seq")
        admin.execute("CREATE TRIGGER refuse BEFORE INSERT ON floor_events "
                      "WHEN EXISTS (SELECT 1 FROM broken WHERE seq = NEW.seq) BEGIN SELECT RAISE(ABORT, 'disk failure'); END")


def mend_commits(url: str) -> None:
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("DELETE FROM broken")
        return
    with sqlite3.connect(url, isolation_level=None, timeout=30) as admin:
        admin.execute("DELETE FROM broken")


def test_a_forgery_in_a_batch_whose_commit_fails_is_counted_once_when_the_store_answers(tmp_path, broker, store_url):
    a_day(tmp_path / "T1.db")
    links = journal_links(tmp_path / "T1.db")
    middle = next(link.seq for link in links[len(links) // 2:] if link.kind == "result-recorded")
    enrol_journal(store_url, tmp_path / "T1.db", "T1")
    break_commits(store_url, links[-1].seq)
    publish(broker.url, "T1", [*links[:middle - 1], forged(links, middle), *links[middle - 1:]])
    log_path = tmp_path / "ingester.log"
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, store_url, log, folder=tmp_path)
        try:
            assert wait_for(lambda: log_text(log_path).count("store unavailable") >= 2, timeout=60), \
                log_text(log_path)
            with open_store(store_url, read_only=True) as store:  # nothing of the failed batches is left
                assert store.head("T1")[0] < middle - 1 and (store.refusals(), store.alarms()) == ([], [])
            assert consumer_state(broker.url).ack_floor.stream_seq < middle  # the forgery too is offered again
            mend_commits(store_url)
            assert wait_for(lambda: head(store_url) == len(links), timeout=60), log_text(log_path)
            assert wait_for(lambda: consumer_state(broker.url).num_ack_pending == 0, timeout=20)
            assert ingester.poll() is None
        finally:
            stop(ingester)
    assert consumer_state(broker.url).num_pending == 0  # the forgery terminated once its refusal was committed
    with Journal.open(tmp_path / "T1.db", read_only=True) as journal, open_store(store_url, read_only=True) as store:
        assert (store.table("T1").head_seq, store.table("T1").head_hash) == verify(journal).head
        assert [(link.seq, link.hash) for link in store.links("T1")] == [(link.seq, link.hash) for link in links]
        (refusal,) = store.refusals()
        assert (refusal.subject, refusal.reason, refusal.messages) == (events_subject("T1"), "bad signature", 1)
        assert [(alarm.kind, alarm.event_seq) for alarm in store.alarms()] == [
            ("wheel-fault", next(link.seq for link in links if link.kind == "alarm-raised"))]
    assert log_text(log_path).count("floor alarm: messages on") == 1


def test_a_correction_is_counted_from_the_stored_summary_without_reading_the_tables_results(tmp_path, monkeypatch):
    from croupier.floor.ingester import Ingester

    from test_floor_store import enrolled, messages

    db, url = tmp_path / "T1.db", str(tmp_path / "floor.db")
    a_day(db)
    corrected = next(link.seq for link in journal_links(db) if link.kind == "result-corrected")
    with open_store(url) as store:
        enrolled(store, db)
        Ingester(store, []).ingest(messages(db, "T1", upto=corrected - 1))
    with open_store(url) as store:  # another ingester, from the stored summary: a year of results is not read
        for reader in ("spin_events", "links"):
            monkeypatch.setattr(store, reader, lambda *args, name=reader: pytest.fail(f"{name} read"))
        Ingester(store, []).ingest(messages(db, "T1", after=corrected - 1))
    assert_summary_is_the_fold(url, db)


def test_a_batch_of_many_tables_costs_the_store_as_many_statements_as_one_of_few(tmp_path, store_url):
    """A floor's first batch brings hundreds of tables: what the store holds of each (its key, its
    record, its summary) and the alarms they raise are read and written a few statements for all of
    them, and each alarm is recorded once however often its event comes."""
    from croupier.floor.ingester import Ingester

    from test_floor_store import enrolled, messages

    for n in range(1, 7):
        a_day(tmp_path / f"T{n}.db")
    statements: list[str] = []

    def counted(store):
        for name in ("_execute", "_executemany"):
            method = getattr(store, name)
            setattr(store, name, lambda text, *args, method=method: statements.append(text) or method(text, *args))
        return store

    def first_batch(tables: range) -> list[str]:
        with open_store(store_url) as store:
            for n in tables:
                enrolled(store, tmp_path / f"T{n}.db", f"T{n}")
            batch = [m for n in tables for m in messages(tmp_path / f"T{n}.db", f"T{n}")]
            ingester = Ingester(counted(store), [])
            del statements[:]
            ingester.ingest(batch)
            first = statements[:]
            del statements[:]
            ingester.ingest(batch)  # delivered again: stored and raised once, a query a table
            assert len(statements) <= len(tables) + 2, statements
            assert [(a.table_id, a.kind) for a in store.alarms()] == [(f"T{n}", "wheel-fault") for n in tables]
        return first

    few = first_batch(range(1, 3))
    with open_store(store_url) as store:  # the same floor's store, emptied
        for name in ("floor_events", "floor_tables", "floor_summaries", "floor_alarms", "floor_keys"):
            store._execute(f"DELETE FROM {name}")
        store._conn.commit()
    assert len(first_batch(range(1, 7))) == len(few)
    for n in range(1, 7):
        assert_summary_is_the_fold(store_url, tmp_path / f"T{n}.db", f"T{n}")


def test_a_correction_counted_again_from_the_base_equals_a_count_of_every_result(tmp_path):
    numbers = [(7 * n + 3) % 37 for n in range(RECENT + 10)]
    session = write_shift(tmp_path / "T1.db", numbers=numbers)
    spin = session.state.recent[-5]
    session.correct_result(spin=spin.spin, number=(spin.number + 1) % 37, reason="misread", by="Boss", pin="9000")
    session.close()
    links = journal_links(tmp_path / "T1.db")
    summary = summary_fold([(link.seq, link.kind, link.body) for link in links])
    assert summary.base is not None and 0 < summary.base.spins < RECENT  # counted again from there, not from the first
    spins = counted_spins([(link.seq, decode(link.body)) for link in links if EVENT_TYPES.get(link.kind) in SPIN_EVENTS])
    assert [s.number for s in summary.recent] == [s.number for s in spins][-RECENT:]
    assert (spin.number + 1) % 37 in [s.number for s in summary.recent[-5:]]
    assert summary.watch.charts() == watch([s.number for s in spins], numbering("french"))


def test_a_backlog_of_many_batches_is_stored_whole_each_next_batch_fetched_in_parts_while_signatures_are_checked(
        tmp_path, broker, monkeypatch):
    import asyncio
    import threading

    from croupier.floor import gate, ingester as ingesting

    monkeypatch.setattr(ingesting, "BATCH", 7)  # every batch full: the next one is fetched ahead,
    monkeypatch.setattr(ingesting, "AHEAD_PART", 3)  # in parts, each part's signatures handed out as it comes
    monkeypatch.setattr(gate, "SHARED_FROM", 1)  # and each batch's signatures go to the other cores
    monkeypatch.setattr(gate, "CHUNK", 3)
    a_day(tmp_path / "T1.db")
    links = journal_links(tmp_path / "T1.db")
    middle = next(link.seq for link in links[len(links) // 2:] if link.kind == "result-recorded")
    store_url = str(tmp_path / "floor.db")
    enrol_journal(store_url, tmp_path / "T1.db", "T1")
    publish(broker.url, "T1", [*links[:middle - 1], forged(links, middle), *links[middle - 1:]])
    with open_store(store_url) as store:
        ingester = ingesting.Ingester(store, [broker.url])
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_until_complete, args=(ingester.run(),), daemon=True)
        thread.start()
        try:
            assert wait_for(lambda: head(store_url) == len(links), timeout=60)
            assert wait_for(lambda: consumer_state(broker.url).num_ack_pending == 0, timeout=20)
        finally:
            loop.call_soon_threadsafe(ingester.stop)
            thread.join(20)
    info = consumer_state(broker.url)
    assert (info.num_pending, info.num_redelivered) == (0, 0)
    with open_store(store_url, read_only=True) as store:
        assert [(link.seq, link.hash) for link in store.links("T1")] == [(link.seq, link.hash) for link in links]
        (refusal,) = store.refusals()
        assert (refusal.reason, refusal.messages) == ("bad signature", 1)
    assert_summary_is_the_fold(store_url, tmp_path / "T1.db")


@pytest.mark.parametrize("value", [{"watch": [[0.1, 1e-05, None, 2.5, 7]], "croupier": "Jo\u00e3o"},
                                   {"croupier": "\ud800"}])  # orjson refuses a lone surrogate
def test_a_summary_is_written_as_the_standard_json_reads_it_whatever_it_holds(value):
    from croupier.floor.summaries import compact

    assert json.loads(compact(value)) == value
