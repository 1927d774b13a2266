"""Several journal rows to a message: what a table sends while it catches up, and what the floor
makes of such a message, whole, cut short, forged or malformed."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from croupier.floor.ingester import Ingester
from croupier.floor.publisher import TablePublisher
from croupier.floor.store import open_store
from croupier.floor.wire import (BUNDLE_BYTES, MAX_LINKS, Link, WireError, bundled, events_subject, message_id)
from croupier.journal.store import Journal
from croupier.journal.verify import verify
from croupier.table.alarms import wheel_fault
from croupier.table.events import Role
from floor_kit import consumer_state, enrol_journal, journal_links, wait_for
from test_floor_scale import a_day, forged, head
from test_floor_store import Message, enrolled

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import write_shift  # noqa: E402

pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor-server]'")


def link(seq: int, body: str = "{}") -> Link:
    return Link(seq, "2026-01-01T00:00:00+00:00", "note", body, f"{seq - 1:064x}", f"{seq:064x}", "0" * 64,
                after=seq - 1, sig="ab" * 64)


@given(st.lists(st.integers(0, 3000), min_size=1, max_size=300))
@settings(max_examples=60, deadline=None)
def test_consecutive_links_go_in_messages_within_the_limits_and_read_back_in_order(sizes):
    links = [link(seq, json.dumps("x" * size)) for seq, size in enumerate(sizes, start=1)]
    messages = list(bundled(links))
    read = [Link.decode_all(payload) for _last, payload in messages]
    assert [row for rows in read for row in rows] == links
    for (last, payload), rows in zip(messages, read):
        assert last == rows[-1]  # the message id names it
        assert len(rows) <= MAX_LINKS
        assert len(rows) == 1 or len(payload) <= BUNDLE_BYTES
        assert (payload[:1] == b"[") == (len(rows) > 1)  # one row alone: as a table that is not behind sends it


@pytest.mark.parametrize("payload", [b"[]", b"[" + b",".join([link(1).encode()] * (MAX_LINKS + 1)) + b"]",
                                     b"[1]", b"[[]]", b'[{"seq": 1}]'])
def test_a_message_of_no_rows_too_many_or_not_rows_is_no_journal_row(payload):
    with pytest.raises(WireError, match="not a journal row"):
        Link.decode_all(payload)


@dataclass
class Delivery(Message):
    reply: str | None = None  # where the stream sequence comes from


def bundle(table_id: str, links: list[Link], stream_seq: int = 0) -> Delivery:
    """`links` in one message, as a list, delivered as stream message `stream_seq`."""
    payload = b"[" + b",".join(item.encode() for item in links) + b"]"
    reply = f"$JS.ACK.CROUPIER_EVENTS.croupier-floor.1.{stream_seq}.{stream_seq}.0.0" if stream_seq else None
    msg_id = message_id(table_id, links[-1].seq, links[-1].hash)
    return Delivery(events_subject(table_id), payload, {"Nats-Msg-Id": msg_id}, reply)


def test_a_forged_row_in_a_message_refuses_the_message_once_and_the_rows_before_it_are_stored(tmp_path):
    a_day(tmp_path / "T1.db")
    links = journal_links(tmp_path / "T1.db")
    middle = next(item.seq for item in links[10:] if item.kind == "result-recorded")
    rows = links[:middle - 1] + [replace(forged(links, middle), after=middle - 1)] + links[middle:middle + 5]
    assert len(rows) <= MAX_LINKS
    message = bundle("T1", rows, stream_seq=7)
    with open_store(str(tmp_path / "floor.db")) as store:
        ingester = Ingester(enrolled(store, tmp_path / "T1.db"), [])
        outcome = ingester.ingest([message])
        assert outcome.poison == {id(message)}
        assert store.head("T1") == (links[middle - 2].seq, links[middle - 2].hash)  # the rows before the forgery
        (refusal,) = store.refusals()
        assert (refusal.reason, refusal.messages) == ("bad signature", 1)  # the message, counted once
        # The table is read again from the message that holds the row after its head, not after it.
        assert store.table("T1").stream_seq == 6
        # The table's own rows, read again from there (or sent again), go in after it.
        ingester.ingest([bundle("T1", links[middle - 1:middle + 5], stream_seq=9)])
        assert store.head("T1") == (links[middle + 4].seq, links[middle + 4].hash)
        assert store.table("T1").stream_seq == 9


def test_a_table_behind_sends_many_rows_to_a_message_and_the_floor_stores_each_once(tmp_path, broker):
    import asyncio
    import threading

    db = tmp_path / "T1.db"
    session = write_shift(db)
    store_url = str(tmp_path / "floor.db")
    enrol_journal(store_url, db, "T1")

    def published() -> int:
        publisher = TablePublisher(db, "T1", broker.url, poll_s=0.1).start()
        try:
            assert wait_for(lambda: publisher.published == session.seq, timeout=30)
        finally:
            publisher.stop()
        return session.seq

    first = published()
    # More after a restart of the table: published from the stream's last message on.
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    session.relieve(role=Role.CROUPIER, incoming="Rui", pin="2222")
    session.run(wheel_fault, detail="the wheel sensor went silent for 3 s")
    total = published()
    session.close()
    assert total > first > 40
    with open_store(store_url) as store:
        ingester = Ingester(store, [broker.url])
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_until_complete, args=(ingester.run(),), daemon=True)
        thread.start()
        try:
            assert wait_for(lambda: head(store_url) == total, timeout=60)
            assert wait_for(lambda: consumer_state(broker.url).num_ack_pending == 0, timeout=20)
        finally:
            loop.call_soon_threadsafe(ingester.stop)
            thread.join(20)
    info = consumer_state(broker.url)
    assert info.delivered.stream_seq < total / 10  # a message for many rows
    assert (info.num_pending, info.num_redelivered) == (0, 0)
    with Journal.open(db, read_only=True) as journal, open_store(store_url, read_only=True) as store:
        assert (store.table("T1").head_seq, store.table("T1").head_hash) == verify(journal).head
        assert [item.seq for item in store.links("T1")] == list(range(1, total + 1))
        assert store.refusals() == [] and [alarm.kind for alarm in store.alarms()] == ["wheel-fault"]  # the table's


def test_a_message_delivered_again_or_overlapping_what_is_stored_adds_nothing_and_refuses_nothing(tmp_path):
    write_shift(tmp_path / "T1.db").close()
    links = journal_links(tmp_path / "T1.db")
    with open_store(str(tmp_path / "floor.db")) as store:
        ingester = Ingester(enrolled(store, tmp_path / "T1.db"), [])
        assert ingester.ingest([bundle("T1", links[:20], stream_seq=1)]).poison == set()
        replayed = [bundle("T1", links[:20], stream_seq=1), bundle("T1", links[10:30], stream_seq=2)]
        assert ingester.ingest(replayed).poison == set()
        assert [item.seq for item in store.links("T1")] == list(range(1, 31))  # each row once
        assert store.head("T1") == (links[29].seq, links[29].hash)
        assert store.refusals() == [] and store.alarms() == []
