"""The floor side: one durable JetStream consumer over every table's events, into the store.

Each batch is checked link by link with the journal's own chain check, committed to the store,
and only then acknowledged: after a kill -9 the broker delivers again what was not acknowledged,
and the store recognises by (table, seq) what it already holds, so every event is stored exactly
once, in order. A row that does not follow the table's stored head raises an alarm naming the
table and the event; nothing after it is stored for that table. Every `anchor_every_s` a table
whose new events are stored gets an anchor receipt (seq, hash, time) on its anchor subject.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field

from croupier.floor.chain import check_links
from croupier.floor.store import FloorStore, now_text
from croupier.floor.wire import (ALIVE_SUBJECTS, EVENTS_STREAM, EVENTS_SUBJECTS, RETRY_S, Anchor, Link, WireError,
                                 anchor_subject, close_quietly, connect, ensure_streams, table_of)
from croupier.sdnotify import Notifier
from croupier.table.events import FloorAnchored

log = logging.getLogger(__name__)

DURABLE = "croupier-floor"
BATCH = 500
ANCHOR_EVERY_S = 60.0
ACK_WAIT_S = 10  # a message delivered to an ingester that died comes again after this long
WAIT_S = 1.0  # a message that came before its predecessor is offered again after this long
STORE_RETRY_S = (1, 2, 5, 10)  # waits between attempts to open a store that did not answer


@dataclass
class _Table:
    head: tuple[int, str]
    anchored: int = 0
    anchored_at: float = 0.0
    new_events: bool = False  # events other than anchors stored since the last anchor


@dataclass(frozen=True)
class Outcome:
    """What became of a fetched batch: ids of the messages to offer again (they came before their
    predecessor) and to terminate (they can never be stored); every other one is acknowledged."""

    waiting: frozenset[int] = frozenset()
    poison: frozenset[int] = frozenset()


@dataclass
class Ingester:
    store: FloorStore
    servers: list[str]
    anchor_every_s: float = ANCHOR_EVERY_S
    replicas: int | None = None  # cluster nodes keeping each stream (None: leave the streams as they are)
    stopping: bool = False
    stored: int = 0  # events stored by this process
    notifier: Notifier = field(default_factory=Notifier)
    _tables: dict[str, _Table] = field(default_factory=dict)
    _stop: asyncio.Event | None = None

    def stop(self) -> None:
        """End `run` soon: from the loop's thread (a signal handler, a test)."""
        self.stopping = True
        if self._stop is not None:
            self._stop.set()

    async def _sleep(self, seconds: float) -> None:
        self.notifier.ping()
        try:
            await asyncio.wait_for(self._stop.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def run(self) -> None:
        """Ingest until `stopping`; the broker and the store coming and going are waited for."""
        self._stop = asyncio.Event()
        if self.stopping:
            self._stop.set()
        self.notifier.ready("ingesting")
        attempt = 0
        while not self.stopping:
            try:
                await self._session()
                attempt = 0
            except self.store.failures as exc:
                await self._store_unavailable(exc)
                continue
            except Exception as exc:
                self.notifier.status("broker unreachable")
                log.warning("floor ingester: broker unreachable or gone (%s: %s); retrying",
                            exc.__class__.__name__, exc)
            await self._sleep(RETRY_S[min(attempt, len(RETRY_S) - 1)])
            attempt += 1
        self.notifier.stopping()

    async def _store_unavailable(self, exc: BaseException) -> None:
        """Say so, then open the store again until it answers; what was not committed comes again."""
        log.error("floor ingester: store unavailable (%s); nothing is acknowledged until it answers",
                  " ".join(str(exc).split()) or exc.__class__.__name__)
        self.notifier.status("store unavailable")
        self._tables.clear()  # a commit cut short may or may not have happened: the store says
        attempt = 0
        while not self.stopping:
            await self._sleep(STORE_RETRY_S[min(attempt, len(STORE_RETRY_S) - 1)])
            try:
                self.store.reopen()
            except self.store.failures as again:
                attempt += 1
                if attempt % 10 == 0:
                    log.error("floor ingester: store still unavailable (%s)", " ".join(str(again).split()))
                continue
            log.info("floor ingester: the store answers again")
            self.notifier.status("ingesting")
            return

    async def _session(self) -> None:
        import nats
        from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

        nc = await connect(self.servers)
        try:
            js = nc.jetstream(timeout=5)
            await ensure_streams(js, self.replicas)
            config = ConsumerConfig(durable_name=DURABLE, ack_policy=AckPolicy.EXPLICIT,
                                    deliver_policy=DeliverPolicy.ALL, ack_wait=ACK_WAIT_S, max_ack_pending=20000,
                                    filter_subject=EVENTS_SUBJECTS)
            sub = await js.pull_subscribe(EVENTS_SUBJECTS, durable=DURABLE, stream=EVENTS_STREAM, config=config)
            await nc.subscribe(ALIVE_SUBJECTS, cb=self._heard)
            log.info("floor ingester connected to %s", ",".join(self.servers))
            while not self.stopping and nc.is_connected:
                self.notifier.ping()
                try:
                    msgs = await sub.fetch(BATCH, timeout=1)
                except nats.errors.TimeoutError:
                    msgs = []
                if msgs:
                    try:
                        outcome = self.ingest(msgs)
                    except self.store.failures:
                        for msg in msgs:  # offered again once the store answers
                            await msg.nak(delay=WAIT_S)
                        raise
                    for msg in msgs:
                        if id(msg) in outcome.poison:
                            await msg.term()  # it can never be stored: never offered again
                        elif id(msg) in outcome.waiting:
                            await msg.nak(delay=WAIT_S)
                        else:
                            await msg.ack()
                await self._anchor(js)
            if not nc.is_connected:
                raise ConnectionError("connection closed")
        finally:
            await close_quietly(nc)

    def _table(self, table_id: str) -> _Table:
        if table_id not in self._tables:
            record = self.store.table(table_id)
            head = self.store.head(table_id)
            self._tables[table_id] = _Table(head, anchored=(record.anchor_seq or 0) if record else 0)
        return self._tables[table_id]

    def ingest(self, msgs) -> Outcome:
        """Store the messages' events (committed before this returns); repeats are skipped."""
        by_table: dict[str, list[tuple[object, Link]]] = defaultdict(list)
        poison: set[int] = set()
        for msg in msgs:
            try:
                table_id = table_of(msg.subject)
                by_table[table_id].append((msg, Link.decode(msg.data)))
            except WireError as exc:
                log.warning("floor ingester: message on %s terminated: %s", msg.subject, exc)
                poison.add(id(msg))
        received = now_text()
        waiting: set[int] = set()
        for table_id, received_links in by_table.items():
            table = self._table(table_id)
            fresh, cursor, held = [], table.head[0], False
            for msg, link in sorted(received_links, key=lambda pair: pair[1].seq):
                if link.seq <= cursor:
                    continue  # delivered again: already stored (or in this batch)
                if link.follows == cursor and not held:
                    fresh.append(link)
                    cursor = link.seq
                else:
                    held = True
                    waiting.add(id(msg))
            if not fresh:
                continue
            good, damaged = check_links(table_id, table.head, fresh,
                                        lambda digest, t=table_id: self.store.seq_of_hash(t, digest))
            if good:
                self.store.append(table_id, good, received, table.head)
                table.head = (good[-1].seq, good[-1].hash)
                table.new_events = table.new_events or any(l.kind != FloorAnchored.kind for l in good)
                self.stored += len(good)
            if damaged is not None:
                verdict = damaged.verdict
                if self.store.raise_alarm(table_id, verdict.bad_event or table.head[0] + 1, verdict.problem or ""):
                    log.error("floor alarm: table %s, %s", table_id, verdict.problem)
        return Outcome(frozenset(waiting), frozenset(poison))

    async def _anchor(self, js) -> None:
        now = time.monotonic()
        for table_id, table in self._tables.items():
            if not table.new_events or now - table.anchored_at < self.anchor_every_s:
                continue
            seq, digest = table.head
            anchor = Anchor(seq, digest, now_text())
            await js.publish(anchor_subject(table_id), anchor.encode())
            self.store.record_anchor(table_id, seq, digest, anchor.time)
            table.anchored, table.anchored_at, table.new_events = seq, now, False

    async def _heard(self, msg) -> None:
        try:
            self.store.heard(table_of(msg.subject), now_text())
        except Exception as exc:  # a heartbeat is a courtesy: never let it stop the ingester
            log.warning("floor ingester: heartbeat on %s not recorded: %s", msg.subject, exc)
