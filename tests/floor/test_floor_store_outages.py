"""The ingester through store failures, against a real nats-server: a PostgreSQL restart, an SQLite
write lock held by another process, SIGTERM while the store does not answer. It says "store
unavailable", takes nothing it has not committed as done, and stores everything once the store answers."""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from croupier.floor.store import open_store

from floor_kit import enrol_journal, floor_status, journal_links, log_text, publish, start_ingester, stop, wait_for

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import write_shift  # noqa: E402


@pytest.fixture
def links(tmp_path):
    write_shift(tmp_path / "T1.db").close()
    return journal_links(tmp_path / "T1.db")


def stored(url: str) -> int:
    try:
        with open_store(url, read_only=True) as store:
            return store.head("T1")[0]
    except Exception:  # not made yet, or restarting
        return -1


def test_a_failed_begin_releases_the_stores_own_lock(tmp_path):
    url = str(tmp_path / "floor.db")
    with open_store(url) as store:
        holder = sqlite3.connect(url, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writes
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            store.raise_alarm("T1", 3, "test")
        holder.execute("ROLLBACK")
        done = threading.Event()
        worker = threading.Thread(target=lambda: (store.raise_alarm("T1", 3, "test"), done.set()), daemon=True)
        worker.start()
        worker.join(10)
        assert done.is_set(), "the store's lock was kept by the transaction that never began"


def test_an_sqlite_write_lock_held_10_s_delays_the_ingester_and_sigterm_stops_it(tmp_path, broker, links):
    url = str(tmp_path / "floor.db")
    log_path = tmp_path / "ingester.log"
    enrol_journal(url, tmp_path / "T1.db", "T1")
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, url, log)
        try:
            publish(broker.url, "T1", links[:10])
            assert wait_for(lambda: stored(url) == 10, timeout=30), log_text(log_path)
            holder = sqlite3.connect(url, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            held_at = time.monotonic()
            publish(broker.url, "T1", links[10:20])
            # The stall shows within 10 s: the ingester's word stops.
            assert wait_for(lambda: floor_status(url)["ingester"]["stalled"], timeout=10)
            assert time.monotonic() - held_at < 10
            time.sleep(max(0.0, 10 - (time.monotonic() - held_at)))
            assert "store unavailable" in log_text(log_path)
            holder.execute("ROLLBACK")
            publish(broker.url, "T1", links[20:])
            assert wait_for(lambda: stored(url) == len(links), timeout=30), log_text(log_path)
            # Held again: SIGTERM still ends it, promptly.
            holder.execute("BEGIN IMMEDIATE")
            time.sleep(3)
            started = time.monotonic()
            ingester.send_signal(signal.SIGTERM)
            ingester.wait(15)
            assert time.monotonic() - started < 12
            holder.execute("ROLLBACK")
        finally:
            stop(ingester)
    with open_store(url, read_only=True) as store:
        assert [link.seq for link in store.links("T1")] == [link.seq for link in links]
        assert store.alarms() == []


def test_postgresql_restarting_mid_ingest(tmp_path, broker, postgres, links):
    log_path = tmp_path / "ingester.log"
    enrol_journal(postgres.url, tmp_path / "T1.db", "T1")
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, postgres.url, log, folder=tmp_path)
        try:
            publish(broker.url, "T1", links[:10])
            assert wait_for(lambda: stored(postgres.url) == 10, timeout=30), log_text(log_path)
            postgres.stop_server()
            publish(broker.url, "T1", links[10:20])
            assert wait_for(lambda: "store unavailable" in log_text(log_path), timeout=20)
            time.sleep(3)
            postgres.start_server()
            publish(broker.url, "T1", links[20:])
            assert wait_for(lambda: stored(postgres.url) == len(links), timeout=60), log_text(log_path)
            assert ingester.poll() is None
            assert stop(ingester) == 0
        finally:
            stop(ingester)
    with open_store(postgres.url, read_only=True) as store:
        assert [link.seq for link in store.links("T1")] == [link.seq for link in links]
        assert store.alarms() == []
