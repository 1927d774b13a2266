"""The journal: an append-only SQLite file holding the table's events, hash-chained.

Durability: WAL with `synchronous=FULL` and one transaction per `append`, so once `append` returns
its events survive `kill -9` and a power cut. Rows are never updated or deleted: triggers in the
file itself refuse it. Each event's hash is SHA-256 over the previous hash, its sequence number and
its canonical encoding, so an edited, deleted, inserted or reordered row breaks the chain.

Snapshots of the folded state are stored beside the events, each tied to the hash of the event it
follows, so start-up reads one snapshot and the events after it instead of the whole history.

A file that is not a readable journal is never written to: opening it raises JournalError saying
what is wrong and how to recover.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from croupier.table.codec import CodecError, to_plain
from croupier.table.events import Event, decode, encode

FORMAT = "croupier-journal/1"
GENESIS = "0" * 64  # the "previous hash" of the first event

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TABLE snapshots (
    seq INTEGER PRIMARY KEY,
    event_hash TEXT NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    digest TEXT NOT NULL
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


def event_hash(prev_hash: str, seq: int, body: bytes) -> str:
    digest = hashlib.sha256(f"{prev_hash}\n{seq}\n".encode())
    digest.update(body)
    return digest.hexdigest()


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


@dataclass(frozen=True)
class Entry:
    seq: int
    event: Event
    hash: str


@dataclass(frozen=True)
class Snapshot:
    seq: int
    event_hash: str
    version: int
    state: str
    digest: str

    def intact(self) -> bool:
        return snapshot_digest(self.event_hash, self.version, self.state.encode()) == self.digest


class Journal:
    """One open journal file. Use `Journal.open(path)`; `read_only=True` for review and reports."""

    def __init__(self, path: Path, conn: sqlite3.Connection, read_only: bool) -> None:
        self.path = path
        self.read_only = read_only
        self._conn = conn
        self._lock = threading.Lock()
        self._head = self._read_head()

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, read_only: bool = False, create: bool = True) -> "Journal":
        path = Path(path)
        if not path.exists():
            if read_only or not create:
                raise JournalError(f"{path}: no such journal")
            return cls._create(path)
        if path.is_dir():
            raise JournalError(f"{path} is a directory, not a journal file")
        if path.stat().st_size == 0:
            raise JournalError(f"{path} is an empty file, not a journal. " + RECOVERY.format(path=path))
        mode = "ro" if read_only else "rw"
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True,
                                   isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"{path} cannot be opened: {exc}") from None
        try:
            cls._check_format(conn, path)
            if not read_only:
                # The format check read the file without writing; only a journal is set up for writing.
                cls._configure(conn)
            return cls(path, conn, read_only)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise JournalError(f"{path} cannot be read ({exc}). " + RECOVERY.format(path=path)) from None
        except JournalError:
            conn.close()
            raise

    @classmethod
    def _create(cls, path: Path) -> "Journal":
        """Make the journal under a temporary name and link it into place, so a crash while creating
        it leaves either no journal or a whole one, never a half-made file the table would refuse."""
        if not path.parent.is_dir():
            raise JournalError(f"cannot create {path}: folder {path.parent} does not exist")
        making = path.with_name(f".{path.name}.creating-{os.getpid()}")
        making.unlink(missing_ok=True)
        try:
            conn = sqlite3.connect(making, isolation_level=None)
            try:
                cls._configure(conn)
                conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA} INSERT INTO meta VALUES ('format', '{FORMAT}'); "
                                   f"{APPEND_ONLY} COMMIT;")
            finally:
                conn.close()  # the last connection folds the WAL into the file
            os.link(making, path)
            _sync_folder(path.parent)
        except FileExistsError:
            pass  # another program made it meanwhile: open theirs
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"cannot create journal {path}: {exc}") from None
        finally:
            making.unlink(missing_ok=True)
        return cls.open(path, create=False)

    @staticmethod
    def _configure(conn: sqlite3.Connection) -> None:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")

    @staticmethod
    def _check_format(conn: sqlite3.Connection, path: Path) -> None:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "events", "snapshots"} <= tables:
            raise JournalError(f"{path} is an SQLite file but not a croupier journal. " + RECOVERY.format(path=path))
        row = conn.execute("SELECT value FROM meta WHERE key='format'").fetchone()
        if row is None or row[0] != FORMAT:
            found = row[0] if row else "none"
            raise JournalError(f"{path} is a journal of format {found!r}; this program reads {FORMAT!r}")

    def close(self) -> None:
        self._conn.close()

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
        """Record the events of one command in one transaction; durable when this returns."""
        if self.read_only:
            raise JournalError(f"{self.path} is open read-only")
        rows = [(event, encode(event)) for event in events]
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
                    digest = event_hash(prev, seq, body)
                    self._conn.execute(
                        "INSERT INTO events (seq, time, kind, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?)",
                        (seq, to_plain(event.time), event.kind, body.decode(), prev, digest),
                    )
                    entries.append(Entry(seq, event, digest))
                    prev = digest
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
            self._head = (seq, prev)
        return entries

    def write_snapshot(self, seq: int, version: int, state: bytes) -> None:
        """Store the folded state as it stands after event `seq`."""
        row = self._conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            raise JournalError(f"no event {seq} to snapshot after")
        digest = snapshot_digest(row[0], version, state)
        with self._lock:
            self._conn.execute(
                "INSERT OR IGNORE INTO snapshots (seq, event_hash, version, state, digest) VALUES (?, ?, ?, ?, ?)",
                (seq, row[0], version, state.decode(), digest),
            )

    # --- reading ---------------------------------------------------------------------------

    def rows(self, after: int = 0) -> Iterator[Row]:
        """Stored events in sequence order, unchecked (for verification)."""
        cursor = self._conn.execute(
            "SELECT seq, time, kind, body, prev_hash, hash FROM events WHERE seq > ? ORDER BY seq", (after,)
        )
        for row in cursor:
            yield Row(*row)

    def links(self, upto: int) -> Iterator[tuple[int, str, str, str, str]]:
        """(seq, kind, body, prev_hash, hash) of the stored events up to `upto`, unchecked: plain
        tuples, for checking a year-long chain without building an object per event."""
        return iter(self._conn.execute(
            "SELECT seq, kind, body, prev_hash, hash FROM events WHERE seq <= ? ORDER BY seq", (upto,)))

    def entries(self, after: int = 0, after_hash: str | None = None) -> Iterator[Entry]:
        """Decoded events after `after`, each checked against its hash and its predecessor's.

        Raises JournalError at the first event that does not check: a damaged journal is never
        folded into a state the table would then act on.
        """
        if after_hash is None:
            after_hash = self._hash_at(after)
        prev = after_hash
        expected = after + 1
        for row in self.rows(after):
            if row.seq != expected or row.prev_hash != prev or event_hash(prev, row.seq, row.body.encode()) != row.hash:
                raise JournalError(
                    f"{self.path}: event {expected} does not match the hash chain: the journal was changed "
                    "outside this program or is damaged. " + RECOVERY.format(path=self.path)
                )
            try:
                event = decode(row.body)
            except CodecError as exc:
                raise JournalError(f"{self.path}: event {row.seq} cannot be read ({exc}). "
                                   + RECOVERY.format(path=self.path)) from None
            yield Entry(row.seq, event, row.hash)
            prev = row.hash
            expected += 1

    def records(self, kinds: Iterable[str]) -> Iterator[tuple[int, dict]]:
        """(seq, plain record) of the events of the given kinds, in order, for reports over a long
        history; unchecked (`croupier verify` checks the chain)."""
        kinds = list(kinds)
        marks = ",".join("?" * len(kinds))
        cursor = self._conn.execute(f"SELECT seq, body FROM events WHERE kind IN ({marks}) ORDER BY seq", kinds)
        loads = json.loads
        for seq, body in cursor:
            yield seq, loads(body)

    def seq_of_hash(self, digest: str) -> int | None:
        """The event with this hash, if any (a full scan: for explaining a broken chain)."""
        if digest == GENESIS:
            return 0
        row = self._conn.execute("SELECT seq FROM events WHERE hash = ?", (digest,)).fetchone()
        return row[0] if row else None

    def _hash_at(self, seq: int) -> str:
        if seq == 0:
            return GENESIS
        row = self._conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: event {seq} is missing. " + RECOVERY.format(path=self.path))
        return row[0]

    def snapshots(self) -> Iterator[Snapshot]:
        for row in self._conn.execute("SELECT seq, event_hash, version, state, digest FROM snapshots ORDER BY seq"):
            yield Snapshot(*row)

    def latest_snapshot(self, version: int) -> Snapshot | None:
        """The newest snapshot of this state version, checked against itself and the chain."""
        row = self._conn.execute(
            "SELECT seq, event_hash, version, state, digest FROM snapshots WHERE version = ? ORDER BY seq DESC LIMIT 1",
            (version,),
        ).fetchone()
        if row is None:
            return None
        snapshot = Snapshot(*row)
        if not snapshot.intact() or self._hash_at(snapshot.seq) != snapshot.event_hash:
            raise JournalError(
                f"{self.path}: the snapshot after event {snapshot.seq} does not match the journal. "
                + RECOVERY.format(path=self.path)
            )
        return snapshot
