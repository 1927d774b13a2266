"""The ingester's bookkeeping without a broker: what a redelivery, a gap or a forged row does to the
floor's copy (the same code `croupier floor serve` runs on each fetched batch), on both stores."""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from croupier.floor.check import compare
from croupier.floor.ingester import Ingester
from croupier.floor.status import floor_status
from croupier.floor.store import now_text, open_store
from croupier.floor.wire import Link, events_subject, message_id
from croupier.journal.signing import default_signing_key_path, fingerprint, public_pem, public_path, read_public_key
from croupier.journal.store import Journal

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import raw, recompute_chain, write_shift  # noqa: E402


@dataclass
class Message:
    subject: str
    data: bytes
    headers: dict | None = None


def published(table_id: str, row, after: int | None = None) -> Message:
    """A journal row as the table's publisher sends it."""
    link = Link(row.seq, row.time, row.kind, row.body, row.prev_hash, row.hash, row.mac, after=after, sig=row.sig or "")
    return Message(events_subject(table_id), link.encode(), {"Nats-Msg-Id": message_id(table_id, row.seq, row.hash)})


def messages(db: Path, table_id: str, after: int = 0, upto: int = 10**9) -> list[Message]:
    with Journal.open(db, read_only=True) as journal:
        return [published(table_id, r) for r in journal.rows(after) if r.seq <= upto]


def enrolled(store, db: Path, table_id: str = "T1"):
    """The store, with the key of the table whose journal is `db` enrolled (as `croupier floor enrol` does)."""
    key = read_public_key(public_path(default_signing_key_path(db)))
    store.enrol(table_id, public_pem(key).decode(), fingerprint(key))
    return store


def storing(store) -> None:
    """The store as a running ingester leaves it: the lease held, the word "storing" just written."""
    assert store.claim("test", 60) is None
    store.write_word("test", 60, "storing", 0, [], [])


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "floor.db")
    return request.getfixturevalue("postgres").url


@pytest.fixture
def journal_path(tmp_path):
    path = tmp_path / "T1.db"
    write_shift(path).close()
    return path


def test_events_delivered_again_or_out_of_step_are_stored_once_in_order(store_url, journal_path):
    with open_store(store_url) as store:
        ingester = Ingester(enrolled(store, journal_path), [])
        all_messages = messages(journal_path, "T1")
        ingester.ingest(all_messages[:10])
        ingester.ingest(all_messages[5:20])  # a redelivery after a crash between commit and acks
        # An ingester started again reads the head from the store, not from its memory.
        Ingester(enrolled(store, journal_path), []).ingest(all_messages)
        stored = [link.seq for link in store.links("T1")]
        with Journal.open(journal_path, read_only=True) as journal:
            assert stored == list(range(1, journal.head[0] + 1))
            assert store.head("T1") == journal.head
        assert store.alarms() == []


def test_events_delivered_before_their_predecessors_are_kept_for_a_read_again_without_an_alarm(store_url, journal_path):
    # A killed ingester's unacknowledged messages come back only after the acknowledgement wait,
    # while the next ones are delivered to its successor at once.
    all_messages = messages(journal_path, "T1")
    with open_store(store_url) as store:
        ingester = Ingester(enrolled(store, journal_path), [])
        assert ingester.ingest(all_messages[:5]).poison == set()
        later = all_messages[12:]
        assert ingester.ingest(later).poison == set()  # acknowledged, not stored: the stream keeps them
        assert store.head("T1")[0] == 5 and store.alarms() == []
        table = ingester._tables["T1"]
        assert table.read_wanted and table.seen == len(all_messages) and table.behind_since is not None
        # The table's own subject read again from the event after its head (what _read_table fetches):
        assert ingester.ingest(all_messages[5:]).poison == set()
        assert [link.seq for link in store.links("T1")] == list(range(1, len(all_messages) + 1))
        assert store.alarms() == [] and table.behind_since is None


def test_a_message_that_is_not_a_journal_row_is_terminated(store_url, journal_path):
    good = messages(journal_path, "T1")
    bad = [Message(events_subject("T1"), b"{not json"), Message("croupier.table.a.b.events", good[0].data)]
    with open_store(store_url) as store:
        outcome = Ingester(enrolled(store, journal_path), []).ingest(good[:3] + bad)
        assert outcome.poison == {id(m) for m in bad}
        assert store.head("T1")[0] == 3


def test_a_row_missing_from_the_journal_is_an_alarm_not_a_wait(store_url, journal_path):
    with raw(journal_path) as conn:
        conn.execute("DELETE FROM events WHERE seq = 7")
    # The publisher sends what the journal has: event 8 right after event 6.
    with Journal.open(journal_path, read_only=True) as journal:
        rows = list(journal.rows())
    sent = [published("T1", r, after=before) for r, before in zip(rows, [0] + [r.seq for r in rows])]
    with open_store(store_url) as store:
        assert Ingester(enrolled(store, journal_path), []).ingest(sent).poison == set()
        (alarm,) = store.alarms()
        assert alarm.event_seq == 7 and "missing" in alarm.problem
        assert store.head("T1")[0] == 6


def test_a_row_that_breaks_the_chain_raises_one_alarm_naming_table_and_event(store_url, journal_path):
    with raw(journal_path) as conn:
        conn.execute("UPDATE events SET body = replace(body, '\"number\":17', '\"number\":18') WHERE seq = ("
                     "SELECT min(seq) FROM events WHERE kind = 'result-recorded')")
        (bad,) = conn.execute("SELECT min(seq) FROM events WHERE kind = 'result-recorded'").fetchone()
    with open_store(store_url) as store:
        ingester = Ingester(enrolled(store, journal_path), [])
        ingester.ingest(messages(journal_path, "T1"))
        ingester.ingest(messages(journal_path, "T1"))  # delivered again: no second alarm
        assert [link.seq for link in store.links("T1")] == list(range(1, bad))  # nothing past the break
        (alarm,) = store.alarms()
        assert (alarm.table_id, alarm.event_seq) == ("T1", bad)
        assert f"event {bad}" in alarm.problem and "altered" in alarm.problem
        (table,) = floor_status(store)["tables"]
        assert (table["chain"], table["first_bad_event"], table["last_seq"]) == ("broken", bad, bad - 1)
        # Quarantined: what follows is not stored, not even a repaired copy, until a pit boss resumes it.
        assert ingester._tables["T1"].quarantined
        assert store.resume("T1", "Boss") == bad
        assert store.resume("T1", "Boss") is None  # not quarantined any more
        (alarm,) = store.alarms()
        assert alarm.resumed_by == "Boss" and alarm.resumed


def anchored_copy(store_url: str, journal_path: Path) -> None:
    with open_store(store_url) as store:
        Ingester(enrolled(store, journal_path), []).ingest(messages(journal_path, "T1"))
        seq, digest = store.head("T1")
        store.record_anchor("T1", seq, digest, "2026-01-01T00:00:00+00:00")


def test_the_journal_as_the_floor_anchored_it_matches(store_url, journal_path):
    anchored_copy(store_url, journal_path)
    with Journal.open(journal_path, read_only=True) as journal, open_store(store_url, read_only=True) as store:
        result = compare(journal, store, "T1")
    assert result.matches and result.compared == result.anchor_seq


def test_a_journal_cut_after_its_anchor_no_longer_matches_the_floor(store_url, journal_path):
    anchored_copy(store_url, journal_path)
    with raw(journal_path) as conn:
        (head,) = conn.execute("SELECT max(seq) FROM events").fetchone()
        conn.execute("DELETE FROM events WHERE seq > ?", (head - 5,))
        conn.execute("DELETE FROM snapshots")
        recompute_chain(conn, journal_path, head - 5)  # the head witness rewritten to the new end
    with Journal.open(journal_path, read_only=True) as journal, open_store(store_url, read_only=True) as store:
        result = compare(journal, store, "T1")
    assert not result.matches
    assert f"ends at event {head - 5}" in result.problem and f"anchored event {head}" in result.problem


def test_a_journal_rewritten_with_a_whole_new_chain_no_longer_matches_the_floor(store_url, journal_path):
    anchored_copy(store_url, journal_path)
    # Someone with the file changes a result and recomputes every hash after it: it checks alone.
    with raw(journal_path) as conn:
        (target,) = conn.execute("SELECT min(seq) FROM events WHERE kind = 'result-recorded'").fetchone()
        (body,) = conn.execute("SELECT body FROM events WHERE seq = ?", (target,)).fetchone()
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (body.replace('"number":17', '"number":18'), target))
        recompute_chain(conn, journal_path, target)
    with Journal.open(journal_path, read_only=True) as journal, open_store(store_url, read_only=True) as store:
        from croupier.journal.verify import check_chain

        assert check_chain(journal).intact  # the forgery checks by itself...
        result = compare(journal, store, "T1")
    assert not result.matches  # ...but not against the floor's copy
    assert f"event {target} of table T1 differs from the floor's copy" in result.problem


async def test_a_heartbeat_naming_a_new_table_while_anchors_go_out(store_url, journal_path):
    with open_store(store_url) as store:
        enrolled(store, journal_path, "T2")  # T2's heartbeat counts: it is enrolled
        ingester = Ingester(enrolled(store, journal_path), [], anchor_every_s=0)
        ingester.ingest(messages(journal_path, "T1"))

        class Broker:  # the heartbeat of a table not seen before arrives while the anchor is published
            async def publish(self, subject, data):
                await ingester._heard(Message("croupier.alive.T2", b"0"))

        await ingester._anchor(Broker())
        assert [a[0] for a in ingester._anchors] == ["T1"]
        ingester._write_word(None)  # the heartbeat reaches the table's record with the next word
        assert ingester._tables["T2"].heard is not None


async def test_an_ingester_that_stops_gives_its_lease_up(store_url):
    """An upgrade restarts the ingester: the new one stores at once, not after the lease lapses."""
    import asyncio

    with open_store(store_url) as store:
        ingester = Ingester(store, ["nats://127.0.0.1:1"])  # no broker: it holds the lease and retries
        running = asyncio.ensure_future(ingester.run())
        while ingester.state != "broker unreachable":
            await asyncio.sleep(0.1)
        assert store.claim("standby", 60) == ingester.holder
        ingester.stop()
        await asyncio.wait_for(running, 30)
        assert store.claim("next", 60) is None, "the lease is free"
        store.release("someone else")
        assert store.claim("third", 60) == "next", "only its holder gives a lease up"


def test_a_standby_whose_clock_is_ahead_does_not_take_a_live_lease(store_url, monkeypatch):
    """Two ingesters on two machines, or one whose clock jumped when time sync started: the lease is
    timed by the store's clock, so a standby an hour ahead still waits while the holder writes."""
    with open_store(store_url) as store:
        assert store.claim("active", 10) is None
        monkeypatch.setattr(time, "time", lambda: time.monotonic() + 1e9)  # the standby's clock, far ahead
        assert store.claim("standby", 10) == "active"
        store.write_word("active", 10, "storing", 0, [], [])
        assert store.claim("standby", 10) == "active"
        store.write_word("active", 0, "storing", 0, [], [])  # a lease that ends now: lapsed, by the store's clock
        assert store.claim("standby", 10) is None


def test_a_reader_whose_clock_is_off_sees_the_ingester_and_tables_as_the_store_does(store_url, monkeypatch):
    """A pit boss's laptop an hour ahead: every age is measured by the store's clock, so a live
    ingester is not "silent" and a table heard just now is online."""
    from croupier.floor import status, tiles
    from croupier.floor.store import TableUpdate, now_text

    class Ahead(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime.now(tz) + timedelta(hours=1)

    with open_store(store_url) as store:
        storing(store)
        store.write_word("test", 60, "storing", 0, [TableUpdate("T1", now_text(), 0, None)], [])
        monkeypatch.setattr(status, "datetime", Ahead)
        monkeypatch.setattr(tiles, "datetime", Ahead)
        said = floor_status(store)
        assert said["ingester"]["stalled"] is False and said["ingester"]["word_s_ago"] < 60, said["ingester"]
        [tile] = tiles.FloorProjection(store).picture().tiles
        assert tile.online, tile


def test_a_store_from_before_keeps_who_took_an_alarm_up_at_the_table_as_a_fact_not_a_name(store_url):
    """Older floors marked a name the table recorded with " (at the table)" after it; the store now
    keeps where as a column, and reading an older store turns its marked names into that column."""
    with open_store(store_url) as store:
        with store._transaction():
            for seq, by in ((5, "Ana (at the table)"), (6, "Marta"), (7, None)):
                store._execute("INSERT INTO floor_alarms (table_id, event_seq, problem, raised, acknowledged_by, "
                               "acknowledged, kind) VALUES ('T1', ?, 'p', ?, ?, ?, 'wheel-fault')",
                               (seq, now_text(), by, now_text() if by else None))
    with open_store(store_url) as store:  # the ingester's next start
        assert sorted((a.event_seq, a.acknowledged_by, a.acknowledged_at_table) for a in store.alarms()) == [
            (5, "Ana", True), (6, "Marta", False), (7, None, False)]
