"""The report's checkpoints: the report's fold as the table itself folded its own journal, kept in the
journal file and signed with the table's Ed25519 key, so that any reader (`croupier report`) starts
from the newest one it can verify and folds only the events after it. No cache is needed.

A checkpoint is one row of `report_checkpoints`: the event it was folded up to (seq and hash), the
code that folded it (`fold_codec.stamp`), the fold in `fold_codec`'s plain format (reading it runs no
code), with the continuous watch's charts after its spins, and the table's signature over all of
that. The table has one made by a program of its own (`CheckpointWriter`) from the checkpoint before
and the events since, checked against the chain and the table's key first; so the events it vouches for
were each checked once, by the table, and its figures are the report's own over them.

A reader takes a checkpoint up only when its signature checks with the table's public key, when it
was made by this code, and when the journal still has, at the event it reached, the hash it names:
the chain ties that hash to every event before it. Anything else is ignored, with a notice naming
the checkpoint and why, and the reader goes on to the one before, or folds everything.

What a report from a checkpoint did not check: the events before it (the table checked them when it
folded them; `croupier verify` checks the whole chain again). Checkpoints are not part of the
record: the table keeps the newest KEEP and removes older ones, and removing any only makes a
report fold more.
"""
from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import sqlite3
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from croupier.history.context import KINDS, JournalContext, context_from_plain, context_plain, journal_context
from croupier.journal import fold_stamp
from croupier.journal.signing import fingerprint, sign_checkpoint

if TYPE_CHECKING:
    from croupier.journal.report import ReportFold

log = logging.getLogger(__name__)

SCHEMA = ("CREATE TABLE IF NOT EXISTS report_checkpoints (seq INTEGER PRIMARY KEY, event_hash TEXT NOT NULL, "
          "stamp TEXT NOT NULL, fold BLOB NOT NULL, sig TEXT NOT NULL)")
KEEP = 2  # the newest, and the one before in case the newest cannot be read
EVERY = 5_000  # events between checkpoints at the least ...
SHARE = 64  # ... and at most this share of the journal: a reader folds at most 1/64 of it
Notice = Callable[[str], None]


def due(head: int, last: int) -> bool:
    """A checkpoint is due at event `head` when the last was made after event `last`: every
    EVERY events, less often as the journal grows, so the table's cost per event stays the same
    while a fold (which grows with the spins) is written."""
    return head - last >= max(EVERY, head // SHARE)


def _message(seq: int, event_hash: str, stamp: str, fold: bytes) -> bytes:
    return f"{seq}\n{event_hash}\n{stamp}\n{hashlib.sha256(fold).hexdigest()}".encode()


@dataclass
class Start:
    """A checkpoint taken up: the fold, the event it reached (seq, hash), the key that signed it, and
    the watch's charts after its first `spun` spins, valid while those spins' numbers are unchanged."""

    fold: ReportFold
    reached: tuple[int, str]
    fingerprint: str
    charts: list
    spun: int
    numbers_digest: str
    context: JournalContext  # the journal's context up to `reached`: currency and time zone, and when each took force

    def watched(self, numbers: bytes) -> tuple[Sequence, int] | None:
        """The charts to go on from, for the spins `numbers` (all, after the events since): None
        when a correction since changed one of the spins the charts have seen."""
        if len(numbers) < self.spun or hashlib.sha256(numbers[:self.spun]).hexdigest() != self.numbers_digest:
            return None
        return self.charts, self.spun


def _rows(journal) -> Iterator[tuple]:
    """The checkpoints, newest first; none in a journal the table has made none in."""
    try:
        yield from journal._read("SELECT seq, event_hash, stamp, fold, sig FROM report_checkpoints ORDER BY seq DESC")
    except Exception as exc:  # no such table: a journal made before checkpoints, or none made yet
        if "no such table" not in str(exc):
            raise


def newest(journal, public_key, notice: Notice) -> Start | None:
    """The newest checkpoint of `journal` that checks with the table's `public_key` (an
    Ed25519PublicKey; None: none is taken up), this code and the journal's chain; each one that
    does not is named in a notice."""
    from croupier.journal import fold_codec
    from croupier.journal.signing import checkpoint_signed

    stamp = None
    for seq, event_hash, made_by, data, signature in _rows(journal):
        def skip(why: str) -> None:
            notice(f"the table's checkpoint after event {seq} was not used ({why})")

        if public_key is None:
            skip("the table's public key cannot be read, so its signature cannot be checked")
            return None
        if not checkpoint_signed(public_key, _message(seq, event_hash, made_by, bytes(data)), signature):
            skip(f"it is not signed by the table's key, fingerprint {fingerprint(public_key)}: forged, altered or "
                 "another table's")
            continue
        stamp = stamp or fold_stamp.stamp()
        if made_by != stamp:
            skip("it was made by another version of croupier")
            continue
        if journal.hash_at(seq) != event_hash:
            skip(f"the journal does not have, at event {seq}, the event it was made from")
            continue
        try:
            stream = io.BytesIO(zlib.decompress(data))
            header, document = fold_codec.read_header(stream)
            if header.get("reached") != [seq, event_hash]:
                raise fold_codec.FoldFormatError("it names another event than its row")
            fold = fold_codec.read_fold(document, stream)
            watch = header["watch"]
            from croupier.stats.watch import Chart

            charts = [Chart(tuple(pockets), value, highest, alarm_at, risen, last)
                      for pockets, value, highest, alarm_at, risen, last in watch["charts"]]
            context = context_of(header)
        except (zlib.error, fold_codec.FoldFormatError, KeyError, TypeError, ValueError) as exc:
            skip(f"it cannot be read: {exc}")
            continue
        return Start(fold, (seq, event_hash), fingerprint(public_key), charts, watch["spun"], watch["numbers"],
                     context)
    return None


def context_of(header: dict) -> JournalContext:
    """A checkpoint's journal context; from its last opening in a checkpoint made before changes
    of currency and time zone were kept."""
    if "context" in header:
        return context_from_plain(header["context"])
    from croupier.table.events import from_record

    return journal_context([(0, from_record(header["opening"]))] if header.get("opening") else [])


def table_public_key(journal_path: Path):
    """The table's public key beside its journal (table-signing.pub), None when it cannot be read."""
    from croupier.journal.signing import SigningKeyError, default_signing_key_path, public_path, read_public_key

    try:
        return read_public_key(public_path(default_signing_key_path(journal_path)))
    except SigningKeyError:
        return None


def journal_spins(journal, public_key, notice: Notice):
    """Every counted spin of the journal in columns (`SpinColumns`), from the newest checkpoint that
    checks and the results recorded after it (read as `Journal.events` reads them); the watch's
    charts to go on from (or None); and the event the checkpoint reached (0: none was taken up)."""
    from croupier.history.spins import SpinList

    start = newest(journal, public_key, notice)
    spins = start.fold.spins if start else SpinList()
    spins.add_all(journal.events(SpinList.EVENTS, after=start.reached[0] if start else 0))
    columns = spins.columns()
    return columns, start.watched(columns.numbers) if start else None, start.reached[0] if start else 0


def journal_spins_of_file(path: str) -> None:
    """`journal_spins` of the journal at `path`, with the table's public key beside it, written to
    stdout pickled: (columns, charts, event, notices), or ("error", why). For a screen that reads a
    year's spins beside itself, in a process of its own
    (`python -c "from croupier.journal.checkpoints import journal_spins_of_file as s; s(PATH)"`)."""
    import pickle
    import sys

    from croupier.journal.store import Journal, JournalError

    notices: list[str] = []
    try:
        with Journal.open(path, read_only=True) as journal:
            found = (*journal_spins(journal, table_public_key(journal.path), notices.append), notices)
    except JournalError as error:
        found = ("error", str(error))
    sys.stdout.buffer.write(pickle.dumps(found))


def make(journal, key: bytes, signing_key, upto: int, notice: Notice = log.warning) -> bytes | None:
    """The checkpoint of `journal` (open read-only, `key` the table's key) at event `upto`: its row's
    fold, made from the newest checkpoint before and the events since, each checked against the chain
    and the key first. None when they do not check (the notice says why)."""
    from croupier.journal import fold_codec
    from croupier.journal.report import REPORT_EVENTS, ReportFold
    from croupier.journal.store import GENESIS
    from croupier.journal.verify import ChainCheck, JournalDamaged
    from croupier.rules import wheel
    from croupier.rules.profiles import numbering_of
    from croupier.stats.watch import watch

    start = newest(journal, signing_key.public_key(), notice)
    fold, since = (start.fold, start.reached) if start else (ReportFold(), (0, GENESIS))
    try:
        check = ChainCheck(journal, key, since=since, upto=upto)
        fold.add_all(check.events(REPORT_EVENTS))
    except JournalDamaged as damaged:
        notice(f"no report checkpoint after event {upto}: {damaged}")
        return None
    numbers = fold.spins.columns().numbers
    order = wheel.numbering(numbering_of(fold.procedures.profile))
    went_on = start.watched(numbers) if start else None
    charts = watch(numbers[went_on[1]:], order, *went_on) if went_on else watch(numbers, order)
    context = journal_context(journal.events(KINDS, after=since[0], upto=upto),
                              start.context if start else JournalContext())
    header = {"reached": list(check.head), "stamp": fold_stamp.stamp(), "context": context_plain(context),
              "watch": {"spun": len(numbers), "numbers": hashlib.sha256(numbers).hexdigest(),
                        "charts": [[list(c.pockets), c.value, c.highest, c.alarm_at, c.risen, c.last]
                                   for c in charts]}}
    out = io.BytesIO()
    fold_codec.write(fold, header, out)
    return zlib.compress(out.getvalue(), 1)


def write(path: Path, key: bytes, signing_key, upto: int, notice: Notice = log.warning) -> bool:
    """Make the checkpoint of the journal at `path` at event `upto` and store it, signed; the older
    ones beyond KEEP are removed. Uses connections of its own: the table's go on meanwhile."""
    from croupier.journal import fold_codec
    from croupier.journal.store import Journal

    with Journal.open(path, read_only=True, key=key) as journal:
        fold = make(journal, key, signing_key, upto, notice)
        event_hash = journal.hash_at(upto)
    if fold is None or event_hash is None:
        return False
    stamp = fold_stamp.stamp()
    signature = sign_checkpoint(signing_key, _message(upto, event_hash, stamp, fold))
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.execute(SCHEMA)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT OR REPLACE INTO report_checkpoints VALUES (?, ?, ?, ?, ?)",
                     (upto, event_hash, stamp, fold, signature))
        conn.execute("DELETE FROM report_checkpoints WHERE seq NOT IN "
                     f"(SELECT seq FROM report_checkpoints ORDER BY seq DESC LIMIT {KEEP})")
        conn.execute("COMMIT")
    finally:
        conn.close()
    return True


def last_made(conn: sqlite3.Connection) -> int:
    """The event the newest checkpoint of this code reached (0: none), unchecked: when the next one
    is due. After an upgrade the table makes one at once."""
    try:
        return conn.execute("SELECT coalesce(max(seq), 0) FROM report_checkpoints WHERE stamp = ?",
                            (fold_stamp.stamp(),)).fetchone()[0]
    except sqlite3.OperationalError:  # none made yet
        return 0


class CheckpointWriter:
    """The table's checkpoints, each made when due by a program of its own at a low priority (a
    year's first checkpoint folds the whole journal: on a Pi, a minute of CPU the table's screen must
    not wait for), one at a time; a thread of the table's waits for it. The table never waits for
    one. A failed one is logged; the next is tried when due again."""

    def __init__(self, path: Path, key: bytes, signing_key, last: int) -> None:
        self.path, self.key, self.signing_key = path, key, signing_key
        self.last = last
        self._thread: threading.Thread | None = None

    def after(self, head: int) -> None:
        """The journal reached event `head`: start a checkpoint if one is due and none is being made."""
        if not due(head, self.last) or (self._thread is not None and self._thread.is_alive()):
            return
        self.last = head
        self._thread = threading.Thread(target=self._make, args=(head,), name="report-checkpoint", daemon=True)
        self._thread.start()

    def _make(self, head: int) -> None:
        from cryptography.hazmat.primitives import serialization

        # The keys go to the program through a pipe, never a file or its command line.
        secrets = json.dumps({"path": str(self.path), "upto": head, "key": self.key.hex(), "signing": self.signing_key.
                              private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()).decode()})
        try:
            done = subprocess.run([sys.executable, "-m", "croupier.journal.checkpoints"], input=secrets.encode(),
                                  capture_output=True, timeout=3600)
            if done.returncode != 0:
                log.warning("no report checkpoint after event %d: %s", head,
                            done.stderr.decode(errors="replace").strip()[-2000:])
        except (OSError, subprocess.SubprocessError) as exc:  # a checkpoint only saves readers time
            log.warning("no report checkpoint after event %d: %s", head, exc)

    def wait(self) -> None:
        """The checkpoint being made, finished (at close)."""
        if self._thread is not None:
            self._thread.join()


def _made_apart() -> int:
    """The program `CheckpointWriter` runs: the checkpoint its standard input names, at a low priority."""
    from cryptography.hazmat.primitives import serialization

    os.nice(10)
    asked = json.loads(sys.stdin.read())
    signing_key = serialization.load_pem_private_key(asked["signing"].encode(), password=None)
    problems: list[str] = []
    made = write(Path(asked["path"]), bytes.fromhex(asked["key"]), signing_key, asked["upto"], problems.append)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 0 if made else 1


if __name__ == "__main__":
    sys.exit(_made_apart())
