"""The floor's central copy of every table's journal: SQLite (the default, one file) or PostgreSQL.

Each event is stored once, keyed by (table, seq), together with the table's head in one
transaction: an event delivered again after a crash is recognised by its seq and skipped, so the
ingester acknowledges a message only after `append` has committed it. Alarms (a broken chain, or
one a table raised) and anchors (the receipts sent back to the tables) are kept beside them, and so
are the tables' enrolled public keys and the refusals: messages that were not a table's own (one
open alarm per subject and reason, counting the messages).

    store = open_store("floor.db")                     # or "postgresql://user@host/floor"
"""
from __future__ import annotations

import json
import sqlite3
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Sequence

from croupier.floor import pg_schema
from croupier.floor.gate import RefusalReason
from croupier.floor.wire import Link, redacted
from croupier.history.spins import SPIN_EVENTS
from croupier.table.events import Event, decode

GENESIS = "0" * 64
BUSY_S = 2.0  # how long an SQLite call waits for another process's write lock before it fails

SCHEMA = (  # {time}: timestamptz in PostgreSQL, ISO 8601 text in SQLite; an event's own `time` is the hashed text
    """CREATE TABLE IF NOT EXISTS floor_events (
        table_id TEXT NOT NULL, seq BIGINT NOT NULL, time TEXT NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
        prev_hash TEXT NOT NULL, hash TEXT NOT NULL, mac TEXT NOT NULL, received {time} NOT NULL,
        PRIMARY KEY (table_id, seq))""",
    """CREATE TABLE IF NOT EXISTS floor_tables (
        table_id TEXT PRIMARY KEY, head_seq BIGINT NOT NULL, head_hash TEXT NOT NULL,
        last_received {time}, last_event_time {time}, last_heard {time},
        broken_at BIGINT, problem TEXT,
        anchor_seq BIGINT, anchor_hash TEXT, anchor_time {time})""",
    """CREATE TABLE IF NOT EXISTS floor_alarms (
        table_id TEXT NOT NULL, event_seq BIGINT NOT NULL, problem TEXT NOT NULL, raised {time} NOT NULL,
        acknowledged_by TEXT, acknowledged {time},
        PRIMARY KEY (table_id, event_seq))""",
    # The active ingester's lease and word: who, until when (its clock, seconds), how it is doing.
    """CREATE TABLE IF NOT EXISTS floor_ingester (
        id INTEGER PRIMARY KEY, holder TEXT NOT NULL, lease_until DOUBLE PRECISION NOT NULL,
        beat {time}, state TEXT, pending BIGINT)""",
    """CREATE TABLE IF NOT EXISTS floor_keys (
        table_id TEXT PRIMARY KEY, public_key TEXT NOT NULL, fingerprint TEXT NOT NULL, enrolled {time} NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS floor_refusals (
        subject TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL, messages BIGINT NOT NULL,
        raised {time} NOT NULL, last_seen {time} NOT NULL, acknowledged_by TEXT, acknowledged {time},
        PRIMARY KEY (subject, reason, raised))""",
    # The stream sequence of each message refused: one the broker delivers again (its termination lost
    # with an ingester that died after the commit) is counted once. Kept only while the consumer may
    # offer it again: below its ack floor it never does, and the ingester's word deletes it (a flood
    # of refused messages leaves its count on the alarm, not a row each).
    """CREATE TABLE IF NOT EXISTS floor_refused (
        subject TEXT NOT NULL, stream_seq BIGINT NOT NULL, PRIMARY KEY (subject, stream_seq))""",
    "CREATE INDEX IF NOT EXISTS floor_refused_seq ON floor_refused (stream_seq)",  # what the word deletes
    # The number of the last change to an alarm or a refusal (each row keeps its own `change_no`): a
    # view reads only the rows changed since the number it has. One row, updated in the writing
    # transaction, so the numbers commit in order: a reader never sees a number before a smaller one.
    """CREATE TABLE IF NOT EXISTS floor_changes (id INTEGER PRIMARY KEY, n BIGINT NOT NULL)""",
    # Each table's summary after its event `seq` (croupier.floor.summaries), written with the events:
    # `tile` is what the view reads, `state` the fold the ingester goes on from.
    """CREATE TABLE IF NOT EXISTS floor_summaries (
        table_id TEXT PRIMARY KEY, seq BIGINT NOT NULL, tile TEXT NOT NULL, state TEXT NOT NULL)""",
)
# Columns added since the first stores were made: (table, column, type), added where missing.
ADDED_COLUMNS = (
    ("floor_tables", "stream_seq", "BIGINT"),  # the stream sequence of the head event: where a re-read starts
    ("floor_tables", "seen_seq", "BIGINT"),  # the last event of the table the stream has delivered
    ("floor_tables", "behind_since", "{time}"),  # since when an event delivered is not stored
    ("floor_alarms", "resumed_by", "TEXT"),
    ("floor_alarms", "resumed", "{time}"),
    ("floor_events", "sig", "TEXT NOT NULL DEFAULT ''"),  # the table's Ed25519 signature (empty before signing)
    ("floor_alarms", "kind", "TEXT NOT NULL DEFAULT 'chain'"),  # CHAIN, or the kind of alarm a table raised
    ("floor_alarms", "table_alarm", "BIGINT"),  # that alarm's number at the table
    ("floor_summaries", "base", "TEXT NOT NULL DEFAULT ''"),  # the watch a correction is counted from (summaries)
    ("floor_alarms", "change_no", "BIGINT NOT NULL DEFAULT 0"),  # floor_changes' number when the row last changed
    ("floor_refusals", "change_no", "BIGINT NOT NULL DEFAULT 0"),
    ("floor_alarms", "answer_seq", "BIGINT"),  # the table's event that acknowledged or ended the alarm there
    ("floor_alarms", "acknowledged_at_table", "BOOLEAN NOT NULL DEFAULT FALSE"),  # first taken up there, not on the floor
)
# Before `acknowledged_at_table`, the floor wrote a name the table recorded with this after it.
LEGACY_AT_TABLE = " (at the table)"
INDEXES = ("CREATE INDEX IF NOT EXISTS floor_alarms_change ON floor_alarms (change_no)",
           "CREATE INDEX IF NOT EXISTS floor_refusals_change ON floor_refusals (change_no)")
CHAIN = "chain"
SUBJECTS_APART = 10  # subjects with an alarm of their own while open, per reason of refusal
OTHER_SUBJECTS = "*"  # the alarm counting the others ("*" is no subject anyone can publish on)
EXAMPLES = 5  # the subjects that alarm names: the first it counted
EXAMPLES_APART = " "  # between them (a subject has no space)
TABLE_COLUMNS = ("table_id, head_seq, head_hash, last_received, last_event_time, last_heard, broken_at, problem, "
                 "anchor_seq, anchor_hash, anchor_time, stream_seq, seen_seq, behind_since")


class StoreError(Exception):
    """The store cannot be opened or used: the message says which and why."""


class ReadOnlyLogin(StoreError):
    """The login may read the store, and neither write it nor acknowledge an alarm."""


class StoreUnavailable(StoreError):
    """The store did not answer (a server restarting, a write lock held elsewhere): worth trying again."""


class LeaseLost(StoreError):
    """Another ingester holds the lease now: this one stores nothing more until it has it again."""


@dataclass(frozen=True)
class TableRecord:
    table_id: str
    head_seq: int
    head_hash: str
    last_received: str | None
    last_event_time: str | None
    last_heard: str | None
    broken_at: int | None
    problem: str | None
    anchor_seq: int | None
    anchor_hash: str | None
    anchor_time: str | None
    stream_seq: int | None = None
    seen_seq: int | None = None
    behind_since: str | None = None


@dataclass(frozen=True)
class Alarm:
    table_id: str
    event_seq: int
    problem: str
    raised: str
    acknowledged_by: str | None
    acknowledged: str | None
    resumed_by: str | None = None
    resumed: str | None = None
    kind: str = CHAIN  # CHAIN, or the kind of alarm the table raised (croupier.table.events.AlarmKind)
    table_alarm: int | None = None  # the alarm's number at the table
    answer_seq: int | None = None  # the table's event that acknowledged or ended it there (the view words it)
    acknowledged_at_table: bool = False  # first taken up at its table (by `answer_seq`'s event), not on the floor


@dataclass(frozen=True)
class TableAnswer:
    """A table's own answer to one of its alarms, by its event: acknowledged there, or `ended`
    (cleared by a pit boss, or by the procedure that answered it: a relief, a ball swap, a correction)."""

    table_alarm: int
    by: str
    event_seq: int
    ended: bool


@dataclass(frozen=True)
class RefusedMessages:
    """Messages on `subject` that were not the table's own, refused for `reason`."""

    subject: str
    reason: RefusalReason  # stored as its value (its words, which it is made again from)
    detail: str  # what was wrong with the first of them
    messages: int
    stream_seqs: tuple[int, ...] = field(default=(), kw_only=True)  # theirs in the stream (0: not known)


@dataclass(frozen=True)
class Refusal(RefusedMessages):
    """The alarm the refused messages raise, counting them (one per subject and reason while open)."""

    raised: str
    last_seen: str
    acknowledged_by: str | None
    acknowledged: str | None


@dataclass(frozen=True)
class IngesterRecord:
    """The active ingester's word, written every couple of seconds: a `beat` that stops is a stall."""

    holder: str
    beat: str | None
    state: str | None
    pending: int | None  # messages in the stream the ingester has not yet taken


@dataclass(frozen=True)
class TableUpdate:
    """What the ingester keeps in memory of a table between two writes of its word."""

    table_id: str
    last_heard: str | None
    seen_seq: int
    behind_since: str | None


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class FloorStore:
    """One connection to the store. Not shared between threads: open one per thread."""

    def __init__(self, conn, url: str, postgres: bool, read_only: bool) -> None:
        self._conn: Any = conn  # sqlite3 or psycopg: the same calls
        self.url = url
        self.postgres = postgres
        self.read_only = read_only
        self._lock = threading.Lock()

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.postgres else text

    def _execute(self, text: str, params: Sequence = ()):
        return self._conn.execute(self._sql(text), tuple(params))

    def close(self) -> None:
        self._conn.close()

    def reopen(self) -> None:
        """A new connection in place of one that failed (the server restarted, the file was locked):
        StoreUnavailable while the store does not answer."""
        try:
            self._conn.close()
        except Exception:  # the old connection is broken already
            pass
        self._conn = open_store(self.url, read_only=self.read_only)._conn

    @property
    def failures(self) -> tuple[type[BaseException], ...]:
        """What a call to this store raises when the store, not the caller, is at fault."""
        if self.postgres:
            import psycopg

            return StoreError, psycopg.Error
        return StoreError, sqlite3.Error

    def __enter__(self) -> "FloorStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self):
        return _Transaction(self)

    # --- writing (the ingester) ---------------------------------------------------------------

    def append_many(self, batches: Sequence["Batch"], received: str, holder: str | None = None, *,
                    refused: Sequence[RefusedMessages] = (), broken: Sequence[Alarm] = ()) -> "Committed":
        """Several tables' links (each run checked to follow its head), their summaries and the alarms
        they raise or clear, the messages `refused` and the chains found `broken`, in one transaction:
        a commit that fails leaves none of them, so a batch delivered again counts each refusal once.
        With `holder`, only while that ingester holds the lease: a paused one that lost it writes nothing."""
        batches = [batch for batch in batches if batch.links]
        committed = Committed()
        if not (batches or refused or broken):
            return committed
        raised = committed.raised
        with self._transaction():
            if holder is not None:
                self._check_holder(holder)
            if refused or broken or any(batch.raised or batch.answers for batch in batches):
                self._change()  # the change counter before any row: every writer takes it first (no deadlock)
            committed.refusals += self._record_refusals(refused)
            rows: list[tuple] = []
            inserted: list[tuple] = []
            updated: list[tuple] = []
            heads = self._heads([batch.table_id for batch in batches])  # one round trip for every table
            received_at = datetime.fromisoformat(received)
            for batch in batches:
                table_id, links, head = batch.table_id, batch.links, batch.head
                last = links[-1]
                stored = heads.get(table_id, 0)
                if stored != head[0]:
                    raise StoreError(f"table {table_id}: the store holds events up to {stored}, not {head[0]}: "
                                     "another ingester writes this store")
                rows += [(table_id, link.seq, link.time, link.kind, link.body, link.prev_hash, link.hash, link.mac,
                          received_at, link.sig, *pg_schema.typed(link.time, link.body)) if self.postgres else
                         (table_id, link.seq, link.time, link.kind, link.body, link.prev_hash, link.hash, link.mac,
                          received, link.sig) for link in links]
                values = (last.seq, last.hash, received, _event_time(last.body), received, batch.stream_seq)
                known = table_id in heads
                (updated if known else inserted).append((*values, table_id) if known else (table_id, *values))
            if rows and self.postgres:  # with the typed copies the views read; COPY: one stream, not a statement a row
                pg_schema.copy_events(self._conn, rows)
            elif rows:
                self._executemany("INSERT INTO floor_events (table_id, seq, time, kind, body, prev_hash, hash, mac, "
                                  "received, sig) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            if inserted:
                self._executemany("INSERT INTO floor_tables (table_id, head_seq, head_hash, last_received, "
                                  "last_event_time, last_heard, stream_seq) VALUES (?, ?, ?, ?, ?, ?, ?)", inserted)
            if updated:
                self._executemany("UPDATE floor_tables SET head_seq = ?, head_hash = ?, last_received = ?, "
                                  "last_event_time = ?, last_heard = ?, stream_seq = ? WHERE table_id = ?", updated)
            tiles = [(b.table_id, b.links[-1].seq, b.tile, b.state or "", b.base or "") for b in batches
                     if b.tile is not None]
            if tiles:  # a state or base left out (unchanged) is kept
                self._executemany("INSERT INTO floor_summaries (table_id, seq, tile, state, base) VALUES (?, ?, ?, ?, ?) "
                                  "ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, tile = excluded.tile, "
                                  "state = CASE WHEN excluded.state = '' THEN floor_summaries.state "
                                  "ELSE excluded.state END, base = CASE WHEN excluded.base = '' "
                                  "THEN floor_summaries.base ELSE excluded.base END", tiles)
            raised += self._record_table_alarms([alarm for batch in batches for alarm in batch.raised])
            for batch in batches:
                for answer in batch.answers:  # an alarm the table ended is over on the floor too, whoever took it up
                    self._execute("UPDATE floor_alarms SET acknowledged_by = COALESCE(acknowledged_by, ?), "
                                  "acknowledged_at_table = (acknowledged IS NULL OR acknowledged_at_table), "
                                  "acknowledged = COALESCE(acknowledged, ?), answer_seq = ?, change_no = ? "
                                  "WHERE table_id = ? AND table_alarm = ?" + ("" if answer.ended else
                                                                               " AND acknowledged IS NULL"),
                                  (answer.by, now_text(), answer.event_seq, self._change(),
                                   batch.table_id, answer.table_alarm))
            for alarm in broken:  # after the links before the break: the table is quarantined at its new head
                if self._record_alarm(alarm.table_id, alarm.event_seq, alarm.problem, CHAIN, None):
                    raised.append(alarm)
        return committed

    def _heads(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The stored head seq of each of these tables that has a row."""
        return {table_id: int(seq) for table_id, seq in self._select_in(
            "SELECT table_id, head_seq FROM floor_tables WHERE table_id IN ({marks})", table_ids)}

    def _select_in(self, text: str, values: Sequence, *before) -> list[tuple]:
        """The rows `text` selects, its `{marks}` an IN list of `values` (after the parameters `before`),
        a few hundred values a statement: none for no value."""
        rows: list[tuple] = []
        for part in _parts(list(values)):
            rows += self._execute(text.format(marks=_marks(part)), (*before, *part)).fetchall()
        return rows

    def _executemany(self, text: str, rows) -> None:
        if not rows:
            return
        if self.postgres:
            with self._conn.cursor() as cur:
                cur.executemany(self._sql(text), rows)
        else:
            self._conn.executemany(text, rows)

    def raise_alarm(self, table_id: str, event_seq: int, problem: str, kind: str = CHAIN,
                    table_alarm: int | None = None) -> bool:
        """Record an alarm once per (table, event): a broken chain, which quarantines the table
        (nothing more is stored for it until a pit boss resumes it), or an alarm the table raised
        (`kind`, its number `table_alarm` there). False when the alarm was already recorded."""
        with self._transaction():
            return self._record_alarm(table_id, event_seq, problem, kind, table_alarm)

    def _record_alarm(self, table_id: str, event_seq: int, problem: str, kind: str, table_alarm: int | None) -> bool:
        known = self._execute("SELECT 1 FROM floor_alarms WHERE table_id = ? AND event_seq = ?",
                              (table_id, event_seq)).fetchone()
        if not known:
            self._execute("INSERT INTO floor_alarms (table_id, event_seq, problem, raised, kind, table_alarm, change_no) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (table_id, event_seq, problem, now_text(), kind, table_alarm, self._change()))
        if kind == CHAIN:
            self._ensure_table(table_id)
            self._execute("UPDATE floor_tables SET broken_at = ?, problem = ? WHERE table_id = ? "
                          "AND broken_at IS NULL", (event_seq, problem, table_id))
        return not known

    def _record_table_alarms(self, alarms: Sequence[Alarm]) -> list[Alarm]:
        """Alarms the tables raised, each recorded once per (table, event) under one change number, in
        a few statements whatever their number; those not recorded before."""
        if not alarms:
            return []
        tables = sorted({alarm.table_id for alarm in alarms})
        known = {(table_id, int(seq)) for table_id, seq in self._select_in(
            "SELECT table_id, event_seq FROM floor_alarms WHERE event_seq >= ? AND table_id IN ({marks})", tables,
            min(alarm.event_seq for alarm in alarms))}
        new = [alarm for alarm in alarms if (alarm.table_id, alarm.event_seq) not in known]
        if new:
            raised, change = now_text(), self._change()
            self._executemany("INSERT INTO floor_alarms (table_id, event_seq, problem, raised, kind, table_alarm, "
                              "change_no) VALUES (?, ?, ?, ?, ?, ?, ?)",
                              [(alarm.table_id, alarm.event_seq, alarm.problem, raised, alarm.kind, alarm.table_alarm,
                                change) for alarm in new])
        return new

    def _change(self) -> int:
        """The next change number (in the caller's transaction: it holds the counter until it ends)."""
        return int(self._execute("INSERT INTO floor_changes (id, n) VALUES (1, 1) ON CONFLICT (id) "
                                 "DO UPDATE SET n = floor_changes.n + 1 RETURNING n").fetchone()[0])

    def _record_refusals(self, refusals: Sequence[RefusedMessages]) -> list[RefusedMessages]:
        """Count messages refused on each subject for a reason, in a few statements whatever their
        number; those that raised a new alarm (none was open for that subject and reason). Beyond
        `SUBJECTS_APART` subjects open for one reason (a flood over made-up tables' subjects), the
        others are counted on one alarm, `OTHER_SUBJECTS`, which names the first few of them: the
        store holds a bounded number of rows whatever comes."""
        counted = [(refusal, count) for refusal, count in zip(refusals, self._first_refused(refusals)) if count]
        if not counted:
            return []
        now, change = now_text(), self._change()
        subjects = list(dict.fromkeys(refusal.subject for refusal, _count in counted))
        open_ = {(subject, reason) for subject, reason in self._select_in(
            "SELECT subject, reason FROM floor_refusals WHERE acknowledged IS NULL AND subject IN ({marks})", subjects)}
        apart = {reason: int(n) for reason, n in self._execute(
            "SELECT reason, count(*) FROM floor_refusals WHERE acknowledged IS NULL AND subject <> ? GROUP BY reason",
            (OTHER_SUBJECTS,)).fetchall()}
        others = {reason: detail.split(EXAMPLES_APART) for reason, detail in self._execute(
            "SELECT reason, detail FROM floor_refusals WHERE acknowledged IS NULL AND subject = ?",
            (OTHER_SUBJECTS,)).fetchall()}
        others_open = set(others)  # the reasons whose others' alarm is open already
        raised: list[RefusedMessages] = []
        inserted: list[tuple] = []
        updated: list[tuple] = []
        more: dict[str, int] = defaultdict(int)  # the others' messages, by reason
        for refusal, count in counted:
            reason = RefusalReason(refusal.reason).value
            if (refusal.subject, reason) in open_:
                updated.append((count, now, change, refusal.subject, reason))
            elif apart.get(reason, 0) < SUBJECTS_APART:
                inserted.append((refusal.subject, reason, refusal.detail, count, now, now, change))
                open_.add((refusal.subject, reason))
                apart[reason] = apart.get(reason, 0) + 1
                raised.append(refusal)
            else:
                if reason not in others:
                    raised.append(RefusedMessages(OTHER_SUBJECTS, RefusalReason(reason), refusal.subject, count))
                examples = others.setdefault(reason, [])
                if len(examples) < EXAMPLES and refusal.subject not in examples:
                    examples.append(refusal.subject)
                more[reason] += count
        others_updated: list[tuple] = []  # the others' alarms open already: their count and the subjects they name
        for reason, count in more.items():
            detail = EXAMPLES_APART.join(others[reason])
            if reason in others_open:
                others_updated.append((count, now, change, detail, OTHER_SUBJECTS, reason))
            else:
                inserted.append((OTHER_SUBJECTS, reason, detail, count, now, now, change))
        self._executemany("INSERT INTO floor_refusals (subject, reason, detail, messages, raised, last_seen, "
                          "change_no) VALUES (?, ?, ?, ?, ?, ?, ?)", inserted)
        self._executemany("UPDATE floor_refusals SET messages = messages + ?, last_seen = ?, change_no = ? "
                          "WHERE subject = ? AND reason = ? AND acknowledged IS NULL", updated)
        self._executemany("UPDATE floor_refusals SET messages = messages + ?, last_seen = ?, change_no = ?, "
                          "detail = ? WHERE subject = ? AND reason = ? AND acknowledged IS NULL", others_updated)
        return raised

    def _first_refused(self, refusals: Sequence[RefusedMessages]) -> list[int]:
        """How many messages of each refusal were never counted before (by their stream sequence; one
        without is counted each time), and they are noted as counted."""
        wanted = list(dict.fromkeys((refusal.subject, seq) for refusal in refusals for seq in refusal.stream_seqs
                                    if seq))
        known = {(subject, int(seq)) for subject, seq in self._select_in(
            "SELECT subject, stream_seq FROM floor_refused WHERE stream_seq IN ({marks})",
            list(dict.fromkeys(seq for _subject, seq in wanted)))}
        new = [pair for pair in wanted if pair not in known]
        self._executemany("INSERT INTO floor_refused (subject, stream_seq) VALUES (?, ?)", new)
        fresh = set(new)
        return [sum(1 for seq in dict.fromkeys(refusal.stream_seqs) if seq and (refusal.subject, seq) in fresh)
                + sum(1 for seq in refusal.stream_seqs if not seq) if refusal.stream_seqs else refusal.messages
                for refusal in refusals]

    def acknowledge_refusals(self, subject: str, by: str) -> int:
        """Record who took up the open refusal alarms on `subject`; how many there were."""
        with self._transaction():
            if self.postgres:
                return int(self._execute("SELECT floor_acknowledge_refusals(?, ?)", (subject, by)).fetchone()[0])
            return self._execute("UPDATE floor_refusals SET acknowledged_by = ?, acknowledged = ?, change_no = ? "
                                 "WHERE subject = ? AND acknowledged IS NULL",
                                 (by, now_text(), self._change(), subject)).rowcount

    def enrol(self, table_id: str, public_pem: str, fingerprint: str, *, replace: bool = False) -> str | None:
        """Enrol a table's public key; the fingerprint of another key already enrolled (and kept,
        unless `replace`), else None."""
        with self._transaction():
            row = self._execute("SELECT fingerprint FROM floor_keys WHERE table_id = ?", (table_id,)).fetchone()
            if row is not None and row[0] != fingerprint and not replace:
                return row[0]
            self._execute("DELETE FROM floor_keys WHERE table_id = ?", (table_id,))
            self._execute("INSERT INTO floor_keys (table_id, public_key, fingerprint, enrolled) VALUES (?, ?, ?, ?)",
                          (table_id, public_pem, fingerprint, now_text()))
        return None

    def resume(self, table_id: str, by: str) -> int | None:
        """A pit boss ends a table's quarantine: the ingester reads its events again from the stream,
        after the last one stored (a chain still broken is quarantined again). Who and when are kept
        on the alarm. The event the quarantine was at; None when the table is not quarantined."""
        with self._transaction():
            row = self._execute("SELECT broken_at FROM floor_tables WHERE table_id = ?", (table_id,)).fetchone()
            if row is None or row[0] is None:
                return None
            self._execute("UPDATE floor_alarms SET resumed_by = ?, resumed = ?, change_no = ? "
                          "WHERE table_id = ? AND event_seq = ?", (by, now_text(), self._change(), table_id, row[0]))
            self._execute("UPDATE floor_tables SET broken_at = NULL, problem = NULL WHERE table_id = ?", (table_id,))
            return int(row[0])

    def quarantined(self, table_ids: Sequence[str]) -> set[str]:
        """Which of these tables are still quarantined in the store."""
        return {row[0] for row in self._select_in(
            "SELECT table_id FROM floor_tables WHERE broken_at IS NOT NULL AND table_id IN ({marks})", table_ids)}

    # --- the active ingester ----------------------------------------------------------------------

    def claim(self, holder: str, lease_s: float) -> str | None:
        """Take or keep the ingester's lease; None when taken, else who holds it. Only the holder
        stores: a second ingester waits for the lease to lapse (its holder gone for `lease_s`). The
        lease is timed by the store's clock, the one clock every ingester shares: an ingester whose
        own clock is ahead (another machine, a Pi-like host without a battery clock, a jump when time
        sync starts) does not see a live lease as lapsed."""
        now = self._clock_sql
        with self._transaction():
            row = self._execute(f"SELECT holder, lease_until > {now} FROM floor_ingester WHERE id = 1").fetchone()
            if row is None:
                self._execute(f"INSERT INTO floor_ingester (id, holder, lease_until) VALUES (1, ?, {now} + ?)",
                              (holder, lease_s))
                return None
            if row[0] != holder and row[1]:
                return row[0]
            self._execute(f"UPDATE floor_ingester SET holder = ?, lease_until = {now} + ? WHERE id = 1", (holder, lease_s))
            return None

    @property
    def _clock_sql(self) -> str:
        """The store's own time in seconds since 1970, as SQL."""
        return ("extract(epoch from clock_timestamp())::float8" if self.postgres
                else "((julianday('now') - 2440587.5) * 86400.0)")

    def release(self, holder: str) -> None:
        """An ingester that stops gives its lease up: the one started next stores at once."""
        with self._transaction():
            self._execute("UPDATE floor_ingester SET lease_until = 0 WHERE id = 1 AND holder = ?", (holder,))

    def _check_holder(self, holder: str) -> None:
        row = self._execute("SELECT holder FROM floor_ingester WHERE id = 1").fetchone()
        if row is None or row[0] != holder:
            raise LeaseLost(f"the ingester's lease is held by {row[0] if row else 'nobody'}, not by {holder}")

    def write_word(self, holder: str, lease_s: float, state: str, pending: int | None,
                   tables: Sequence[TableUpdate], anchors: Sequence[tuple[str, int, str, str]], *,
                   acked: int | None = None) -> None:
        """The ingester's periodic write, one transaction: its lease renewed, its state, what it keeps
        in memory of each table (heartbeats, what the stream delivered) and the anchors it sent; the
        refused messages up to stream sequence `acked` (the consumer's ack floor) forgotten."""
        with self._transaction():
            self._check_holder(holder)
            if acked:
                self._execute("DELETE FROM floor_refused WHERE stream_seq <= ?", (acked,))
            self._execute(f"UPDATE floor_ingester SET lease_until = {self._clock_sql} + ?, beat = ?, state = ?, pending = ? "
                          "WHERE id = 1", (lease_s, now_text(), state, pending))
            if tables:
                self._executemany(_INSERT_TABLE, [(t.table_id, GENESIS) for t in tables])
                self._executemany("UPDATE floor_tables SET last_heard = COALESCE(?, last_heard), seen_seq = ?, "
                                  "behind_since = ? WHERE table_id = ?",
                                  [(t.last_heard, t.seen_seq, t.behind_since, t.table_id) for t in tables])
            if anchors:
                self._executemany("UPDATE floor_tables SET anchor_seq = ?, anchor_hash = ?, anchor_time = ? "
                                  "WHERE table_id = ?", [(seq, digest, time, t) for t, seq, digest, time in anchors])

    def now(self) -> datetime:
        """The store's clock, which readers measure every age against: a pit boss's laptop whose clock
        is off would show live tables offline and the ingester silent. (SQLite is on the machine
        that reads it.)"""
        if self.postgres:
            return self._execute("SELECT clock_timestamp()").fetchone()[0]
        return datetime.now(timezone.utc)

    def ingester(self) -> IngesterRecord | None:
        row = self._execute("SELECT holder, beat, state, pending FROM floor_ingester WHERE id = 1").fetchone()
        return IngesterRecord(*map(_text, row)) if row else None

    def acknowledge_alarm(self, table_id: str, event_seq: int, by: str) -> bool:
        """Record who took up an open alarm; False when there is no such open alarm. In PostgreSQL
        through the function the pit bosses' role may run (pg_schema), whoever the login."""
        with self._transaction():
            if self.postgres:
                return bool(self._execute("SELECT floor_acknowledge_alarm(?, ?, ?)",
                                          (table_id, event_seq, by)).fetchone()[0])
            cur = self._execute("UPDATE floor_alarms SET acknowledged_by = ?, acknowledged = ?, change_no = ? "
                                "WHERE table_id = ? AND event_seq = ? AND acknowledged IS NULL",
                                (by, now_text(), self._change(), table_id, event_seq))
            return cur.rowcount == 1

    def record_anchor(self, table_id: str, seq: int, digest: str, time: str) -> None:
        with self._transaction():
            self._execute("UPDATE floor_tables SET anchor_seq = ?, anchor_hash = ?, anchor_time = ? WHERE table_id = ?",
                          (seq, digest, time, table_id))

    def _ensure_table(self, table_id: str) -> None:
        self._execute(_INSERT_TABLE, (table_id, GENESIS))

    # --- reading -------------------------------------------------------------------------------

    def head(self, table_id: str) -> tuple[int, str]:
        row = self._execute("SELECT head_seq, head_hash FROM floor_tables WHERE table_id = ?", (table_id,)).fetchone()
        return (int(row[0]), row[1]) if row else (0, GENESIS)

    def tables(self, table_ids: Sequence[str] | None = None) -> list[TableRecord]:
        """Every table's record by id, or those of these tables that have one."""
        rows = (self._execute(f"SELECT {TABLE_COLUMNS} FROM floor_tables ORDER BY table_id").fetchall()
                if table_ids is None else
                self._select_in(f"SELECT {TABLE_COLUMNS} FROM floor_tables WHERE table_id IN ({{marks}})", table_ids))
        return [TableRecord(*map(_text, row)) for row in rows]

    def table(self, table_id: str) -> TableRecord | None:
        row = self._execute(f"SELECT {TABLE_COLUMNS} FROM floor_tables WHERE table_id = ?", (table_id,)).fetchone()
        return TableRecord(*map(_text, row)) if row else None

    def alarms(self, open_only: bool = False) -> list[Alarm]:
        where = " WHERE acknowledged IS NULL" if open_only else ""
        cur = self._execute("SELECT table_id, event_seq, problem, raised, acknowledged_by, acknowledged, resumed_by, "
                            f"resumed, kind, table_alarm, answer_seq, acknowledged_at_table FROM floor_alarms{where} "
                            "ORDER BY raised")
        return [_alarm(*row) for row in cur.fetchall()]

    def refusals(self, open_only: bool = False) -> list[Refusal]:
        where = " WHERE acknowledged IS NULL" if open_only else ""
        cur = self._execute("SELECT subject, reason, detail, messages, raised, last_seen, acknowledged_by, acknowledged "
                            f"FROM floor_refusals{where} ORDER BY raised")
        return [Refusal(subject, RefusalReason(reason), detail, int(messages), _text(raised), _text(last_seen), by, _text(when))
                for subject, reason, detail, messages, raised, last_seen, by, when in cur.fetchall()]

    def alarm_changes(self, since: int = -1) -> "AlarmChanges":
        """The alarms and refusals raised or changed (acknowledged, resumed, counted) after change
        number `since`, in one round trip; every one with the default."""
        cur = self._execute(
            "SELECT 'a', table_id, event_seq, problem, NULL, NULL, raised, NULL, acknowledged_by, acknowledged, "
            "resumed_by, resumed, kind, table_alarm, answer_seq, acknowledged_at_table, change_no FROM floor_alarms "
            "WHERE change_no > ? UNION ALL SELECT 'r', subject, NULL, reason, detail, messages, raised, last_seen, "
            "acknowledged_by, acknowledged, NULL, NULL, NULL, NULL, NULL, NULL, change_no FROM floor_refusals "
            "WHERE change_no > ?",
            (since, since))
        changes = AlarmChanges(since)
        for (what, name, seq, problem, detail, messages, raised, last_seen, by, when, resumed_by, resumed, kind,
             table_alarm, answer_seq, at_table, change) in cur.fetchall():
            if what == "a":
                changes.alarms.append(_alarm(name, seq, problem, raised, by, when, resumed_by, resumed, kind,
                                             table_alarm, answer_seq, at_table))
            else:
                changes.refusals.append(Refusal(name, RefusalReason(problem), detail, int(messages), _text(raised),
                                                _text(last_seen), by, _text(when)))
            changes.upto = max(changes.upto, int(change))
        return changes

    def public_key(self, table_id: str) -> str | None:
        """The PEM of the table's enrolled public key; None for a table never enrolled."""
        row = self._execute("SELECT public_key FROM floor_keys WHERE table_id = ?", (table_id,)).fetchone()
        return row[0] if row else None

    def public_keys(self, table_ids: Sequence[str]) -> dict[str, str]:
        """`public_key` of many tables: those never enrolled are left out."""
        return dict(self._select_in("SELECT table_id, public_key FROM floor_keys WHERE table_id IN ({marks})",
                                    table_ids))

    def stored_hashes(self, table_id: str, seqs: Sequence[int]) -> dict[int, str]:
        """The hashes of these events of the table that are stored, by seq."""
        return {int(seq): digest for seq, digest in self._select_in(
            "SELECT seq, hash FROM floor_events WHERE table_id = ? AND seq IN ({marks})", seqs, table_id)}

    def event_body(self, table_id: str, seq: int) -> str | None:
        row = self._execute("SELECT body FROM floor_events WHERE table_id = ? AND seq = ?", (table_id, seq)).fetchone()
        return row[0] if row else None

    def answer_bodies(self) -> dict[tuple[str, int], str]:
        """The bodies of the tables' events that took up or ended their alarms (`answer_seq`), by
        (table, seq), in one query."""
        # Each by its key (a subquery a row: the planner never scans every event to join a few alarms).
        cur = self._execute("SELECT table_id, answer_seq, (SELECT body FROM floor_events e WHERE e.table_id = "
                            "a.table_id AND e.seq = a.answer_seq) FROM floor_alarms a WHERE answer_seq IS NOT NULL")
        return {(table_id, int(seq)): body for table_id, seq, body in cur.fetchall() if body is not None}

    def links(self, table_id: str, after: int = 0, upto: int | None = None) -> Iterator[Link]:
        """The stored rows of a table in seq order."""
        upto = 2**62 if upto is None else upto
        cur = self._execute("SELECT seq, time, kind, body, prev_hash, hash, mac, sig FROM floor_events "
                            "WHERE table_id = ? AND seq > ? AND seq <= ? ORDER BY seq", (table_id, after, upto))
        for seq, time, kind, body, prev_hash, digest, mac, sig in cur.fetchall():
            yield Link(int(seq), time, kind, body, prev_hash, digest, mac, sig=sig)

    def seq_of_hash(self, table_id: str, digest: str) -> int | None:
        if digest == GENESIS:
            return 0
        row = self._execute("SELECT seq FROM floor_events WHERE table_id = ? AND hash = ?", (table_id, digest)).fetchone()
        return int(row[0]) if row else None

    def event_times(self, table_id: str, kinds: Sequence[str], since_seq: int = 0) -> list[tuple[int, str]]:
        cur = self._execute(f"SELECT seq, body FROM floor_events WHERE table_id = ? AND seq > ? AND kind IN "
                            f"({_marks(kinds)}) ORDER BY seq", (table_id, since_seq, *kinds))
        return [(int(seq), body) for seq, body in cur.fetchall()]


    def summaries(self, table_ids: Sequence[str]) -> dict[str, tuple[int, str, str, str]]:
        """These tables' stored summaries, (seq, tile, state, base) as croupier.floor.summaries wrote
        them: those without one are left out."""
        return {table_id: (int(seq), tile, state, base) for table_id, seq, tile, state, base in self._select_in(
            "SELECT table_id, seq, tile, state, base FROM floor_summaries WHERE table_id IN ({marks})", table_ids)}

    def tiles(self, table_ids: Sequence[str] | None = None) -> dict[str, tuple[int, str]]:
        """The tables' stored summaries as the view reads them, (seq, tile); every table's, or these."""
        rows = (self._execute("SELECT table_id, seq, tile FROM floor_summaries").fetchall() if table_ids is None else
                self._select_in("SELECT table_id, seq, tile FROM floor_summaries WHERE table_id IN ({marks})", table_ids))
        return {table_id: (int(seq), tile) for table_id, seq, tile in rows}

    def spin_events(self, table_id: str) -> list[tuple[int, Event]]:
        """The table's stored results and corrections, as (seq, event) in order."""
        cur = self._execute("SELECT seq, body FROM floor_events WHERE table_id = ? AND kind IN (?, ?) ORDER BY seq",
                            (table_id, *(cls.kind for cls in SPIN_EVENTS)))
        return [(int(seq), decode(body)) for seq, body in cur.fetchall()]


@dataclass
class AlarmChanges:
    """What `alarm_changes` read: the rows changed, and the change number they bring a reader up to."""

    upto: int
    alarms: list[Alarm] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)


@dataclass
class Committed:
    """What a commit recorded for the first time: alarms (a table's, a broken chain) and refusal alarms."""

    raised: list[Alarm] = field(default_factory=list)
    refusals: list[RefusedMessages] = field(default_factory=list)


@dataclass(frozen=True)
class Batch:
    """One table's run of links to store (checked to follow `head`), with what goes with them."""

    table_id: str
    links: Sequence[Link]
    head: tuple[int, str]
    stream_seq: int | None = None  # the stream sequence of the last link
    tile: str | None = None  # the table's summary after the links (croupier.floor.summaries)
    state: str | None = None  # and its state, when it changed (None: the stored one stands)
    raised: Sequence[Alarm] = ()  # the alarms the links raise at the table
    answers: Sequence[TableAnswer] = ()  # the table's acknowledgements and clearings of its alarms
    base: str | None = None  # and its base watch, when it moved on (None: the stored one stands)


class _Transaction:
    def __init__(self, store: FloorStore) -> None:
        self.store = store

    def __enter__(self):
        if self.store.read_only:
            raise StoreError(f"{self.store.url} is open read-only")
        self.store._lock.acquire()
        try:  # a BEGIN that fails (server gone, write lock held elsewhere) must not keep the lock
            if self.store.postgres:
                self._pg = self.store._conn.transaction()
                self._pg.__enter__()
            else:
                self.store._conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.store._lock.release()
            raise
        return self

    def __exit__(self, kind, exc, tb) -> None:
        try:
            if self.store.postgres:
                self._pg.__exit__(kind, exc, tb)
                refused = _refused(self.store.url, exc)
                if refused is not None:  # rolled back: said in one line, not as psycopg's traceback
                    raise refused from None
            else:
                try:
                    self.store._conn.execute("ROLLBACK" if kind else "COMMIT")
                except sqlite3.Error:
                    if not kind:
                        raise
                    # the failed statement already ended the transaction: the first error is the one to tell
        finally:
            self.store._lock.release()


# Whether a PostgreSQL login writes the store (it owns it, or may insert its events; or there is none
# yet, which it makes), and whether it may acknowledge alarms (the pit bosses' role: it writes nothing else).
_PG_ACCESS = ("SELECT CASE WHEN to_regclass('floor_events') IS NULL THEN true "
              "ELSE has_table_privilege('floor_events', 'INSERT') END, "
              "COALESCE(has_function_privilege(to_regprocedure(%s)::oid, 'EXECUTE'), false)")
_INSERT_TABLE = ("INSERT INTO floor_tables (table_id, head_seq, head_hash) VALUES (?, 0, ?) "
                 "ON CONFLICT (table_id) DO NOTHING")


def _refused(url: str, exc: BaseException | None) -> StoreError | None:
    """What the server refused this login (a privilege it lacks, a name its functions refuse), as the
    StoreError that says so; None for any other failure."""
    import psycopg

    if not isinstance(exc, (psycopg.errors.InsufficientPrivilege, psycopg.errors.InvalidParameterValue)):
        return None
    return StoreError(f"{redacted(url)} refused it: {exc.diag.message_primary or str(exc).splitlines()[0]}")


def _make_schema(conn, postgres: bool) -> None:
    """The tables, and the columns added since the first stores (in the caller's transaction: a
    reader never sees a table without its new columns)."""
    time = "TIMESTAMPTZ" if postgres else "TEXT"
    for statement in SCHEMA:
        conn.execute(statement.format(time=time))
    for table, column, kind in ADDED_COLUMNS:
        kind = kind.format(time=time)
        if postgres:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
        elif column not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    for statement in INDEXES:  # on the added columns
        conn.execute(statement)
    # A store from before `acknowledged_at_table`: its table's names lose the marker the column replaces.
    conn.execute(f"UPDATE floor_alarms SET acknowledged_at_table = TRUE, acknowledged_by = substr(acknowledged_by, 1, "
                 f"length(acknowledged_by) - {len(LEGACY_AT_TABLE)}) WHERE acknowledged_by LIKE '%{LEGACY_AT_TABLE}'")


def _event_time(body: str) -> str | None:
    """The event's own time, when it is one a store takes (ISO 8601 with its offset)."""
    try:
        text = json.loads(body).get("time")
        return text if datetime.fromisoformat(text).tzinfo is not None else None
    except (ValueError, AttributeError, TypeError):
        return None


def _parts(values: list, size: int = 500) -> Iterator[list]:
    """`values` a few hundred at a time: the parameters of one statement."""
    for start in range(0, len(values), size):
        yield values[start:start + size]


def _alarm(table_id, seq, problem, raised, by, when, resumed_by, resumed, kind, table_alarm, answer_seq,
           at_table) -> Alarm:
    """An alarm from its row, as `alarms` and `alarm_changes` select it."""
    return Alarm(table_id, int(seq), problem, _text(raised), by, _text(when), resumed_by, _text(resumed), kind,
                 table_alarm, answer_seq, bool(at_table))


def _marks(values: Sequence) -> str:
    """The placeholders of an IN list of these values."""
    return ",".join("?" * len(values))


def _text(value):
    """A PostgreSQL timestamptz as the ISO 8601 text SQLite keeps: readers see one kind."""
    return value.isoformat() if isinstance(value, datetime) else value


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_store(url: str, *, read_only: bool = False) -> FloorStore:
    """The store at `url`: a PostgreSQL URL, or the path of an SQLite file (created unless read-only)."""
    if is_postgres(url):
        try:
            import psycopg
        except ImportError:
            raise StoreError("a PostgreSQL store needs psycopg: pip install 'croupier[floor-server]' "
                             "(on 32-bit ARM: apt install python3-psycopg)") from None
        try:
            # Bounded waits: a server that went away is an error in seconds, never a hang.
            server = psycopg.connect(url, autocommit=True, connect_timeout=5, keepalives=1, keepalives_idle=10,
                                     keepalives_interval=5, keepalives_count=3, tcp_user_timeout=20000)
            if read_only:
                server.execute("SET default_transaction_read_only = on")
                server.execute("SELECT count(*) FROM floor_tables").fetchone()
            else:
                writes, acknowledges = server.execute(_PG_ACCESS, (pg_schema.ACKNOWLEDGE_ALARM,)).fetchone() or ()
                if writes:
                    with server.transaction():
                        _make_schema(server, True)
                        pg_schema.upgrade(server)
                elif not acknowledges:
                    server.close()
                    raise ReadOnlyLogin(f"{redacted(url)}: this login only reads the floor store: it may neither "
                                        "write it nor acknowledge an alarm")
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"{redacted(url)}: store unavailable: {exc}".strip()) from None
        except psycopg.Error as exc:
            raise StoreError(f"{redacted(url)} is not a floor store or cannot be opened: {exc}".strip()) from None
        return FloorStore(server, url, True, read_only)
    path = Path(url.removeprefix("sqlite://"))
    if read_only and not path.is_file():
        raise StoreError(f"{path}: no such floor store")
    if not read_only and not path.parent.is_dir():
        raise StoreError(f"cannot create the floor store {path}: folder {path.parent} does not exist")
    try:
        mode = "ro" if read_only else "rwc"
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None,
                               check_same_thread=False, timeout=BUSY_S)
        if not read_only:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")  # an acknowledged message is on disk
            conn.execute("BEGIN IMMEDIATE")
            try:
                _make_schema(conn, False)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        else:
            conn.execute("SELECT count(*) FROM floor_tables").fetchone()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreUnavailable(f"{path}: store unavailable: {exc}") from None
        raise StoreError(f"{path} is not a floor store or cannot be opened: {exc}") from None
    except sqlite3.Error as exc:
        raise StoreError(f"{path} is not a floor store or cannot be opened: {exc}") from None
    return FloorStore(conn, str(path), False, read_only)
