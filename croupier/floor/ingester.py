"""The floor side: one durable JetStream consumer over every table's events, into the store.

Each message is first checked to be a table's own (croupier.floor.gate: the enrolled key's
signature, its message id, its size): one that is not is terminated, never delivered again, never
counted as the table's, and raises one alarm per subject and reason, counting the messages. Each
batch is checked link by link with the journal's own chain check, committed to the store (all its
tables, their alarms and the batch's refusals in one transaction: a commit that fails counts no
refusal, and the batch delivered again counts each once; a refusal is noted by its stream sequence,
so a message delivered again after the commit, its termination lost, is not counted again), and only
then acknowledged or terminated:
after a kill -9 the broker delivers again what was not acknowledged, and the store recognises by
(table, seq) what it already holds, so every event is stored exactly once, in order.

One table never holds up another, and no message is offered again and again:
- a message that can never be stored (not a table's subject, not a journal row) is terminated;
- a table whose chain breaks raises an alarm naming the table and the event and is quarantined:
  its messages are acknowledged and stay in the stream, nothing is stored for it until a pit boss
  runs `croupier floor resume`, and then it is read again from the stream after its last stored event;
- a message that comes before its predecessor (a redelivery that is late, or a predecessor that
  never comes) is acknowledged too, and the table is read again from the stream, on its own
  subject, from the event after its head: what is there is stored, a gap that stays is shown.
Only one ingester stores at a time: it holds a lease in the store, renewed every `WORD_S`; another
started on the same store stands by and takes over when the lease lapses. Every `WORD_S` the active
one writes its word (state, messages pending in the stream, each table's heartbeat and how far the
stream has delivered it) in one transaction: heartbeats and anchors never cost a commit each.
Every `anchor_every_s` a table whose new events are stored gets an anchor receipt (seq, hash, time),
signed with the floor's key. The alarms a table raises become floor alarms as their events are stored.
"""
from __future__ import annotations

import asyncio
import gc
import logging
import os
import socket
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, partial

from croupier.floor.alarms import table_alarms
from croupier.floor.chain import check_links
from croupier.floor.gate import Gate, Proving, RefusalReason, Refused
from croupier.floor.pull import Pull, stream_seq as stream_seq_of
from croupier.floor.store import (CHAIN, GENESIS, Alarm, Batch, FloorStore, LeaseLost, RefusedMessages, TableUpdate,
                                  now_text)
from croupier.floor.summaries import Summary, fold
from croupier.floor.wire import (ALIVE_SUBJECTS, EVENTS_STREAM, EVENTS_SUBJECTS, RETRY_S, STREAM_MAX_BYTES, Access,
                                 Anchor, Link, WireError, anchor_subject, close_quietly, connect, ensure_streams,
                                 events_subject, redacted, table_of)
from croupier.history.spins import SPIN_EVENTS
from croupier.journal.signing import Ed25519PrivateKey, sign_anchor
from croupier.sdnotify import Notifier
from croupier.table.events import EVENT_TYPES, FloorAnchored, decode

log = logging.getLogger(__name__)

DURABLE = "croupier-floor"
BATCH = 8000  # rows; two in flight (one fetched ahead) stay within the consumer's max_ack_pending
FIRST_BATCH = 500  # a backlog's first batch: small, so that the other cores begin checking signatures at once
AHEAD_PART = 2000  # the batch ahead is fetched and handed out this many rows at a time
ROWS_GUESS = 16.0  # rows a message is taken to hold before any is read (a table behind sends many in one)
READ_BATCH = 500  # messages a table's re-read takes at a time (each of up to MAX_LINKS rows)
ANCHOR_EVERY_S = 60.0
ACK_WAIT_S = 10  # a message delivered to an ingester that died comes again after this long
MAX_DELIVER = 20  # a message is offered at most this often (a store that stays away); the re-read catches up
WAIT_S = 1.0  # a message handed back while the store does not answer is offered again after this long
STORE_RETRY_S = (1, 2, 5, 10)  # waits between attempts to open a store that did not answer
WORD_S = 2.0  # how often the active ingester writes its word (and renews its lease)
LEASE_S = 10.0  # an ingester silent this long has lost the lease to another
READ_AGAIN_S = 5.0  # the least time between two re-reads of one table from the stream
HEARD_EVERY_S = 7.0  # a heartbeat is written when the one stored is older (tables beat every 5 s)
STREAM_KEEP_S = 7 * 86400.0  # committed events stay in the stream at least this long, then are purged
PURGE_EVERY_S = 3600.0
YOUNG_ROUND = 50_000  # objects made between two rounds of the garbage collector over the young ones


@dataclass
class _Table:
    head: tuple[int, str]
    stream_seq: int = 0  # the stream sequence of the head event (0: not known)
    anchored: int = 0
    anchored_at: float = 0.0
    new_events: bool = False  # events other than anchors stored since the last anchor
    quarantined: bool = False  # chain broken: nothing stored until a pit boss resumes the table
    seen: int = 0  # the last seq of this table the stream delivered
    seen_stream: int = 0  # and its stream sequence
    behind_since: str | None = None  # since when an event the stream delivered is not stored
    read_to: int = 0  # the stream sequence up to which the table was read again
    read_wanted: bool = False
    read_at: float = float("-inf")
    reported: int = -1  # the head at which the wait was last logged
    marks: list[tuple[float, int]] = field(default_factory=list)  # (when, stream sequence of the head committed)
    purged: int = 0  # the stream sequence up to which the table's committed events were purged
    heard: str | None = None  # the last heartbeat, not yet written
    heard_written: float = float("-inf")
    changed: bool = True  # something to write with the next word
    summary: Summary | None = None  # what the view shows of the table, as of its head (read with its record)


@dataclass(frozen=True)
class Outcome:
    """What became of a fetched batch: the ids of the messages to terminate (they can never be
    stored); every other one is acknowledged, stored or not (a table behind is read again)."""

    poison: frozenset[int] = frozenset()


@dataclass
class _Admitted:
    """A fetched batch with all but its signatures checked: each table's links (with their stream
    sequence and message), the messages refused, and the signatures the other cores are checking."""

    by_table: dict[str, list[tuple[Link, int, object]]] = field(default_factory=lambda: defaultdict(list))
    poison: set[int] = field(default_factory=set)
    refusals: dict[tuple[str, RefusalReason], list[int]] = field(default_factory=lambda: defaultdict(list))  # stream seqs
    details: dict[tuple[str, RefusalReason], str] = field(default_factory=dict)
    proving: Proving | None = None

    def refuse(self, refused: Refused, msg) -> None:
        if id(msg) in self.poison:  # a message of several rows is counted once
            return
        self.poison.add(id(msg))
        self.refusals[refused.subject, refused.reason].append(stream_seq_of(msg))
        self.details.setdefault((refused.subject, refused.reason), refused.detail)  # the first says most


@dataclass
class Ingester:
    store: FloorStore
    servers: list[str]
    signing_key: Ed25519PrivateKey | None = None  # the floor's key, which signs the anchors
    access: Access | None = None  # its own credentials and the casino's CA
    anchor_every_s: float = ANCHOR_EVERY_S
    replicas: int | None = None  # cluster nodes keeping each stream (None: leave the streams as they are)
    stream_keep_s: float = STREAM_KEEP_S
    purge_every_s: float = PURGE_EVERY_S
    stream_max_bytes: int = STREAM_MAX_BYTES
    settle_memory: bool = False  # a process of its own: its collector spared what start-up made (`_settle_memory`)
    stopping: bool = False
    stored: int = 0  # events stored by this process
    notifier: Notifier = field(default_factory=Notifier)
    holder: str | None = None  # this ingester's name on the lease (None: no lease, as in the tests)
    state: str = "starting"
    _tables: dict[str, _Table] = field(default_factory=dict)
    _anchors: list[tuple[str, int, str, str]] = field(default_factory=list)
    _beats: dict[str, str] = field(default_factory=dict)  # heartbeats heard since the last word
    _gate: Gate | None = None
    _rows_per_message: float = ROWS_GUESS  # as the last batch held them: batches are sized in rows

    @property
    def gate(self) -> Gate:
        """The check of every message against the enrolled keys (made on first use: the store may reopen)."""
        if self._gate is None:
            self._gate = Gate(lambda table_id: self.store.public_key(table_id),
                              public_keys_of=lambda table_ids: self.store.public_keys(table_ids))
        return self._gate
    _stop: asyncio.Event | None = None

    def stop(self) -> None:
        """End `run` soon: from the loop's thread (a signal handler, a test)."""
        self.stopping = True
        if self._stop is not None:
            self._stop.set()

    async def _sleep(self, seconds: float) -> None:
        self.notifier.ping()
        assert self._stop is not None, "run() makes it"
        try:
            await asyncio.wait_for(self._stop.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    def _say(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.notifier.status(state)

    async def run(self) -> None:
        """Ingest until `stopping`; the broker and the store coming and going are waited for."""
        self._stop = asyncio.Event()
        if self.stopping:
            self._stop.set()
        self.holder = self.holder or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.notifier.ready("starting")
        attempt = 0
        while not self.stopping:
            try:
                if not await self._hold_lease():
                    continue
                await self._session()
                attempt = 0
            except LeaseLost as exc:
                log.warning("floor ingester: %s; standing by", exc)
                self._tables.clear()
                continue
            except self.store.failures as exc:
                await self._store_unavailable(exc)
                continue
            except Exception as exc:
                self._say("broker unreachable")
                log.warning("floor ingester: broker unreachable or gone (%s: %s); retrying",
                            exc.__class__.__name__, exc)
                try:
                    self._write_word(None)
                except self.store.failures:
                    pass  # said when the store is next used
            await self._sleep(RETRY_S[min(attempt, len(RETRY_S) - 1)])
            attempt += 1
        try:
            self.store.release(self.holder)  # a restart (an upgrade) stores at once, not after LEASE_S
        except self.store.failures:
            pass  # the lease lapses by itself
        self.notifier.stopping()

    async def _hold_lease(self) -> bool:
        """True when this ingester holds the lease; otherwise it waits a while and says who does."""
        assert self.holder is not None, "run() names it"
        other = self.store.claim(self.holder, LEASE_S)
        if other is None:
            return True
        if self.state != "standing by":
            log.info("floor ingester: %s is the active ingester; standing by", other)
        self._say("standing by")
        self._tables.clear()
        await self._sleep(WORD_S)
        return False

    async def _store_unavailable(self, exc: BaseException) -> None:
        """Say so, then open the store again until it answers; what was not committed comes again."""
        log.error("floor ingester: store unavailable (%s); nothing is acknowledged until it answers",
                  " ".join(str(exc).split()) or exc.__class__.__name__)
        self._say("store unavailable")
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
            return

    async def _session(self) -> None:
        from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

        nc = await connect(self.servers, self.access)
        reader = pull = None
        try:
            js = nc.jetstream(timeout=5)
            await ensure_streams(js, self.replicas, owner=True, max_bytes=self.stream_max_bytes)
            config = ConsumerConfig(durable_name=DURABLE, ack_policy=AckPolicy.EXPLICIT,
                                    deliver_policy=DeliverPolicy.ALL, ack_wait=ACK_WAIT_S, max_ack_pending=20000,
                                    max_deliver=MAX_DELIVER, filter_subject=EVENTS_SUBJECTS)
            sub = await js.pull_subscribe(EVENTS_SUBJECTS, durable=DURABLE, stream=EVENTS_STREAM, config=config)
            pull = await Pull(nc, EVENTS_STREAM, DURABLE).start()
            await nc.subscribe(ALIVE_SUBJECTS, cb=self._heard)
            log.info("floor ingester connected to %s", redacted(",".join(self.servers)))
            self._say("storing")
            reader = asyncio.create_task(self._read_again(js))
            next_word, next_purge = 0.0, time.monotonic() + min(self.purge_every_s, self.stream_keep_s)
            msgs: list = []
            asked = 0  # messages asked for the batch in `msgs`
            admitted: _Admitted | None = None
            first = size = min(FIRST_BATCH, BATCH)  # rows
            if self.settle_memory:
                _settle_memory()
            while not self.stopping and nc.is_connected:
                self.notifier.ping()
                if reader.done():
                    reader.result()  # its failure is the session's
                if not msgs:
                    asked = self._messages(size)
                    msgs = await pull.fetch(asked, 1.0)
                ahead: list = []
                if msgs:
                    admitted = admitted or self._admit(msgs)
                    admitted_ahead = None
                    if len(msgs) >= asked:  # more waits: fetched and its signatures handed out while the
                        size = min(BATCH, size * 4)  # other cores check this batch's; batches grow to BATCH
                        asked = self._messages(size)
                        ahead, admitted_ahead = await self._fetch_ahead(pull, asked)
                    else:
                        size = first
                    try:
                        outcome = self._store(admitted)
                    except self.store.failures:
                        await nc.hand_back(msgs + ahead, delay=WAIT_S)  # offered again once the store answers
                        raise
                    await nc.acknowledge(msgs, terminate=outcome.poison)  # committed: one write for the batch
                    admitted = admitted_ahead
                msgs = ahead
                await self._anchor(js)
                if time.monotonic() >= next_word:
                    self._write_word(*await self._pending(sub))
                    self._resumed()
                    next_word = time.monotonic() + WORD_S
                if time.monotonic() >= next_purge:
                    await self._purge(js)
                    next_purge = time.monotonic() + self.purge_every_s
            if not nc.is_connected:
                raise ConnectionError("connection closed")
            await nc.hand_back(msgs)  # fetched ahead, stopped before storing them: offered again at once
        finally:
            if reader is not None:
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)
            if pull is not None:
                await pull.stop()
            await close_quietly(nc)

    async def _pending(self, sub) -> tuple[int | None, int | None]:
        """Messages in the stream the ingester has not yet taken, and the stream sequence up to which
        the consumer holds every message acknowledged or terminated (it never offers those again)."""
        try:
            info = await sub.consumer_info()
        except Exception:  # a word without the figures is better than none
            return None, None
        return info.num_pending + info.num_ack_pending, info.ack_floor.stream_seq if info.ack_floor else None

    def _table(self, table_id: str) -> _Table:
        if table_id not in self._tables:
            self._know([table_id])
        return self._tables[table_id]

    def _know(self, table_ids: Iterable[str]) -> None:
        """The tables not yet known as the store holds them, with their summaries: a few queries for
        all of them (a floor's first batch brings hundreds)."""
        new = [table_id for table_id in dict.fromkeys(table_ids) if table_id not in self._tables]
        if not new:
            return
        records = {record.table_id: record for record in self.store.tables(new)}
        summaries = self.store.summaries(list(records))
        for table_id in new:
            record = records.get(table_id)
            if record is None:  # none of its events is stored
                self._tables[table_id] = _Table((0, GENESIS))
                continue
            behind = (record.seen_seq or 0) > record.head_seq  # left behind by an ingester before this one:
            table = self._tables[table_id] = _Table(  # read again from the stream
                (record.head_seq, record.head_hash), stream_seq=record.stream_seq or 0,
                anchored=record.anchor_seq or 0, quarantined=record.broken_at is not None,
                seen=max(record.head_seq, record.seen_seq or 0), read_wanted=behind,
                behind_since=record.behind_since if behind else None)
            stored = summaries.get(table_id)
            if stored is not None and stored[0] == record.head_seq:
                table.summary = Summary.read(*stored)

    def ingest(self, msgs, *, again: bool = False) -> Outcome:
        """Store the messages' events (committed before this returns); repeats are skipped. A message
        that is not a table's own is poison, its alarm recorded (one per subject and reason) unless
        the table is read `again` from the stream (the consumer delivered and counted it already)."""
        return self._store(self._admit(msgs), again=again)

    def _messages(self, rows: int) -> int:
        """Messages to ask for about `rows` rows."""
        return max(1, round(rows / self._rows_per_message))

    async def _fetch_ahead(self, pull: Pull, size: int) -> tuple[list, _Admitted | None]:
        """What the stream holds, up to `size` messages (a backlog answers at once), fetched and
        admitted a part at a time: the other cores begin on a part's signatures while the next comes."""
        ahead: list = []
        admitted = None
        while len(ahead) < size:
            wanted = min(self._messages(AHEAD_PART), size - len(ahead))
            part = await pull.fetch(wanted, 0)
            if part:
                admitted = self._admit(part, admitted)
                ahead += part
            if len(part) < wanted:
                break
        return ahead, admitted

    def _admit(self, msgs, admitted: _Admitted | None = None) -> _Admitted:
        """`ingest`'s first half: all but the signatures checked, and the signatures handed to the
        other cores, which check them while the session fetches the next batch. Into `admitted`:
        a batch admitted a part at a time."""
        admitted = admitted or _Admitted()
        by_table: dict[str, list[tuple[Link, int, object]]] = defaultdict(list)
        rows = 0
        for msg, found in zip(msgs, self.gate.admit_all(msgs)):
            if isinstance(found, Refused):
                admitted.refuse(found, msg)
                continue
            (table_id, links), at = found, stream_seq_of(msg)
            received = by_table[table_id]
            # A row before the last of its message counts as the stream holding the table up to the
            # message before it: a table whose head it is is read again (and purged) from its message.
            received += [(link, max(at - 1, 0), msg) for link in links[:-1]]
            received.append((links[-1], at, msg))
            rows += len(links)
        if msgs:
            self._rows_per_message = max(1.0, rows / len(msgs))
        self._know(by_table)
        admitted.proving = Proving.joined(admitted.proving, self.gate.submit(
            (table_id, [link for link, _stream_seq, _msg in received_links if link.seq > table.head[0]])
            for table_id, received_links in by_table.items()
            for table in [self._table(table_id)] if not table.quarantined))
        for table_id, received_links in by_table.items():
            admitted.by_table[table_id] += received_links
        return admitted

    def _store(self, admitted: _Admitted, *, again: bool = False) -> Outcome:
        """`ingest`'s second half: the verdicts taken, each link's signature checked, the batch committed.
        What the tables' heads are now is read here: a table read again meanwhile is taken as it is."""
        self.gate.collect(admitted.proving)
        refuse, poison, refusals, details = admitted.refuse, admitted.poison, admitted.refusals, admitted.details
        try:
            signed = {table_id: self._signed(table_id, received_links, refuse)
                      for table_id, received_links in admitted.by_table.items()}
        finally:
            self.gate.forget_proven()
        by_table = {table_id: links for table_id, links in signed.items() if links}  # what is checked
        received = now_text()
        batches, broken = [], []
        for table_id, received_links in by_table.items():
            table = self._table(table_id)
            fresh = self._fresh(table, received_links, received)
            if not fresh:
                continue
            good, damaged = check_links(table_id, table.head, [link for link, _ in fresh],
                                        partial(self.store.seq_of_hash, table_id))
            if good:
                batches.append((table_id, good, table.head, fresh[len(good) - 1][1] or None))
            if damaged is not None:
                verdict = damaged.verdict
                at = verdict.bad_event or (good[-1].seq if good else table.head[0]) + 1
                broken.append(Alarm(table_id, at, verdict.problem or "", "", None, None))
        refused = [RefusedMessages(subject, reason, details[subject, reason], len(seqs), stream_seqs=tuple(seqs))
                   for (subject, reason), seqs in ({} if again else refusals).items()]
        try:  # the refusals and alarms with the events: a commit that fails counts none of them
            committed = self.store.append_many([self._batch(table_id, good, head, stream_seq)
                                                for table_id, good, head, stream_seq in batches], received,
                                               self.holder, refused=refused, broken=broken)
        except self.store.failures:
            self._tables.clear()  # summaries folded for a commit that may not have happened: the store says
            raise
        for refusal in committed.refusals:
            log.error("floor alarm: messages on %s refused: %s (%s)", refusal.subject, refusal.reason, refusal.detail)
        for alarm in committed.raised:
            if alarm.kind == CHAIN:
                log.error("floor alarm: table %s, %s; quarantined until a pit boss resumes it",
                          alarm.table_id, alarm.problem)
            else:
                log.warning("table alarm: table %s, %s: %s", alarm.table_id, alarm.kind, alarm.problem)
        for table_id, good, _head, stream_seq in batches:
            table = self._tables[table_id]
            table.head, table.stream_seq = (good[-1].seq, good[-1].hash), stream_seq or table.stream_seq
            table.new_events = table.new_events or any(link.kind != FloorAnchored.kind for link in good)
            if table.seen <= table.head[0]:
                table.behind_since, table.changed = None, True
            self.stored += len(good)
        for alarm in broken:
            table = self._tables[alarm.table_id]
            table.quarantined, table.read_wanted, table.changed = True, False, True
        return Outcome(frozenset(poison))

    def _batch(self, table_id: str, good: list[Link], head: tuple[int, str], stream_seq: int | None) -> Batch:
        """The links with the table's summary after them and the alarms they raise or clear: one commit."""
        table = self._tables[table_id]
        if table.summary is None:  # a new table, or a store from before the summaries: its events folded once
            table.summary = fold([(link.seq, link.kind, link.body) for link in self.store.links(table_id)]
                                 if head[0] else [])
            table.summary.duty_changed = True
        summary = table.summary
        for at, link in enumerate(good):
            if not summary.add(link.seq, link.kind, link.body):  # a correction: the results counted again
                summary.recount(self.store.spin_events(table_id) + [
                    (earlier.seq, decode(earlier.body)) for earlier in good[:at + 1]
                    if EVENT_TYPES.get(earlier.kind) in SPIN_EVENTS], link.seq)
        state = summary.state_text() if summary.duty_changed else None
        summary.duty_changed = False
        raised, answers = table_alarms(table_id, good)
        return Batch(table_id, good, head, stream_seq, summary.tile_text(), state, raised, answers,
                     base=summary.base_text())

    def _signed(self, table_id: str, received_links: list[tuple[Link, int, object]], refuse
                ) -> list[tuple[Link, int]]:
        """The links that carry the table's signature, checked where it counts (an Ed25519 check
        costs more than the rest together): each one stored now, and beyond a gap the last one (it
        says how far the stream holds the table). The others are left in the stream unchecked and
        uncounted, and are checked when the table is read again. One not signed is refused."""
        table = self._table(table_id)
        kept: list[tuple[Link, int]] = []
        held: list[tuple[Link, int, object]] = []
        kept_hashes: dict[int, str] = {}
        cursor, in_order = table.head[0], not table.quarantined
        subject, signed = events_subject(table_id), self.gate.signer(table_id)
        received_links = sorted(received_links, key=lambda item: item[0].seq)
        stored = self.store.stored_hashes(table_id, [link.seq for link, _stream_seq, _msg in received_links
                                                     if link.seq <= table.head[0]])  # a batch delivered again: one query
        for link, stream_seq, msg in received_links:
            if link.seq <= cursor:  # delivered again: already stored (or kept just now), or another event in its place
                known = kept_hashes.get(link.seq) or stored.get(link.seq)
                if known != link.hash:
                    refused = signed(subject, link)
                    if refused is not None:
                        refuse(refused, msg)
                continue
            if in_order and link.follows == cursor:
                refused = signed(subject, link)
                if refused is None:
                    kept.append((link, stream_seq))
                    cursor, kept_hashes[link.seq] = link.seq, link.hash
                else:  # a forgery holds up nothing: the table's own event may come beside it
                    refuse(refused, msg)
                continue
            in_order = False
            held.append((link, stream_seq, msg))
        for link, stream_seq, msg in reversed(held):
            refused = signed(subject, link)
            if refused is None:
                kept.append((link, stream_seq))
                break
            refuse(refused, msg)
        return kept

    def _fresh(self, table: _Table, received_links: list[tuple[Link, int]], now: str) -> list[tuple[Link, int]]:
        """The leading run of the links that follows the table's head; what the stream delivered beyond it
        is noted (the table is behind, and read again from the stream unless it is quarantined)."""
        fresh, cursor, held = [], table.head[0], False
        for link, stream_seq in sorted(received_links, key=lambda pair: pair[0].seq):
            if link.seq > table.seen:
                table.seen, table.seen_stream, table.changed = link.seq, max(table.seen_stream, stream_seq), True
            if link.seq <= cursor or table.quarantined:
                continue  # delivered again: already stored (or in this batch); or the table is quarantined
            if link.follows == cursor and not held:
                fresh.append((link, stream_seq))
                cursor = link.seq
            else:
                held = True
                table.read_wanted = table.read_wanted or stream_seq == 0 or stream_seq > table.read_to
        if table.seen > cursor and table.behind_since is None:
            table.behind_since, table.changed = now, True
        return fresh

    async def _read_again(self, js) -> None:
        """Read, each on its own subject, the tables behind from the event after their head."""
        while not self.stopping:
            now = time.monotonic()
            for table_id, table in list(self._tables.items()):
                if table.read_wanted and not table.quarantined and now - table.read_at >= READ_AGAIN_S:
                    await self._read_table(js, table_id, table)
            await asyncio.sleep(0.5)

    async def _read_table(self, js, table_id: str, table: _Table) -> None:
        import nats
        from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

        table.read_wanted, table.read_at = False, time.monotonic()
        start = max(table.stream_seq, table.read_to) + 1
        config = ConsumerConfig(ack_policy=AckPolicy.NONE, deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                opt_start_seq=start, inactive_threshold=60.0, mem_storage=True)
        sub = await js.pull_subscribe(events_subject(table_id), stream=EVENTS_STREAM, config=config)
        try:
            while not self.stopping and not table.quarantined:
                try:
                    msgs = await sub.fetch(READ_BATCH, timeout=1)
                except (nats.errors.TimeoutError, asyncio.TimeoutError):  # nothing came within the wait
                    break
                self.ingest(msgs, again=True)
                table.read_to = max(table.read_to, stream_seq_of(msgs[-1]))
        finally:
            try:
                await js.delete_consumer(EVENTS_STREAM, sub._consumer)
            except Exception:  # it lapses by itself after inactive_threshold
                pass
        if table.seen > table.head[0] and table.reported != table.head[0]:
            table.reported = table.head[0]
            log.warning("floor ingester: table %s waits for event %d; the stream holds it up to %d",
                        table_id, table.head[0] + 1, table.seen)

    async def _anchor(self, js) -> None:
        now = time.monotonic()
        for table_id, table in list(self._tables.items()):  # a heartbeat may add a table while this awaits
            if not table.new_events or now - table.anchored_at < self.anchor_every_s:
                continue
            seq, digest = table.head
            when = now_text()
            anchor = Anchor(seq, digest, when, sign_anchor(self.signing_key, table_id, seq, digest, when)
                            if self.signing_key is not None else "")
            await js.publish(anchor_subject(table_id), anchor.encode())
            self._anchors.append((table_id, seq, digest, anchor.time))
            table.anchored, table.anchored_at, table.new_events = seq, now, False

    async def _purge(self, js) -> None:
        """Each table's events committed at least `stream_keep_s` ago leave the stream, the head kept
        (the table's publisher goes on from it); nothing the store has not committed is purged."""
        now = time.monotonic()
        for table_id, table in list(self._tables.items()):
            if table.stream_seq and (not table.marks or table.marks[-1][1] != table.stream_seq):
                table.marks.append((now, table.stream_seq))
            due = [seq for when, seq in table.marks if now - when >= self.stream_keep_s]
            if not due or due[-1] <= table.purged:
                continue
            await js.purge_stream(EVENTS_STREAM, seq=due[-1], subject=events_subject(table_id))
            table.purged = due[-1]
            table.marks = [(when, seq) for when, seq in table.marks if seq > table.purged]

    def _write_word(self, pending: int | None, acked: int | None = None) -> None:
        """The lease renewed, the state, and what changed in memory (heartbeats, deliveries, anchors);
        the refused messages the consumer will never offer again (up to `acked`) are forgotten."""
        now = time.monotonic()
        for table_id, when in self._beats.items():
            if self.gate.enrolled(table_id):  # a table the floor does not know gets no tile
                self._table(table_id).heard = when
        self._beats.clear()
        updates = []
        for table_id, table in self._tables.items():
            beat = table.heard is not None and now - table.heard_written >= HEARD_EVERY_S
            if table.changed or beat:
                updates.append(TableUpdate(table_id, table.heard if beat else None, table.seen, table.behind_since))
                table.changed = False
                if beat:
                    table.heard_written = now
        anchors, self._anchors = self._anchors, []
        if self.holder is not None:
            self.store.write_word(self.holder, LEASE_S, self.state, pending, updates, anchors,
                                  acked=acked)

    def _resumed(self) -> None:
        """A quarantined table a pit boss resumed is read again from the stream after its head."""
        held = [table_id for table_id, table in self._tables.items() if table.quarantined]
        if not held:
            return
        still = self.store.quarantined(held)
        for table_id in held:
            if table_id not in still:
                log.info("floor ingester: table %s resumed; reading it again from event %d",
                         table_id, self._tables[table_id].head[0] + 1)
                table = self._tables[table_id]
                table.quarantined, table.read_wanted, table.read_to, table.read_at = False, True, 0, float("-inf")

    async def _heard(self, msg) -> None:
        """A table's heartbeat, noted in memory only (the store may be away): the next word writes it."""
        try:
            self._beats[table_of(msg.subject)] = now_text()
        except WireError:
            pass  # not a table's subject: nothing to note


@cache  # once a process: a session started again (the broker back) finds it done
def _settle_memory() -> None:
    """Once a process has started (its modules, connections and checking processes made), what it
    holds then is left out of the garbage collector's rounds: each full round went over those
    hundreds of thousands of objects again, about a tenth of the ingester's time in a backlog.
    And the young objects are looked over every `YOUNG_ROUND` made, not every 700: a batch makes
    some ten a message and keeps them until its commit, so the rounds went over it again and again
    (a backlog of 30,000 events: 377 rounds, 93 ms; now 3, 50 ms). Only a cycle waits for a round
    (the rest is freed as it is let go): memory stays as it was."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_ROUND, *gc.get_threshold()[1:])
