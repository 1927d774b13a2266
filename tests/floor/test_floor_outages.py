"""Three tables on simulated wheels publish to a real nats-server while the broker is stopped and
restarted, the ingester is killed with SIGKILL and a table is killed and restarted, games going on
throughout. Afterwards the floor holds each table's events exactly once, in order, chains intact,
its head equal to the table's own `verify` head, and each journal holds the floor's anchors.

The broker stays away for 30 s, games being recorded meanwhile, which the test checks: longer than
the publisher's and the ingester's retry waits, so each gives up several times and resumes from what
the stream holds."""
from __future__ import annotations

import signal
import time

from croupier.floor.broker import LocalBroker
from croupier.floor.check import compare
from croupier.floor.store import StoreError, open_store
from croupier.journal.store import Journal
from croupier.journal.verify import verify
from croupier.wheel.simulator import WheelSimulator

from floor_kit import enrol_journal, start_ingester, start_table, stop, wait_for

OUTAGE_S = 30.0
TABLES = ("T1", "T2", "T3")


def journal_rows(db) -> list[tuple[int, str]]:
    with Journal.open(db, read_only=True) as journal:
        return [(row.seq, row.hash) for row in journal.rows()]


def store_rows(url, table_id) -> list[tuple[int, str]]:
    with open_store(url, read_only=True) as store:
        return [(link.seq, link.hash) for link in store.links(table_id)]


def run_the_floor_through_outages(tmp_path, broker: LocalBroker, store_url: str) -> None:
    logs = {name: open(tmp_path / f"{name}.log", "wb") for name in (*TABLES, "ingester")}
    wheels = {t: WheelSimulator("cammegh-ss2", speed=25, seed=n, link_path=tmp_path / f"wheel-{t}")
              for n, t in enumerate(TABLES)}
    devices = {t: wheel.start() for t, wheel in wheels.items()}
    dbs = {t: tmp_path / t / "journal.db" for t in TABLES}
    for t in TABLES:
        dbs[t].parent.mkdir()
        enrol_journal(store_url, dbs[t], t)
    tables = {t: start_table(dbs[t], devices[t], broker.url, t, logs[t]) for t in TABLES}
    ingester = start_ingester(broker.url, store_url, logs["ingester"], folder=tmp_path)
    try:
        def recorded(t: str) -> int:
            return len(journal_rows(dbs[t])) if dbs[t].exists() else 0

        assert wait_for(lambda: all(recorded(t) >= 3 for t in TABLES), timeout=60), "the tables did not start"
        def stored(t: str) -> int:
            try:
                return len(store_rows(store_url, t))
            except StoreError:  # the ingester has not made the store yet
                return 0

        assert wait_for(lambda: all(stored(t) for t in TABLES), timeout=60), "the floor stored nothing"
        # The broker goes away while the tables play on.
        broker.stop()
        before = {t: recorded(t) for t in TABLES}
        time.sleep(OUTAGE_S)
        during = {t: recorded(t) for t in TABLES}
        assert all(during[t] > before[t] for t in TABLES), f"a table stopped recording with the floor down: {before} {during}"
        broker.start()
        time.sleep(3)
        # The ingester dies mid-stream, and comes back.
        stop(ingester, signal.SIGKILL)
        time.sleep(2)
        ingester = start_ingester(broker.url, store_url, logs["ingester"], folder=tmp_path)
        # A table dies and comes back on the same journal.
        stop(tables["T2"], signal.SIGKILL)
        time.sleep(1.5)
        killed_at = recorded("T2")
        tables["T2"] = start_table(dbs["T2"], devices["T2"], broker.url, "T2", logs["T2"])
        assert wait_for(lambda: recorded("T2") > killed_at + 2, timeout=60), "table T2 did not play on after its restart"
        # The wheels stop; the floor catches up and the last anchors reach the tables.
        for wheel in wheels.values():
            wheel.stop()

        def caught_up() -> bool:
            return all(store_rows(store_url, t) == journal_rows(dbs[t]) for t in TABLES)

        heads = lambda: {t: (len(journal_rows(dbs[t])), len(store_rows(store_url, t))) for t in TABLES}  # noqa: E731
        assert wait_for(caught_up, timeout=40, every=1.0), f"the floor did not catch up: (journal, floor) {heads()}"
        time.sleep(1)
        for t in TABLES:
            assert stop(tables[t]) == 0
        assert wait_for(caught_up, timeout=20, every=1.0)
    finally:
        for proc in (*tables.values(), ingester):
            stop(proc)
        for wheel in wheels.values():
            wheel.stop()
        for log in logs.values():
            log.close()

    with open_store(store_url, read_only=True) as store:
        assert [a for a in store.alarms() if a.kind == "chain"] == []  # the wheels stopping raise their own
        for t in TABLES:
            with Journal.open(dbs[t], read_only=True) as journal:
                verdict = verify(journal)
                assert verdict.intact, verdict.problem
                rows = journal_rows(dbs[t])
                stored = [link.seq for link in store.links(t)]
                assert stored == list(range(1, len(rows) + 1))  # once each, in order, none missing
                record = store.table(t)
                assert (record.head_seq, record.head_hash) == verdict.head
                assert record.broken_at is None
                anchors = list(journal.records(["floor-anchored"]))
                assert anchors, f"table {t} recorded no anchor"
                hashes = dict(rows)
                assert all(hashes[a["seq"]] == a["digest"] for _, a in anchors)  # each names an event the table holds
                assert compare(journal, store, t).matches
                results = [r["spin"] for _, r in journal.records(["result-recorded"])]
                assert results == list(range(1, len(results) + 1)) and len(results) >= 5


def test_three_tables_through_outages_on_the_embedded_store(tmp_path, broker):
    run_the_floor_through_outages(tmp_path, broker, str(tmp_path / "floor.db"))


def test_three_tables_through_outages_on_postgresql(tmp_path, broker, postgres):
    run_the_floor_through_outages(tmp_path, broker, postgres.url)
