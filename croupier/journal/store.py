"""The journal: an append-only SQLite file holding the table's events, hash-chained.

Durability: WAL with `synchronous=FULL` and one transaction per `append`, so once `append` returns
its events survive `kill -9` and a power cut. Rows are never updated or deleted: triggers in the
file itself refuse it. Each event's hash is SHA-256 over the previous hash and every column of the
row (sequence number, time, kind, canonical encoding), so an edited, deleted, inserted or reordered
row breaks the chain, which anyone can check. Beside it each row carries an HMAC of its hash with
the table's key (croupier.journal.key): only the table can extend or rewrite the chain, and
`croupier verify --key` checks that it did.

Snapshots of the folded state are stored beside the events, each tied to the hash of the event it
follows and signed with the key, so start-up reads one snapshot and the events after it instead of
the whole history. After each commit the head witness (croupier.journal.witness) records how far the
journal went, so a journal that lost its last commits is refused rather than continued.

A file that is not a readable journal is never written to: opening it raises JournalError saying
what is wrong and how to recover.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import hmac
import json
import os
import sqlite3
import threading
import typing
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from croupier.journal.checkpoints import CheckpointWriter, last_made
from croupier.journal.key import KeyFileError, default_key_path, key_for, key_id, mac
from croupier.journal.witness import (Witness, WitnessWriter, anchored_path, read_witness, signed_mark,
                                      verified_path, witness_path, write_mark)
from croupier.journal.signing import EventSigner, SigningKeyError, default_signing_key_path, fingerprint, \
    has_signatures, signing_key_for
from croupier.table.codec import CodecError, to_plain
from croupier.table.events import BallLaunched, BetsClosed, E, Event, decode, encode

# The cycle's own steps, whose commit the witness may record without a sync of its own: it is synced
# with the next commit (the result, at the latest). A witness behind its journal is allowed, so a
# power cut in between costs nothing; every result, correction, payout and alarm is witnessed
# durably when it is recorded. Two syncs a game fewer on an SD card.
WITNESS_MAY_WAIT = (BallLaunched, BetsClosed)
FORMAT = "croupier-journal/2"  # 2: every column hashed, the chain keyed, the head witnessed
GENESIS = "0" * 64  # the "previous hash" of the first event
TAIL_LINKS = 1000  # the last events whose links the table checks at start, whatever the snapshots
# The events' numbers alone, for the count at start: a year's journal counted from some 20 MB of
# pages instead of all of its own. Not part of the format (nothing hashed): made where missing.
SEQUENCE_INDEX = "CREATE INDEX IF NOT EXISTS events_sequence ON events(seq)"
TABLE, DEMO = "table", "demo"  # what a journal was created for: a demo never writes a table's journal

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    mac TEXT NOT NULL
);
CREATE TABLE snapshots (
    seq INTEGER PRIMARY KEY,
    event_hash TEXT NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    digest TEXT NOT NULL,
    mac TEXT NOT NULL
);
"""
# The journal is append-only in the file itself, whatever program opens it.
APPEND_ONLY = "".join(
    f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
    f"BEGIN SELECT RAISE(ABORT, 'the journal is append-only: {table} rows cannot be {past}'); END;\n"
    for table in ("meta", "events", "snapshots")
    for verb, past in (("UPDATE", "changed"), ("DELETE", "deleted"))
)

RECOVERY = (
    "Nothing was written to it. Keep the file (and any -wal and -shm files beside it) as they are; "
    "`croupier verify --db {path}` names the first damaged event; restore the last good copy, or "
    "start the table on a new journal file."
)


def _sync_folder(folder: Path) -> None:
    """Make a new directory entry durable (a power cut right after creating a file can lose it)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class JournalError(Exception):
    """The journal cannot be used as asked: the message says what is wrong and how to recover."""


class JournalBusy(JournalError):
    """Another program holds the journal for writing: this one touches none of its files."""


class UnreadableEvent(JournalError):
    """An event that would not read back as itself: refused before anything is written."""


class JournalFault(JournalError):
    """The journal cannot be written: the disk is full, read-only or failing. What was recorded
    before stays recorded; the table stops recording until the fault is fixed."""


def event_hash(prev_hash: str, seq: int, time: str, kind: str, body: bytes) -> str:
    digest = hashlib.sha256(f"{prev_hash}\n{seq}\n{time}\n{kind}\n".encode())
    digest.update(body)
    return digest.hexdigest()


def event_mac(key: bytes, digest: str) -> str:
    """The keyed signature of an event: its hash already covers the whole row and the chain."""
    signer = _event_signer(key).copy()  # the key's HMAC set up once: a year's check signs a million rows
    signer.update(digest.encode())
    return signer.hexdigest()


@lru_cache(maxsize=4)
def _event_signer(key: bytes) -> hmac.HMAC:
    return hmac.new(key, b"event\n", "sha256")


def snapshot_mac(key: bytes, digest: str) -> str:
    return mac(key, f"snapshot\n{digest}")


def write_fault(path: Path, exc: BaseException) -> JournalFault:
    """Plain words for a failed write: what happened, that nothing recorded is lost, what to do."""
    text = str(exc).lower()
    folder = _folder_state(path.parent)
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC or "full" in text or folder == "full":
        what = "the disk is full"
    elif (isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text
          or folder == "read-only"):
        what = "the journal's folder or disk is read-only"
    else:
        what = f"the disk failed ({exc})"
    return JournalFault(f"{path} cannot be written: {what}. Everything recorded before is kept; nothing more is "
                        "recorded until this is fixed. Free space or fix the disk, then start the table again.")


def snapshot_digest(event_hash_: str, version: int, state: bytes) -> str:
    digest = hashlib.sha256(f"snapshot\n{event_hash_}\n{version}\n".encode())
    digest.update(state)
    return digest.hexdigest()


@dataclass(frozen=True)
class Row:
    """One stored event exactly as it is in the file, before any check."""

    seq: int
    time: str
    kind: str
    body: str
    prev_hash: str
    hash: str
    mac: str
    sig: str | None = None  # the table's Ed25519 signature of `hash` (None: recorded before signing)


@dataclass(frozen=True)
class Entry:
    """One event of the journal with its seq and hash."""
    seq: int
    event: Event
    hash: str


@dataclass(frozen=True)
class Snapshot:
    """A snapshot of the table's state after an event, signed."""
    seq: int
    event_hash: str
    version: int
    state: str
    digest: str
    mac: str

    def intact(self, key: bytes | None = None) -> bool:
        """Its digest matches its content, and (given the key) the table signed it."""
        return (snapshot_digest(self.event_hash, self.version, self.state.encode()) == self.digest
                and (key is None or snapshot_mac(key, self.digest) == self.mac))


class Journal:
    """One open journal file. `Journal.open(path)` for the table (with the table's key),
    `read_only=True` for review and reports (which need no key)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, read_only: bool, key: bytes | None = None,
                 writer_lock: int | None = None) -> None:
        self.path = path
        self._writer_lock = writer_lock  # the file descriptor holding the one writer's lock
        self.read_only = read_only
        self.key = key
        self.signer: EventSigner | None = None  # the table's Ed25519 signer, set once a writer's checks pass
        self.checkpoints: CheckpointWriter | None = None  # the report's checkpoints, made as the table writes
        self._conn = conn
        self._signed = has_signatures(conn)
        self._lock = threading.Lock()
        self._witness: WitnessWriter | None = None
        self._fault: JournalFault | None = None  # the witness could not be written: no more appends
        self._head = self._read_head()

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, read_only: bool = False, create: bool = True,
             key: bytes | Path | None = None, purpose: str | None = None,
             signing_key: Path | None = None) -> "Journal":
        """Open the journal at `path`, creating it (and the table's key, if none) when absent.

        `key`: the table's key, or the file holding it; for writing, by default `table.key` beside
        the journal. `signing_key`: the file of the table's Ed25519 key (croupier.journal.signing),
        by default `table-signing.key` beside the journal, made there when absent. `purpose`: what
        the writing program is (TABLE, the default, or DEMO); a journal created for the other is refused. Raises JournalError saying what is wrong and how to recover.
        """
        path = Path(path)
        if not read_only:
            purpose = purpose or TABLE
        if not path.exists():
            if read_only or not create:
                raise JournalError(f"{path}: no such journal")
            return cls._create(path, key, purpose or TABLE, signing_key)
        if path.is_dir():
            raise JournalError(f"{path} is a directory, not a journal file")
        if path.stat().st_size == 0:
            raise JournalError(f"{path} is an empty file, not a journal. " + RECOVERY.format(path=path))
        mode = "ro" if read_only else "rw"
        lock = None if read_only else _writer_lock(path)  # before anything reads or writes the file
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True,
                                   isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            _release(lock)
            raise JournalError(f"{path} cannot be opened: {exc}") from None
        try:
            cls._check_format(conn, path, purpose)
            if not read_only or key is not None:
                key = _key(path, key, create=False)
                cls._check_key(conn, path, key)
            if not read_only:
                # The format check read the file without writing; only a journal is set up for writing.
                cls._configure(conn)
            journal = cls(path, conn, read_only, key, lock)
            if not read_only:
                journal._check_unbroken()  # all checked before the first write, the witness's included
                journal.signer = _signer(conn, path, signing_key)
                journal.checkpoints = CheckpointWriter(path, journal._signing_key(), journal.signer.key,
                                                       last_made(conn))
                journal._hold_witness()
            return journal
        except sqlite3.DatabaseError as exc:
            conn.close()
            _release(lock)
            if not read_only and _is_write_fault(exc):
                raise write_fault(path, exc) from None
            raise JournalError(f"{path} cannot be read ({exc}). " + RECOVERY.format(path=path)) from None
        except JournalError:
            conn.close()
            _release(lock)
            raise

    @classmethod
    def _create(cls, path: Path, key: bytes | Path | None, purpose: str, signing_key: Path | None) -> "Journal":
        """Make the journal under a temporary name and link it into place, so a crash while creating
        it leaves either no journal or a whole one, never a half-made file the table would refuse."""
        if not path.parent.is_dir():
            raise JournalError(f"cannot create {path}: folder {path.parent} does not exist")
        key = _key(path, key, create=True)
        making = path.with_name(f".{path.name}.creating-{os.getpid()}")
        making.unlink(missing_ok=True)
        try:
            conn = sqlite3.connect(making, isolation_level=None)
            try:
                cls._configure(conn)
                meta = ", ".join(f"('{name}', '{value}')" for name, value in
                                 (("format", FORMAT), ("key", key_id(key)), ("purpose", purpose)))
                conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA} {SEQUENCE_INDEX}; INSERT INTO meta VALUES {meta}; "
                                   f"{APPEND_ONLY} COMMIT;")
            finally:
                conn.close()  # the last connection folds the WAL into the file
            os.link(making, path)
            _sync_folder(path.parent)
        except FileExistsError:
            pass  # another program made it meanwhile: open theirs
        except (sqlite3.Error, OSError) as exc:
            if _is_write_fault(exc):
                raise write_fault(path, exc) from None
            raise JournalError(f"cannot create journal {path}: {exc}") from None
        finally:
            making.unlink(missing_ok=True)
        return cls.open(path, create=False, key=key, purpose=purpose, signing_key=signing_key)

    @staticmethod
    def _configure(conn: sqlite3.Connection) -> None:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")

    @staticmethod
    def _check_format(conn: sqlite3.Connection, path: Path, purpose: str | None) -> None:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "events", "snapshots"} <= tables:
            raise JournalError(f"{path} is an SQLite file but not a croupier journal. " + RECOVERY.format(path=path))
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        found = meta.get("format", "none")
        if found != FORMAT:
            older = found.startswith("croupier-journal/") and found < FORMAT
            raise JournalError(
                f"{path} is a journal of format {found!r}; this program reads {FORMAT!r}"
                + (" (an older format, whose chain leaves columns out and has no key: this program cannot vouch "
                   "for it; keep it as the record of its shifts and start the table on a new journal file)"
                   if older else ""))
        made_for = meta.get("purpose", TABLE)
        if purpose is not None and made_for != purpose:
            raise JournalError(
                f"{path} is a demo journal: its results are simulated, and a table never records to it"
                if made_for == DEMO else
                f"{path} is a table's journal: the demo writes only to a journal it created itself")

    @staticmethod
    def _check_key(conn: sqlite3.Connection, path: Path, key: bytes) -> None:
        row = conn.execute("SELECT value FROM meta WHERE key = 'key'").fetchone()
        if row is None or row[0] != key_id(key):
            raise JournalError(f"{path} was not made with this table's key: use the key it was created with "
                               "(its backup), or start the table on a new journal file")

    def _check_unbroken(self) -> None:
        """Before the table appends: nothing lost from the file's pages, the events numbered 1 to
        the head with none missing (their count: the head's number), and the last TAIL_LINKS of
        them chained to the head and signed. Cheap at any age: the count walks the table's pages,
        no event is read. A hole further back is `croupier verify`'s to find in full."""
        from croupier.journal.verify import chain  # the one chain check; it imports this module

        problem = self.lost() or self.rolled_back()
        seq = self._head[0]
        if problem is None and seq:
            (count,) = self._one("SELECT count(*) FROM events") or (0,)  # alone: the index's pages are counted
            (first,) = self._one("SELECT min(seq) FROM events") or (None,)
            if count != seq or first != 1:
                problem = f"event {self._first_missing()} is missing: the journal holds {count} events, its last is {seq}"
        if problem is not None:
            raise JournalError(f"{self.path}: {problem}. " + RECOVERY.format(path=self.path))
        after = max(0, seq - TAIL_LINKS)
        for _ in chain(self.links(seq, after), self.key, (after, self._hash_at(after)), path=self.path):
            pass

    def index_sequence(self) -> None:
        """Make the index the count at start reads (once, on a journal made before it existed: a
        long journal takes a while). Only for a journal the table has accepted: a refused file is
        never written to."""
        try:
            self._conn.execute(SEQUENCE_INDEX)
        except sqlite3.Error as exc:
            if _is_write_fault(exc):
                raise write_fault(self.path, exc) from None
            raise

    def lost(self) -> str | None:
        """What the file's own shape says was lost though no row says so: a file cut short of a
        whole page, or pages in a journal with no event readable in them."""
        page_size, pages = ((self._one(f"PRAGMA {name}") or (0,))[0] for name in ("page_size", "page_count"))
        size = self.path.stat().st_size
        if page_size and size % page_size:
            return f"the file was cut short: its {size} bytes are not a whole number of {page_size}-byte pages"
        empty = 1 + (self._one("SELECT count(*) FROM sqlite_master WHERE rootpage > 0") or (0,))[0]
        if self._head[0] == 0 and pages > empty:
            return (f"no event can be read from its {pages} pages (a journal without events has {empty}): "
                    "its events were lost")
        return None

    def rolled_back(self) -> str | None:
        """What the signed marks beside the journal say (verify's, and the last floor anchor the
        table recorded): the journal once reached further than it does now, or held another event
        where a mark stands (an older copy put back, and maybe continued). A mark that is missing,
        unreadable or not signed with this table's key says nothing."""
        if self.key is None:
            return None
        seq, digest = self._head
        for path, who in ((verified_path(self.path), "`croupier verify --key` checked it"),
                          (anchored_path(self.path), "the floor anchored it")):
            mark = signed_mark(path, self.key)
            if mark is None:
                continue
            marked = f"{who} to event {mark.seq}, sha256 {mark.hash} ({path.name}, signed)"
            if mark.seq > seq:
                return f"the journal ends at event {seq}, sha256 {digest}, but {marked}: an older copy was put back"
            if self.hash_at(mark.seq) != mark.hash:
                return (f"its event {mark.seq} is not the one {marked}: an older copy was put back and written on, "
                        f"to event {seq}, sha256 {digest}")
        return None

    def note_anchor(self, seq: int, digest: str) -> None:
        """Keep, signed beside the journal, the floor's last receipt: an older copy of the journal
        put back without the floor is then caught at the table too. Best effort: the receipt is in
        the journal already."""
        try:
            write_mark(anchored_path(self.path), self._signing_key(), seq, digest)
        except OSError:
            pass

    def _first_missing(self) -> int:
        """The first number missing from the events' sequence (a full scan: for naming a hole)."""
        row = self._one("SELECT e.seq + 1 FROM events e WHERE NOT EXISTS "
                        "(SELECT 1 FROM events n WHERE n.seq = e.seq + 1) ORDER BY e.seq LIMIT 1")
        first = self._one("SELECT min(seq) FROM events")
        return 1 if first and first[0] != 1 else row[0] if row else 1

    def _hold_witness(self) -> None:
        """Check the journal against its head witness, then keep the witness open for writing."""
        found = self.witness()
        seq, digest = self._head
        if found is None and seq:
            raise JournalError(
                f"{self.path}: its head witness {witness_path(self.path)} is missing, so whether its last events "
                "are all there cannot be told: `croupier verify --key` checks it; " + RECOVERY.format(path=self.path))
        if found is not None:
            problem = witness_problem(self, found)
            if problem:
                raise JournalError(f"{self.path}: {problem}. " + RECOVERY.format(path=self.path))
        try:
            self._witness = WitnessWriter(witness_path(self.path), self._signing_key())
            if found is None:  # a new journal: its witness starts at the genesis
                self._witness.record(seq, digest)
                _sync_folder(self.path.parent)
        except OSError as exc:
            raise write_fault(witness_path(self.path), exc) from None

    def witness(self) -> Witness | None:
        """The journal's head witness (None if it has none). Raises JournalError if it is damaged."""
        try:
            return read_witness(witness_path(self.path))
        except (OSError, ValueError) as exc:
            raise JournalError(f"{self.path}: its head witness cannot be read ({exc})") from None

    def close(self) -> None:
        if self._witness is not None:
            self._witness.close()
            self._witness = None
        self._conn.close()
        _release(self._writer_lock)
        self._writer_lock = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ---------------------------------------------------------------------------

    @property
    def head(self) -> tuple[int, str]:
        """(sequence number, hash) of the last event; (0, GENESIS) for an empty journal."""
        return self._head

    def reread_head(self) -> tuple[int, str]:
        """A reader's head moved on to what the file holds now (the table goes on writing)."""
        if not self.read_only:
            raise JournalError(f"{self.path}: only a read-only journal follows another program's writes")
        self._head = self._read_head()
        return self._head

    def _read_head(self) -> tuple[int, str]:
        row = self._conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def append(self, events: Sequence[Event]) -> list[Entry]:
        """Record the events of one command in one transaction, then the new head in the witness;
        durable when this returns. Raises JournalFault, keeping what was recorded before, when the
        disk cannot take them."""
        key, witness, signer = self._signing_key(), self._witness, self.signer
        if witness is None or signer is None:
            raise JournalError(f"{self.path} is closed")
        if self._fault is not None:
            raise self._fault
        rows = [(event, self._readable(event)) for event in events]
        with self._lock:
            seq, prev = self._head
            entries = []
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                if self._read_head() != self._head:
                    raise JournalError(
                        f"{self.path} was written by another program since it was opened; "
                        "only one table program may write a journal at a time"
                    )
                for event, body in rows:
                    seq += 1
                    time, kind = to_plain(event.time), event.kind
                    digest = event_hash(prev, seq, time, kind, body)
                    self._conn.execute(
                        "INSERT INTO events (seq, time, kind, body, prev_hash, hash, mac) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (seq, time, kind, body.decode(), prev, digest, event_mac(key, digest)),
                    )
                    signer.record(self._conn, seq, digest)
                    entries.append(Entry(seq, event, digest))
                    prev = digest
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                if _is_write_fault(exc):
                    raise write_fault(self.path, exc) from None
                raise
            except BaseException:
                self._rollback()
                raise
            self._head = (seq, prev)
            if self.checkpoints is not None:
                self.checkpoints.after(seq)
            try:
                witness.record(seq, prev, sync=not all(isinstance(event, WITNESS_MAY_WAIT) for event in events))
            except OSError as exc:
                # These events are in (a witness behind the journal is no damage): they are returned,
                # for the table to show them; the next append says what is wrong and writes nothing.
                self._fault = write_fault(witness_path(self.path), exc)
        return entries

    def _readable(self, event: Event) -> bytes:
        """The event's canonical bytes, once they are known to decode back to the same event: the
        journal never holds an event that it, or a reader after it, cannot read."""
        try:
            body = encode(event)
            if decode(body) == event:
                return body
            problem = "it reads back as a different event"
        except CodecError as exc:
            problem = str(exc)
        raise UnreadableEvent(f"{self.path}: a {event.kind} event would not read back ({problem}); "
                              "nothing was recorded")

    def _signing_key(self) -> bytes:
        """The table's key: only a journal opened for writing signs with it."""
        if self.read_only or self.key is None:
            raise JournalError(f"{self.path} is open read-only")
        return self.key

    def _rollback(self) -> None:
        try:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite already rolled back after a failed write

    def write_snapshot(self, seq: int, version: int, state: bytes) -> None:
        """Store the folded state as it stands after event `seq`."""
        row = self._conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            raise JournalError(f"no event {seq} to snapshot after")
        digest = snapshot_digest(row[0], version, state)
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT OR IGNORE INTO snapshots (seq, event_hash, version, state, digest, mac) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (seq, row[0], version, state.decode(), digest, snapshot_mac(self._signing_key(), digest)),
                )
            except sqlite3.Error as exc:
                if _is_write_fault(exc):
                    raise write_fault(self.path, exc) from None
                raise

    # --- reading ---------------------------------------------------------------------------

    def _read(self, sql: str, parameters: tuple = ()) -> Iterator[tuple]:
        """The rows of a query; a damaged file raises JournalError naming it, never a traceback."""
        try:
            for row in self._conn.execute(sql, parameters):  # not `yield from`: it would close the cursor
                yield row                                     # after the journal, when dropped unfinished
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from None

    def _one(self, sql: str, parameters: tuple = ()) -> tuple | None:
        try:
            return self._conn.execute(sql, parameters).fetchone()
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from None

    def _damaged(self, exc: sqlite3.DatabaseError) -> JournalError:
        return JournalError(f"{self.path} cannot be read ({exc}). " + RECOVERY.format(path=self.path))

    def rows(self, after: int = 0) -> Iterator[Row]:
        """Stored events in sequence order, unchecked (for verification)."""
        self._signed = self._signed or has_signatures(self._conn)  # the table may have added it since
        sig, join = ("s.sig", " LEFT JOIN signatures s USING (seq)") if self._signed else ("NULL", "")
        for row in self._read(f"SELECT seq, time, kind, body, prev_hash, hash, mac, {sig} FROM events{join} "
                              "WHERE seq > ? ORDER BY seq", (after,)):
            yield Row(*row)

    def links(self, upto: int, after: int = 0) -> Iterator[tuple[int, str, str, str, str, str, str]]:
        """(seq, time, kind, body, prev_hash, hash, mac) of the stored events after `after` up to
        `upto`, unchecked: plain tuples, for checking a year-long chain without an object per event."""
        return self._read("SELECT seq, time, kind, body, prev_hash, hash, mac FROM events "
                          "WHERE seq > ? AND seq <= ? ORDER BY seq", (after, upto))

    def entries(self, after: int = 0, after_hash: str | None = None) -> Iterator[Entry]:
        """Decoded events after `after`, each checked against the chain (and the key, when the
        journal was opened with it).

        Raises JournalError at the first event that does not check: a damaged journal is never
        folded into a state the table would then act on.
        """
        from croupier.journal.verify import chain  # the one chain check; it imports this module

        if after_hash is None:
            after_hash = self._hash_at(after)
        for seq, _time, _kind, body, _prev, digest, _mac in chain(self.links(2**62, after), self.key, (after, after_hash),
                                                                  path=self.path):
            try:
                event = decode(body)
            except CodecError as exc:
                raise JournalError(f"{self.path}: event {seq} cannot be read ({exc}). "
                                   + RECOVERY.format(path=self.path)) from None
            yield Entry(seq, event, digest)

    def records(self, kinds: Iterable[str], *, upto: int | None = None, times: tuple[str, str] | None = None,
                after: int = 0) -> Iterator[tuple[int, dict]]:
        """(seq, plain record) of the events of the given kinds, in order, for reports over a long
        history; unchecked (`croupier verify` checks the chain). `after`: events after this one only;
        `upto`: events up to this one only;
        `times`: from the first event recorded at or after the first time to the first recorded at or
        after the second (excluded): in recorded order, so an event whose clock was set back is
        filed with the events before it, not with a day already past."""
        loads = json.loads
        for seq, body in self._bodies(kinds, upto=upto, times=times, after=after):
            yield seq, loads(body)

    def _bodies(self, kinds: Iterable[str], *, upto: int | None = None, times: tuple[str, str] | None = None,
                after: int = 0) -> Iterator[tuple[int, str]]:
        kinds = list(kinds)
        sql = f"SELECT seq, body FROM events WHERE kind IN ({','.join('?' * len(kinds))})"
        parameters: list = list(kinds)
        if upto is not None:
            sql += " AND seq <= ?"
            parameters.append(upto)
        if after:
            sql += " AND seq > ?"
            parameters.append(after)
        if times is not None:
            sql += (" AND seq >= coalesce((SELECT min(seq) FROM events WHERE time >= ?), 1 << 62)"
                    " AND seq < coalesce((SELECT min(seq) FROM events WHERE time >= ?), 1 << 62)")
            parameters += times
        return self._read(sql + " ORDER BY seq", tuple(parameters))

    def events(self, classes: Iterable[type[E]], *, upto: int | None = None,
               times: tuple[str, str] | None = None, after: int = 0) -> Iterator[tuple[int, E]]:
        """(seq, event) of the events of the given classes, decoded, in order, as `records` selects
        them (unchecked: `croupier verify` checks the chain)."""
        for seq, body in self._bodies([cls.kind for cls in classes], upto=upto, times=times, after=after):
            yield seq, typing.cast(E, decode(body))

    def seq_of_hash(self, digest: str) -> int | None:
        """The event with this hash, if any (a full scan: for explaining a broken chain)."""
        if digest == GENESIS:
            return 0
        row = self._one("SELECT seq FROM events WHERE hash = ?", (digest,))
        return row[0] if row else None

    def _hash_at(self, seq: int) -> str:
        if seq == 0:
            return GENESIS
        row = self._one("SELECT hash FROM events WHERE seq = ?", (seq,))
        if row is None:
            raise JournalError(f"{self.path}: event {seq} is missing. " + RECOVERY.format(path=self.path))
        return row[0]

    def hash_at(self, seq: int) -> str | None:
        """The stored hash of event `seq`, None if there is no such event."""
        try:
            return self._hash_at(seq)
        except JournalError:
            return None

    def snapshots(self, after: int = 0, *, newest_first: bool = False) -> Iterator[Snapshot]:
        order = "DESC" if newest_first else ""
        for row in self._read("SELECT seq, event_hash, version, state, digest, mac FROM snapshots WHERE seq > ? "
                              f"ORDER BY seq {order}", (after,)):
            yield Snapshot(*row)

    def latest_snapshot(self, version: int) -> Snapshot | None:
        """The newest snapshot of this state version, checked against itself, the chain and (when
        the journal was opened with it) the key."""
        row = self._one("SELECT seq, event_hash, version, state, digest, mac FROM snapshots "
                        "WHERE version = ? ORDER BY seq DESC LIMIT 1", (version,))
        if row is None:
            return None
        snapshot = Snapshot(*row)
        if not snapshot.intact(self.key) or self._hash_at(snapshot.seq) != snapshot.event_hash:
            raise JournalError(
                f"{self.path}: the snapshot after event {snapshot.seq} does not match the journal"
                + (" or was not written by this table" if self.key else "") + ". " + RECOVERY.format(path=self.path)
            )
        return snapshot


def witness_problem(journal: Journal, witness: Witness) -> str | None:
    """What the head witness says is wrong with the journal (events missing from its end, or a
    different event where it recorded the head), or None when the journal reaches it."""
    seq = journal.head[0]
    if journal.key is not None and not witness.signed(journal.key):
        return f"its head witness {witness_path(journal.path)} was not written by this table (its signature fails)"
    if witness.seq > seq:
        return (f"events {seq + 1} to {witness.seq} are missing: the journal ends at event {seq} but its head "
                f"witness recorded event {witness.seq} (its -wal file was lost or deleted, or an older copy was "
                "put back)")
    if journal.hash_at(witness.seq) != witness.hash:
        return f"event {witness.seq} differs from the one its head witness recorded: the journal was rewritten"
    return None


def _writer_lock(path: Path) -> int:
    """An exclusive lock on the journal file, held while it is open for writing: a second writer is
    refused at once, before it reads or writes any of the journal's files. (flock, not SQLite's
    own locks: those are taken only for each transaction, after the second program has started.)"""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        raise JournalError(f"{path} cannot be opened: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise JournalBusy(f"{path} is being written by another program (a table or `croupier run` on it): only one "
                          "program writes a journal at a time; nothing was read or written") from None
    return fd


def _release(lock: int | None) -> None:
    if lock is not None:
        os.close(lock)  # the lock goes with the descriptor


def _key(path: Path, key: bytes | Path | None, *, create: bool) -> bytes:
    if isinstance(key, bytes):
        return key
    try:
        return key_for(key or default_key_path(path), create=create)
    except KeyFileError as exc:
        raise JournalError(str(exc)) from None


def _signer(conn: sqlite3.Connection, path: Path, signing_key: Path | None) -> EventSigner:
    """The table's signer for a journal opened for writing; the journal remembers the key's
    fingerprint the first time, and refuses any other key after."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'signing'").fetchone()
    try:  # a key is made only for a journal that has none yet: a lost key is restored, not replaced
        signer = EventSigner(signing_key_for(signing_key or default_signing_key_path(path), create=row is None))
    except SigningKeyError as exc:
        raise JournalError(str(exc)) from None
    mine = fingerprint(signer.key.public_key())
    if row is not None and row[0] != mine:
        raise JournalError(f"{path} is signed with the key of fingerprint {row[0]}, not {mine}: use the signing key "
                           "it was recorded with (its backup), or start the table on a new journal file")
    if row is None or not has_signatures(conn):
        signer.prepare(conn)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('signing', ?)", (mine,))
    return signer


def _folder_state(folder: Path) -> str | None:
    """"read-only" or "full" when the folder's filesystem says so (SQLite's own words are vaguer)."""
    try:
        fs = os.statvfs(folder)
    except OSError:
        return None
    if fs.f_flag & os.ST_RDONLY or not os.access(folder, os.W_OK):
        return "read-only"
    return "full" if fs.f_bavail == 0 else None


def _is_write_fault(exc: BaseException) -> bool:
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO, errno.EDQUOT)
    text = str(exc).lower()
    return any(words in text for words in ("full", "readonly", "read-only", "disk i/o error", "unable to open"))
