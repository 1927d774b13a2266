"""The table side: the journal is the outbox. A thread of its own, with its own asyncio loop, reads
the committed rows of the table's journal (read-only) and publishes each to JetStream, in order.

On every (re)connection it asks the stream for the last event it holds for this table and goes on
from the next one, so an outage of any length, a restart of the table or of the broker ends with
the stream holding every event once, in order (while it catches up, several events to a message):
each message carries the id `<table>:<seq>:<hash>` of its last event (the broker drops a repeat)
and the stream sequence of the table's previous message (the broker refuses one out of place).
A last message on the table's subject that is not the table's own (anyone who could reach the
broker may have put it there) stops nothing: publishing goes on from the floor's last receipt, and
the floor refuses the intruder's. Nothing here can stop or slow the table: `wake()` only
schedules, errors are logged and retried, and the anchors the floor sends back are handed to the
table's own thread once they carry the floor's signature and name an event of this journal with
its hash; any other is handed over as an alarm, once.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from itertools import islice
from pathlib import Path

from croupier.floor.anchors import AnchorInbox, last_anchor
from croupier.floor.wire import (ANCHORS_STREAM, EVENTS_STREAM, RETRY_S, Access, Anchor, Link, WireError, alive_subject,
                                 close_quietly, connect,
                                 anchor_subject, bundled, check_table_id, ensure_streams, events_subject, message_id,
                                 seq_of_message_id)
from croupier.journal.signing import (SigningKeyError, anchor_signed, default_signing_key_path, event_signed,
                                      public_path, read_public_key)
from croupier.journal.store import Journal, JournalError

log = logging.getLogger(__name__)

BATCH = 256  # rows read from the journal at a time
POLL_S = 1.0  # how often the journal is looked at when nobody wakes the publisher
HEARTBEAT_S = 5.0
STOP_S = 3.0
WRONG_LAST_SEQUENCE = 10071  # the broker's error code for Nats-Expected-Last-Subject-Sequence


class BehindTheFloor(Exception):
    """The stream holds more of this table than its journal: another journal file, or an old copy."""


class TablePublisher:
    def __init__(self, journal_path: str | Path, table_id: str, url: str, inbox: AnchorInbox | None = None, *,
                 poll_s: float = POLL_S, heartbeat_s: float = HEARTBEAT_S, floor_key=None,
                 access: Access | None = None) -> None:
        self.access = access  # its own credentials and the casino's CA
        self.journal_path = Path(journal_path)
        self.floor_key = floor_key  # the floor's Ed25519 public key: only receipts it signed are recorded
        self._refused_anchor: Anchor | None = None  # the last receipt refused (raised once)
        self._said_no_floor_key = False
        self.table_id = check_table_id(table_id)
        self.servers = [s.strip() for s in url.split(",") if s.strip()]
        self.inbox = inbox
        self.poll_s = poll_s
        self.heartbeat_s = heartbeat_s  # also how often the floor's anchor is asked for
        self.published = 0  # the last seq the stream holds, as far as this publisher knows
        self.online = False
        self.problem: str | None = None
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name=f"floor-publisher-{table_id}", daemon=True)

    # --- from the table's thread: never blocks -------------------------------------------------

    def start(self) -> "TablePublisher":
        self._thread.start()
        return self

    def wake(self, *_: object) -> None:
        """New events were committed: publish them now rather than at the next poll."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            try:
                loop.call_soon_threadsafe(wake.set)
            except RuntimeError:
                pass  # the loop has ended

    def stop(self, timeout: float = STOP_S) -> None:
        """End the thread; with the floor reachable, what the journal holds is published first
        (the table waits `timeout` at most)."""
        self._stopping = True
        self.wake()
        self._thread.join(timeout)

    # --- its own thread ------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:  # never a traceback into the table's process
            log.exception("floor publisher of table %s stopped", self.table_id)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        wake = self._wake = asyncio.Event()  # set by `wake()` from the table's thread
        attempt = 0
        journal = None
        while not self._stopping:
            try:
                if journal is None:
                    journal = Journal.open(self.journal_path, read_only=True)
                await self._session(journal, wake)
                attempt = 0
            except BehindTheFloor as exc:
                self._set_problem(str(exc))
            except JournalError as exc:
                self._set_problem(f"journal: {exc}")
                if journal is not None:
                    journal.close()
                journal = None
            except Exception as exc:  # the broker is away, or went away: try again, quietly
                self._set_problem(f"floor unreachable: {exc.__class__.__name__} {exc}".strip())
            self.online = False
            if not self._stopping:
                await self._sleep(wake, RETRY_S[min(attempt, len(RETRY_S) - 1)])
            attempt += 1
        if journal is not None:
            journal.close()

    def _set_problem(self, problem: str) -> None:
        if problem != self.problem:
            log.warning("floor link of table %s: %s", self.table_id, problem)
        self.problem = problem

    async def _sleep(self, wake: asyncio.Event, seconds: float) -> None:
        wake.clear()
        try:
            await asyncio.wait_for(wake.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def _session(self, journal: Journal, wake: asyncio.Event) -> None:
        from nats.js.errors import APIError

        nc = await connect(self.servers, self.access)
        try:
            js = nc.jetstream(timeout=5)
            await ensure_streams(js)
            anchored = last_anchor(journal)
            subject = events_subject(self.table_id)
            self.published, last_stream_seq = await self._resume(js, journal)
            self.online, self.problem = True, None
            log.info("floor link of table %s up: the stream holds events up to %d", self.table_id, self.published)
            loop = asyncio.get_running_loop()
            next_beat = 0.0
            while True:
                final = self._stopping  # asked to stop: publish what the journal holds now, then end
                wake.clear()
                rows = list(islice(journal.rows(self.published), BATCH))
                links = [Link(row.seq, row.time, row.kind, row.body, row.prev_hash, row.hash, row.mac,
                              after=after, sig=row.sig or "")
                         for row, after in zip(rows, [self.published] + [earlier.seq for earlier in rows])]
                for last, payload in bundled(links):  # behind: several rows to a message
                    headers = {"Nats-Msg-Id": message_id(self.table_id, last.seq, last.hash),
                               "Nats-Expected-Last-Subject-Sequence": str(last_stream_seq)}
                    try:
                        ack = await js.publish(subject, payload, headers=headers)
                    except APIError as exc:
                        if getattr(exc, "err_code", None) != WRONG_LAST_SEQUENCE:
                            raise
                        # Someone else's copy got there first (a publish whose answer was lost): ask again.
                        self.published, last_stream_seq = await self._resume(js, journal)
                        break
                    # A repeat the broker dropped adds nothing to the stream: the subject's last stays.
                    self.published, last_stream_seq = last.seq, last_stream_seq if ack.duplicate else ack.seq
                if len(rows) == BATCH or not self._caught_up(journal):
                    continue
                if final:
                    return
                if loop.time() >= next_beat:
                    await nc.publish(alive_subject(self.table_id), str(self.published).encode())
                    anchored = await self._collect_anchor(js, anchored, journal)
                    next_beat = loop.time() + self.heartbeat_s
                await self._sleep(wake, self.poll_s)
        finally:
            self.online = False
            await close_quietly(nc)

    def _caught_up(self, journal: Journal) -> bool:
        return next(iter(journal.rows(self.published)), None) is None

    async def _resume(self, js, journal: Journal) -> tuple[int, int]:
        """(journal seq, stream sequence) of the last event the stream holds for this table."""
        from nats.js.errors import NotFoundError

        try:
            last = await js.get_last_msg(EVENTS_STREAM, events_subject(self.table_id))
        except NotFoundError:
            return 0, 0
        try:
            seq = seq_of_message_id(self.table_id, (last.headers or {}).get("Nats-Msg-Id"))
            link = Link.decode_all(last.data)[-1]
        except WireError:
            seq, link = None, None
        if link is not None and link.seq == seq:
            if seq <= journal.head[0] or journal.reread_head()[0] >= seq:
                if journal.hash_at(seq) == link.hash:
                    return seq, last.seq
            elif self._own(link):
                raise BehindTheFloor(f"the floor holds events up to {seq} of table {self.table_id}, more than "
                                     f"{self.journal_path} has: is this the table's journal? Nothing is published")
        # Not this table's message: go on from what the floor signed for (the broker drops the repeats
        # its de-duplication window still holds, the floor skips the others), after the intruder's.
        resume = last_anchor(journal)
        self._set_problem(f"the last message on {events_subject(self.table_id)} is not this table's (stream "
                          f"sequence {last.seq}): publishing again from event {resume + 1}")
        return resume, last.seq

    def _own(self, link: Link) -> bool:
        """Signed with this table's key (its public half beside the journal's signing key)."""
        try:
            key = read_public_key(public_path(default_signing_key_path(self.journal_path)))
        except SigningKeyError:
            return False
        return event_signed(key, link.hash, link.sig)

    async def _collect_anchor(self, js, anchored: int, journal: Journal) -> int:
        """Hand the floor's latest anchor to the table when it is new; the seq now anchored."""
        from nats.js.errors import NotFoundError

        if self.inbox is None:
            return anchored
        try:
            msg = await js.get_last_msg(ANCHORS_STREAM, anchor_subject(self.table_id))
            anchor = Anchor.decode(msg.data)
        except NotFoundError:
            return anchored
        except WireError as exc:
            anchor = Anchor(-1, "", "", str(exc))  # refused below, as anything else not the floor's
        if anchor.seq == anchored and anchor.seq >= 0:
            return anchored
        if self.floor_key is None:  # a gap in the configuration, not an intruder: said once, no alarm
            if not self._said_no_floor_key:
                self._said_no_floor_key = True
                log.warning("floor link of table %s: no [floor] floor_key: the floor's receipts are not checked "
                            "and none is recorded", self.table_id)
            return anchored
        problem = self._anchor_problem(anchor, journal)
        if problem is None:
            if anchor.seq > anchored:
                self.inbox.put(anchor)
                return anchor.seq
        elif anchor != self._refused_anchor:
            self._refused_anchor = anchor
            log.error("floor link of table %s: receipt refused: %s", self.table_id, problem)
            self.inbox.refuse(problem)
        return anchored

    def _anchor_problem(self, anchor: Anchor, journal: Journal) -> str | None:
        """Why the table does not record this receipt, or None when it is the floor's and names an
        event of this journal with that event's hash."""
        if anchor.seq < 0:
            return f"the floor's receipt for table {self.table_id} cannot be read ({anchor.sig})"
        if not anchor_signed(self.floor_key, self.table_id, anchor.seq, anchor.hash, anchor.time, anchor.sig):
            return f"a receipt for event {anchor.seq} of table {self.table_id} is not signed by the floor's key"
        if anchor.seq > journal.head[0]:
            journal.reread_head()
        if journal.hash_at(anchor.seq) != anchor.hash:
            return (f"the floor's receipt names event {anchor.seq} with hash {anchor.hash[:16]}…, which is not this "
                    "table's event (the floor's copy differs from the journal)")
        return None

