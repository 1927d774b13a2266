"""One table never stalls another, against a real nats-server: a flood for a table whose first event
never comes, a table whose chain broke (quarantined until a pit boss resumes it), two ingesters on one
store; and every stall shows in `floor status` within 10 s, as lag behind the stream."""
from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pytest

from croupier.cli import main
from croupier.floor.store import open_store
from croupier.floor.enrolment import enrol
from croupier.floor.wire import Link
from croupier.journal.signing import Ed25519PrivateKey, sign_event

from floor_kit import enrol_journal, floor_status, journal_links, log_text, publish, start_ingester, stop, wait_for

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import raw, write_shift  # noqa: E402


def head(url: str, table_id: str) -> int:
    try:
        with open_store(url, read_only=True) as store:
            return store.head(table_id)[0]
    except Exception:  # not made yet
        return -1


def status_of(url: str, table_id: str) -> dict:
    return next((t for t in floor_status(url)["tables"] if t["table"] == table_id), {})


@pytest.fixture
def t1(tmp_path):
    write_shift(tmp_path / "T1.db").close()
    return journal_links(tmp_path / "T1.db")


def flood(url: str, table_id: str, first: int, count: int) -> list[Link]:
    """An enrolled table's events from `first` on, signed with its key, its earlier ones never published."""
    key = Ed25519PrivateKey.generate()
    with open_store(url) as store:
        enrol(store, table_id, key.public_key())
    return [Link(seq, "2026-01-01T00:00:00+00:00", "result-recorded", "{}", f"{seq - 1:064x}", f"{seq:064x}", "",
                 sig=sign_event(key, f"{seq:064x}")) for seq in range(first, first + count)]


def test_25000_messages_waiting_for_their_first_event_never_hold_up_a_healthy_table(tmp_path, broker, t1):
    url = str(tmp_path / "floor.db")
    log_path = tmp_path / "ingester.log"
    enrol_journal(url, tmp_path / "T1.db", "T1")
    t9 = flood(url, "T9", 2, 25_000)
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, url, log)
        try:
            publish(broker.url, "T9", t9, unconfirmed=True)
            half = len(t1) // 2
            publish(broker.url, "T1", t1[:half])
            assert wait_for(lambda: head(url, "T1") == half, timeout=30), log_text(log_path)
            publish(broker.url, "T1", t1[half:])
            assert wait_for(lambda: head(url, "T1") == len(t1), timeout=30), log_text(log_path)
            # The gap shows, as lag behind the stream; nothing of T9 is offered again and again.
            assert wait_for(lambda: status_of(url, "T9").get("behind") == 25_001, timeout=30), floor_status(url)
            assert wait_for(lambda: floor_status(url)["ingester"]["pending"] == 0, timeout=10), floor_status(url)
            status = floor_status(url)
            assert not status["ingester"]["stalled"]
            assert head(url, "T9") == 0 and status_of(url, "T1")["behind"] == 0
            assert wait_for(lambda: "waits for event 1" in log_text(log_path), timeout=20), log_text(log_path)
            assert ingester.poll() is None
        finally:
            assert stop(ingester) == 0
    with open_store(url, read_only=True) as store:
        assert store.alarms() == [] and [link.seq for link in store.links("T1")] == [link.seq for link in t1]


def test_a_broken_chain_quarantines_its_table_until_a_pit_boss_resumes_it(tmp_path, broker, t1, capsys):
    write_shift(tmp_path / "T2.db").close()
    with raw(tmp_path / "T2.db") as conn:
        conn.execute("UPDATE events SET body = replace(body, 'Ana', 'Rui') WHERE seq = 4")
    t2 = journal_links(tmp_path / "T2.db")
    url = str(tmp_path / "floor.db")
    log_path = tmp_path / "ingester.log"
    enrol_journal(url, tmp_path / "T1.db", "T1")
    enrol_journal(url, tmp_path / "T2.db", "T2")
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, url, log)
        try:
            publish(broker.url, "T2", t2)
            publish(broker.url, "T1", t1)
            assert wait_for(lambda: head(url, "T1") == len(t1), timeout=30), log_text(log_path)
            assert wait_for(lambda: status_of(url, "T2").get("quarantined"), timeout=10)
            t2_status = status_of(url, "T2")
            assert (t2_status["last_seq"], t2_status["first_bad_event"]) == (3, 4)
            assert wait_for(lambda: status_of(url, "T2").get("behind") == len(t2) - 3, timeout=10)
            assert floor_status(url)["ingester"]["pending"] == 0  # acknowledged: kept in the stream, not redelivered
            assert main(["floor", "resume", "--table", "T2", "--by", "Boss", "--store", url]) == 0
            assert "resumed by Boss" in capsys.readouterr().out
            # Read again from the stream after event 3: still broken, so quarantined again, one alarm.
            assert wait_for(lambda: "table T2 resumed" in log_text(log_path), timeout=10)
            assert wait_for(lambda: status_of(url, "T2").get("quarantined"), timeout=20)
            assert main(["floor", "resume", "--table", "T1", "--by", "Boss", "--store", url]) == 1
        finally:
            assert stop(ingester) == 0
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
        assert (alarm.table_id, alarm.event_seq, alarm.resumed_by) == ("T2", 4, "Boss")
        assert store.head("T2")[0] == 3


def test_two_ingesters_on_one_store_one_stores_the_other_stands_by_and_takes_over(tmp_path, broker, t1):
    url = str(tmp_path / "floor.db")
    logs = [tmp_path / "ingester-1.log", tmp_path / "ingester-2.log"]
    enrol_journal(url, tmp_path / "T1.db", "T1")
    with open(logs[0], "wb") as log1, open(logs[1], "wb") as log2:
        first = start_ingester(broker.url, url, log1)
        assert wait_for(lambda: floor_status(url)["ingester"]["state"] == "storing" if Path(url).exists() else False,
                        timeout=30)
        second = start_ingester(broker.url, url, log2)
        try:
            publish(broker.url, "T1", t1[:20])
            assert wait_for(lambda: head(url, "T1") == 20, timeout=30)
            assert wait_for(lambda: "standing by" in log_text(logs[1]), timeout=10), log_text(logs[1])
            # The active one stops dead (a frozen machine): its word stops, which shows within 10 s...
            first.send_signal(signal.SIGSTOP)
            stalled_at = time.monotonic()
            assert wait_for(lambda: floor_status(url)["ingester"]["stalled"], timeout=10)
            assert time.monotonic() - stalled_at < 10
            # ...and the other takes over once the lease lapses, storing what comes.
            publish(broker.url, "T1", t1[20:])
            assert wait_for(lambda: head(url, "T1") == len(t1), timeout=60), log_text(logs[1])
            assert not floor_status(url)["ingester"]["stalled"]
            # The frozen one comes back: it finds the lease taken and stands by, writing nothing.
            first.send_signal(signal.SIGCONT)
            assert wait_for(lambda: "standing by" in log_text(logs[0]), timeout=30), log_text(logs[0])
        finally:
            first.send_signal(signal.SIGCONT)
            codes = (stop(first), stop(second))  # both stopped before either is judged
    assert codes == (0, 0)
    with open_store(url, read_only=True) as store:
        assert [link.seq for link in store.links("T1")] == [link.seq for link in t1]
        assert store.alarms() == []


def test_the_ingester_tells_systemd_it_is_ready_and_pings_its_watchdog(tmp_path, broker):
    import socket

    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener, open(tmp_path / "ingester.log", "wb") as log:
        listener.bind(address)
        listener.settimeout(10)
        ingester = start_ingester(broker.url, str(tmp_path / "floor.db"), log, NOTIFY_SOCKET=address,
                                  WATCHDOG_USEC="4000000")
        try:
            said = set()
            deadline = time.monotonic() + 20
            while not {"READY=1", "WATCHDOG=1"} <= said and time.monotonic() < deadline:
                said |= set(listener.recv(4096).decode().split("\n"))
            assert {"READY=1", "WATCHDOG=1", "STATUS=storing"} <= said, said
        finally:
            assert stop(ingester) == 0
