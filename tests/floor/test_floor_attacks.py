"""Someone else on the broker tries to write a table's record: a real nats-server, a headless table
on a simulated wheel, the ingester, and an intruder publishing from this process. Each attack is
refused (terminated, one alarm naming the subject), the table's own events all reach the floor, and
its copy ends equal to the table's `verify` head."""
from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest

from croupier.floor.store import open_store
from croupier.floor.wire import ANCHORS_STREAM, EVENTS_STREAM, Anchor, Link, anchor_subject, events_subject, message_id
from croupier.journal.signing import sign_event
from croupier.journal.store import Journal, event_hash
from croupier.journal.verify import verify
from croupier.wheel.simulator import WheelSimulator

from floor_kit import consumer_state, enrol_journal, start_ingester, start_table, stop, wait_for

pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor]'")
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

T = "T9"


@dataclass
class Floor:
    url: str
    store: str
    db: Path
    wheel: WheelSimulator

    def journal_rows(self) -> list[tuple[int, str]]:
        with Journal.open(self.db, read_only=True) as journal:
            return [(row.seq, row.hash) for row in journal.rows()]

    def stored(self, table_id: str = T) -> list[tuple[int, str]]:
        with open_store(self.store, read_only=True) as store:
            return [(link.seq, link.hash) for link in store.links(table_id)]

    def refusals(self):
        with open_store(self.store, read_only=True) as store:
            return store.refusals()

    def journal_head(self) -> int:
        rows = self.journal_rows()
        return rows[-1][0] if rows else 0


@contextlib.contextmanager
def a_floor(tmp_path, broker):
    """One enrolled table playing, the ingester storing; at the end the table's copy must equal its head."""
    store = str(tmp_path / "floor.db")
    db = tmp_path / T / "journal.db"
    db.parent.mkdir()
    enrol_journal(store, db, T)
    logs = [open(tmp_path / name, "wb") for name in ("table.log", "ingester.log")]
    wheel = WheelSimulator("cammegh-ss2", speed=25, seed=9, link_path=tmp_path / "wheel")
    table = start_table(db, wheel.start(), broker.url, T, logs[0])
    ingester = start_ingester(broker.url, store, logs[1])
    floor = Floor(broker.url, store, db, wheel)
    try:
        assert wait_for(lambda: db.exists() and floor.journal_head() >= 8, timeout=60), "the table played no game"
        assert wait_for(lambda: len(floor.stored()) >= 3, timeout=60), "the floor stored nothing"
        yield floor
        wheel.stop()
        assert wait_for(lambda: floor.stored() == floor.journal_rows(), timeout=40, every=0.5), \
            f"the floor holds {len(floor.stored())} events, the journal {floor.journal_head()}"
        assert stop(table) == 0
        assert wait_for(lambda: floor.stored() == floor.journal_rows(), timeout=20, every=0.5)
    finally:
        for proc in (table, ingester):
            stop(proc)
        wheel.stop()
        for log in logs:
            log.close()
    with Journal.open(db, read_only=True) as journal, open_store(store, read_only=True) as floor_store:
        verdict = verify(journal)
        assert verdict.intact, verdict.problem
        record = floor_store.table(T)
        assert (record.head_seq, record.head_hash) == verdict.head
        assert [a for a in floor_store.alarms() if a.kind == "chain"] == []  # nothing the intruder sent is the table's


def publish(url: str, subject: str, data: bytes, headers: dict | None = None, stream: str = EVENTS_STREAM) -> None:
    """The intruder: a JetStream publish from outside the floor's programs."""
    import nats

    async def send() -> None:
        nc = await nats.connect(url)
        try:
            await nc.jetstream().publish(subject, data, headers=headers, stream=stream)
        finally:
            await nc.close()

    asyncio.run(send())


def forged_result(floor: Floor) -> Link:
    """A result that follows the table's head in the chain, hashed right, signed by a key not the table's."""
    def results():
        with Journal.open(floor.db, read_only=True) as journal:
            return list(journal.records(["result-recorded"]))

    assert wait_for(results, timeout=60), "the table recorded no result"
    with Journal.open(floor.db, read_only=True) as journal:
        (seq, _record), = list(journal.records(["result-recorded"]))[-1:]
        row = next(r for r in journal.rows(seq - 1))
        head_seq, head_hash = journal.head
    record = json.loads(row.body)
    record["number"] = (record["number"] + 1) % 37
    body = json.dumps(record, separators=(",", ":"))
    seq = head_seq + 1
    digest = event_hash(head_hash, seq, row.time, row.kind, body.encode())
    return Link(seq, row.time, row.kind, body, head_hash, digest, "0" * 64, after=head_seq,
                sig=sign_event(Ed25519PrivateKey.generate(), digest))


def refusal(floor: Floor, reason: str, subject: str = events_subject(T)):
    return next((r for r in floor.refusals() if r.reason == reason and r.subject == subject), None)


def test_a_chain_consistent_forged_result_is_refused_and_never_redelivered(tmp_path, broker):
    with a_floor(tmp_path, broker) as floor:
        forged = forged_result(floor)
        publish(floor.url, events_subject(T), forged.encode(), {"Nats-Msg-Id": message_id(T, forged.seq, forged.hash)})
        assert wait_for(lambda: refusal(floor, "bad signature"), timeout=10), floor.refusals()
        assert forged.hash not in {digest for _, digest in floor.stored()}
        info = consumer_state(floor.url)
        assert info.num_redelivered == 0  # terminated, not offered again
    (alarm,) = floor.refusals()
    assert alarm.messages == 1 and alarm.subject == events_subject(T)
    assert f"event {forged.seq} is not signed by the key enrolled for table {T}" in alarm.detail


def test_a_made_up_table_gets_no_tile_and_one_alarm(tmp_path, broker):
    with a_floor(tmp_path, broker) as floor:
        key = Ed25519PrivateKey.generate()
        for seq in (1, 2, 3):
            digest = event_hash("0" * 64, seq, "2026-01-01T00:00:00+00:00", "table-opened", b"{}")
            link = Link(seq, "2026-01-01T00:00:00+00:00", "table-opened", "{}", "0" * 64, digest, "", sig=sign_event(key, digest))
            publish(floor.url, events_subject("T66"), link.encode(), {"Nats-Msg-Id": message_id("T66", seq, digest)})
        assert wait_for(lambda: (found := refusal(floor, "unknown table", events_subject("T66"))) and found.messages == 3,
                        timeout=10), floor.refusals()
        with open_store(floor.store, read_only=True) as store:
            assert [t.table_id for t in store.tables()] == [T]
    assert len(floor.refusals()) == 1


def test_ids_published_before_the_table_do_not_make_the_broker_drop_its_events(tmp_path, broker):
    with a_floor(tmp_path, broker) as floor:
        ahead = floor.journal_head() + 3
        for seq in range(ahead, ahead + 5):  # T9:<seq> as the ids were before they carried the hash
            publish(floor.url, events_subject(T), b'{"seq":%d}' % seq, {"Nats-Msg-Id": f"{T}:{seq}"})
        assert wait_for(lambda: refusal(floor, "malformed"), timeout=10), floor.refusals()
        assert wait_for(lambda: floor.journal_head() > ahead + 6, timeout=60)
    assert refusal(floor, "malformed").messages == 5


def test_a_message_without_an_id_does_not_stop_the_publisher(tmp_path, broker):
    with a_floor(tmp_path, broker) as floor:
        with Journal.open(floor.db, read_only=True) as journal:
            row = next(journal.rows(journal.head[0] - 1))
        link = Link(row.seq, row.time, row.kind, row.body, row.prev_hash, row.hash, row.mac, sig=row.sig)
        publish(floor.url, events_subject(T), link.encode())  # a genuine row replayed, its id left off
        assert wait_for(lambda: refusal(floor, "no message id"), timeout=10), floor.refusals()
        before = floor.journal_head()
        assert wait_for(lambda: floor.journal_head() > before + 3, timeout=60)
        assert wait_for(lambda: floor.stored()[-1][0] > before + 3, timeout=30), "the publisher stopped"


def test_a_forged_anchor_is_not_recorded_and_real_anchors_still_are(tmp_path, broker):
    with a_floor(tmp_path, broker) as floor:
        forged = Anchor(10**9, "f" * 64, datetime.now(timezone.utc).isoformat(), "00" * 64)

        def alarms() -> list[dict]:
            with Journal.open(floor.db, read_only=True) as journal:
                return [r for _, r in journal.records(["alarm-raised"]) if r["alarm_kind"] == "floor-receipt"]

        def forge() -> list[dict]:  # the floor's next receipt replaces it: the intruder keeps sending it
            publish(floor.url, anchor_subject(T), forged.encode(), stream=ANCHORS_STREAM)
            return alarms()

        assert wait_for(forge, timeout=30, every=0.1), "the forged receipt raised no alarm at the table"
        raised_at = floor.journal_head()

        def anchors_after() -> list[dict]:
            with Journal.open(floor.db, read_only=True) as journal:
                return [r for seq, r in journal.records(["floor-anchored"]) if seq > raised_at]

        assert wait_for(anchors_after, timeout=40), "no real anchor was recorded after the forged one"
    with Journal.open(floor.db, read_only=True) as journal:
        anchored = [r["seq"] for _, r in journal.records(["floor-anchored"])]
        hashes = dict(floor.journal_rows())
        assert 10**9 not in anchored and all(seq in hashes for seq in anchored)
        (alarm,) = [r for _, r in journal.records(["alarm-raised"]) if r["alarm_kind"] == "floor-receipt"]
    assert "not signed by the floor's key" in alarm["detail"]


def test_a_forgery_delivered_again_after_its_refusal_was_committed_is_counted_once(tmp_path, broker):
    """The ingester dies after the commit and before its `term` reaches the broker: the broker offers
    the message again, and the refusal, noted by its stream sequence, is not counted twice."""
    import nats

    from croupier.floor.ingester import Ingester
    from croupier.floor.wire import EVENTS_SUBJECTS, ensure_streams

    store_url = str(tmp_path / "floor.db")
    forged = Link(1, "2026-01-01T00:00:00+00:00", "table-opened", "{}", "0" * 64, "a" * 64, "0" * 64, sig="00" * 64)

    async def streams() -> None:
        nc = await nats.connect(broker.url)
        try:
            await ensure_streams(nc.jetstream())
        finally:
            await nc.close()

    async def refuse_without_term(count: int) -> list[int]:
        """A fresh ingester takes `count` messages, commits their refusals and dies before it terminates them."""
        nc = await nats.connect(broker.url)
        try:
            sub = await nc.jetstream().pull_subscribe(EVENTS_SUBJECTS, durable="redelivered", stream=EVENTS_STREAM)
            msgs = await sub.fetch(count, timeout=5)
            with open_store(store_url) as store:
                outcome = Ingester(store, [broker.url]).ingest(msgs)
            assert {id(msg) for msg in msgs} == set(outcome.poison)
            for msg in msgs:
                await msg.nak()  # what the broker does once the message's ack wait ends without a word
            return [msg.metadata.sequence.stream for msg in msgs]
        finally:
            await nc.close()

    asyncio.run(streams())
    publish(broker.url, events_subject("T66"), forged.encode(), {"Nats-Msg-Id": message_id("T66", 1, forged.hash)})
    first = asyncio.run(refuse_without_term(1))
    again = asyncio.run(refuse_without_term(1))
    assert first == again  # the same message, delivered again
    with open_store(store_url, read_only=True) as store:
        (alarm,) = store.refusals()
    assert (alarm.subject, alarm.reason, alarm.messages) == (events_subject("T66"), "unknown table", 1)
    publish(broker.url, events_subject("T66"), forged.encode(), {"Nats-Msg-Id": message_id("T66", 2, "b" * 64)})
    asyncio.run(refuse_without_term(2))  # the first again, and a second forgery: only the second counts
    with open_store(store_url, read_only=True) as store:
        (alarm,) = store.refusals()
    assert alarm.messages == 2


def test_a_flood_of_refused_messages_leaves_one_counted_alarm_and_no_row_each(tmp_path, broker):
    """Thousands of forged messages on a made-up table's subject: each is refused and counted on the
    one alarm naming the subject and why; what the store notes of each message to count it once is
    forgotten once the consumer will never offer it again, so a flood does not grow the store."""
    import nats

    from croupier.floor.wire import ensure_streams

    flood = 2000
    store_url = str(tmp_path / "floor.db")
    open_store(store_url).close()
    forged = Link(1, "2026-01-01T00:00:00+00:00", "table-opened", "{}", "0" * 64, "a" * 64, "0" * 64, sig="00" * 64)

    async def send() -> None:
        nc = await nats.connect(broker.url)
        try:
            js = nc.jetstream()
            await ensure_streams(js)
            for n in range(1, flood + 1):
                await js.publish(events_subject("T66"), forged.encode(),
                                 headers={"Nats-Msg-Id": message_id("T66", n, f"{n:064x}")})
        finally:
            await nc.close()

    asyncio.run(send())
    with open(tmp_path / "ingester.log", "wb") as log:
        ingester = start_ingester(broker.url, store_url, log)
        try:
            def counted():
                with open_store(store_url, read_only=True) as store:
                    return store.refusals()
            assert wait_for(lambda: sum(r.messages for r in counted()) == flood, timeout=60), counted()

            def noted() -> int:
                with open_store(store_url, read_only=True) as store:
                    return store._execute("SELECT count(*) FROM floor_refused").fetchone()[0]
            assert wait_for(lambda: noted() == 0, timeout=30), f"{noted()} refused messages still noted one by one"
        finally:
            assert stop(ingester) == 0
    (alarm,) = counted()
    assert (alarm.subject, alarm.reason, alarm.messages) == (events_subject("T66"), "unknown table", flood)
    assert "T66" in alarm.detail


def test_a_flood_over_many_made_up_tables_keeps_the_store_bounded_and_the_table_stored(tmp_path, broker):
    """Forged messages, each on a made-up table's subject of its own, while the table plays: every one
    is refused and counted, the first subjects on alarms of their own, the rest on one alarm naming a
    few of them; the store holds a bounded number of rows, and the table's events go on being stored."""
    import nats

    from croupier.floor.store import EXAMPLES, EXAMPLES_APART, OTHER_SUBJECTS, SUBJECTS_APART

    flood = 3000
    forged = Link(1, "2026-01-01T00:00:00+00:00", "table-opened", "{}", "0" * 64, "a" * 64, "0" * 64, sig="00" * 64)

    async def send(url: str) -> None:
        nc = await nats.connect(url)
        try:
            js = nc.jetstream()
            for n in range(flood):
                table = f"X{n}"
                await js.publish(events_subject(table), forged.encode(),
                                 headers={"Nats-Msg-Id": message_id(table, 1, forged.hash)})
        finally:
            await nc.close()

    with a_floor(tmp_path, broker) as floor:
        head = floor.journal_head()
        asyncio.run(send(floor.url))

        def unknown():
            return [r for r in floor.refusals() if r.reason == "unknown table"]
        assert wait_for(lambda: sum(r.messages for r in unknown()) == flood, timeout=120), unknown()
        assert wait_for(lambda: len(floor.stored()) >= head, timeout=60), "the table was not stored meanwhile"
    refusals = unknown()
    assert len(refusals) == SUBJECTS_APART + 1 == len(floor.refusals())
    (others,) = [r for r in refusals if r.subject == OTHER_SUBJECTS]
    assert others.messages == flood - SUBJECTS_APART
    named = others.detail.split(EXAMPLES_APART)
    assert len(named) == EXAMPLES and all(subject.startswith("croupier.table.X") for subject in named)
    with open_store(floor.store, read_only=True) as store:
        assert [t.table_id for t in store.tables()] == [T]
