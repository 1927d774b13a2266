"""Check a journal: the hash chain, the table's key, the head witness, and the state the events fold to.

The one chain check every reader uses is `chain(rows, key)`: it hands on each stored row only once
it follows the one before it and matches its own hash (every column is hashed) and, given the
table's key, the table's signature; it raises JournalDamaged naming the first row that does not.
`ChainCheck` runs it over a whole journal with its snapshots and head witness: reports, exports,
the review (and anything reading a journal) go through it, so a damaged journal stops them with
the first bad event named.

Without the key, anyone can check that the chain is whole, but whoever could write the file could
also have recomputed it: only `--key` proves the table wrote it. The head witness catches events
lost from the end (a deleted `-wal`).

`verify` adds the fold: every event readable, canonical, fitting the state before it, and each
snapshot equal to the state the events give. With the key, snapshots are the table's own signed
checkpoints: the fold starts at the newest and folds only what follows; without the key, or with
`full=True`, it folds the whole history. Hashing and signature checks still cover every event, unless
an earlier check with the key left its signed mark (`croupier verify` keeps `journal.db.verified`)
and the event it names still has the hash it recorded: then the check starts there, in under a
second for a year, and `full=True` checks everything again.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from croupier.journal.store import GENESIS, Journal, JournalError, Snapshot, event_mac, witness_path
from croupier.table import state as table_state
from croupier.table.codec import CodecError
from croupier.table.events import Event, decode, encode

# (seq, time, kind, body, prev_hash, hash, mac): one stored event, as Journal.links gives it.
Link = tuple[int, str, str, str, str, str, str]


@dataclass(frozen=True)
class Verdict:
    events: int  # events checked before the first problem (all of them when intact)
    snapshots: int
    head: tuple[int, str]  # (seq, hash) of the last good event
    problem: str | None = None  # names the first bad event
    bad_event: int | None = None
    keyed: bool = False  # the table's signatures were checked too
    witness: int | None = None  # the event the head witness recorded; None without a witness
    folded_from: int = 0  # the fold started after this (signed) snapshot's event
    since: int = 0  # events up to this one were vouched for by an earlier check with the key

    @property
    def intact(self) -> bool:
        return self.problem is None


class JournalDamaged(JournalError):
    """The journal does not check: `verdict.problem` names the first bad event."""

    def __init__(self, path, verdict: Verdict) -> None:
        super().__init__(f"{path} is damaged: {verdict.problem}. Nothing is reported or exported from a "
                         f"journal that does not check; `croupier verify --db {path}` checks it all")
        self.verdict = verdict


class HashIndex(Protocol):
    """Where a hash stands in a chain: all `chain` asks of a journal (or of the links a floor
    received) to explain a broken link."""

    def seq_of_hash(self, digest: str) -> int | None: ...


def chain(rows: Iterable[Link], key: bytes | None = None, start: tuple[int, str] = (0, GENESIS), *,
          path: Path | str = "journal", journal: HashIndex | None = None) -> Iterator[Link]:
    """The rows that check, in order, from the event after `start` (seq, hash); raises JournalDamaged
    at the first that does not follow the one before it, match its hash, or (given `key`) carry the
    table's signature. `journal`, when given, lets a broken link be explained (inserted, reordered)."""
    sha256 = hashlib.sha256
    seq, prev = start

    def fail(at: int, why: str) -> None:
        raise JournalDamaged(path, Verdict(seq - start[0], 0, (seq, prev), f"event {at}: {why}", at, key is not None))

    for row in rows:
        at, time, kind, body, prev_hash, digest, signature = row
        if at != seq + 1:
            fail(seq + 1, f"is missing (event {seq} is followed by event {at}): events were deleted")
        if prev_hash != prev:
            fail(*(_broken_link(journal, at, prev_hash) if journal else
                   (at, f"does not follow event {seq} in the hash chain")))
        # store.event_hash, inlined: this runs for every event of a year.
        if sha256(f"{prev}\n{at}\n{time}\n{kind}\n{body}".encode()).hexdigest() != digest:
            fail(at, "its content does not match its hash: the event was altered")
        if key is not None and not hmac.compare_digest(event_mac(key, digest), signature):
            fail(at, "its hash is not signed with the table's key: the chain was rewritten without the key")
        yield row
        seq, prev = at, digest


class ChainCheck:
    """A whole journal through `chain`, as far as its head when opened, with its snapshots (each
    checked against the event it follows, its digest and the key) and its head witness. Raises
    JournalDamaged at the first that does not check."""

    def __init__(self, journal: Journal, key: bytes | None = None, since: tuple[int, str] = (0, GENESIS),
                 upto: int | None = None) -> None:
        """`since`: (seq, hash) of an event already vouched for (a signed snapshot or an earlier
        verify's checkpoint): the check starts after it. `upto`: only the events up to this one, a
        range of a longer check (the journal's end and its witness are not this check's)."""
        self.journal = journal
        self.key = key
        self.upto = upto
        self.last = journal.head[0] if upto is None else upto  # what the table appends meanwhile: the next check's
        self.since = since
        self.head = since  # the last event that checked
        self.snapshots = 0  # snapshots checked
        self.snapshot: Snapshot | None = None  # the snapshot after the event last handed on, checked
        self.witness: int | None = None

    def rows(self) -> Iterator[tuple[int, str, str]]:
        """(seq, kind, body) of the events that check, in order; `self.snapshot` is the snapshot
        taken after the event just handed on, if any. Events and snapshots are read side by side, one
        at a time: a year-long journal is checked in little memory."""
        snapshots = self.journal.snapshots(after=self.since[0])
        pending = next(snapshots, None)
        links = chain(self.journal.links(self.last, after=self.since[0]), self.key, self.since, path=self.journal.path,
                      journal=self.journal)
        try:
            for at, _time, kind, body, _prev, digest, _mac in links:
                while pending is not None and pending.seq < at:  # its event is missing: the chain says which
                    pending = next(snapshots, None)
                self.snapshot = None
                if pending is not None and pending.seq == at:
                    if not pending.intact() or pending.event_hash != digest:
                        self.fail(at, "the snapshot taken after it does not match its digest: the snapshot was altered")
                    if not pending.intact(self.key):
                        self.fail(at, "the snapshot taken after it is not signed with the table's key: it was forged")
                    self.snapshot, self.snapshots = pending, self.snapshots + 1
                    pending = next(snapshots, None)
                yield at, kind, body
                self.head = at, digest
        except JournalDamaged as damaged:
            raise JournalDamaged(self.journal.path, replace(damaged.verdict, snapshots=self.snapshots)) from None
        seq = self.head[0]
        if seq < self.last and self.upto is not None:
            self.fail(seq + 1, f"is missing (event {seq} is followed by none up to event {self.upto})")
        if seq < self.last:
            self.fail(seq + 1, f"is missing: the journal ends at event {seq} but its head was event {self.last}")
        if self.upto is not None:
            return
        # A snapshot past the last event checked is the table's own if the table has written its
        # event since this check began; otherwise its events were cut from the end.
        cut = [later.seq for later in ([pending] if pending else []) + list(snapshots)
               if later.seq <= self.last or self.journal.seq_of_hash(later.event_hash) != later.seq]
        if cut:
            self.fail(seq + 1, f"is missing: the journal ends at event {seq} but a snapshot was taken after event "
                               f"{min(cut)}: events were deleted from the end")
        lost = self.journal.lost()
        if lost is not None:
            self.fail(seq + 1, lost)
        self._check_witness()

    def _check_witness(self) -> None:
        """The journal reaches the head its witness recorded (read after the events: the table
        writes it after each commit, so it never runs ahead of a whole journal)."""
        witness = self.journal.witness()
        if witness is None:
            return
        self.witness = witness.seq
        seq = self.head[0]
        if self.key is not None and not witness.signed(self.key):
            self.fail(witness.seq, f"its head witness {witness_path(self.journal.path)} is not signed with the "
                                   "table's key: it was forged")
        stored = self.journal.hash_at(witness.seq)
        if stored is None:
            self.fail(seq + 1, f"to event {witness.seq} are missing: the journal ends at event {seq} but its head "
                               f"witness recorded event {witness.seq} (its -wal file was lost or deleted, or an older "
                               "copy was put back)")
        if stored != witness.hash:
            self.fail(witness.seq, "differs from the event its head witness recorded: the journal was rewritten")

    def events(self, classes: Iterable[type[Event]]) -> Iterator[tuple[int, Event]]:
        """(seq, event) of the events of the given classes, decoded, in order, as `Journal.events`
        gives them, but checked: for reports over a long history."""
        kinds = frozenset(cls.kind for cls in classes)
        for seq, kind, body in self.rows():
            if kind in kinds:
                yield seq, decode(body)

    def run(self) -> Verdict:
        """Check the whole chain; raises JournalDamaged naming the first bad event."""
        for _ in self.rows():
            pass
        return self.verdict()

    def verdict(self, problem: str | None = None, at: int | None = None, folded_from: int = 0) -> Verdict:
        return Verdict(self.head[0] - self.since[0], self.snapshots, self.head, problem, at, self.key is not None,
                       self.witness, folded_from, self.since[0])

    def fail(self, at: int, why: str) -> None:
        raise JournalDamaged(self.journal.path, self.verdict(f"event {at}: {why}", at))


def check_chain(journal: Journal, key: bytes | None = None, *, on_cores: bool = False) -> Verdict:
    """The hash chain, the snapshots' digests and the head witness: what a report or an export
    needs to trust. `on_cores`: a long chain is checked in ranges on the machine's cores, from a
    process without threads only (its ranges are forked)."""
    ranges = _checked_in_ranges(journal, key, (0, GENESIS), journal.head[0] - 1) if on_cores else None
    if ranges is not None and not ranges.intact:
        return ranges
    try:
        return _after(ranges, ChainCheck(journal, key, ranges.head if ranges else (0, GENESIS)).run())
    except JournalDamaged as damaged:
        return _after(ranges, damaged.verdict)


def chain_check_of_file(path: str) -> None:
    """`check_chain` of the journal at `path` on every core, printed as one JSON object (the
    Verdict's fields, or "error"): for a program that checks a journal beside its screen
    (`python -c "from croupier.journal.verify import chain_check_of_file as c; c(PATH)"`)."""
    from dataclasses import asdict

    try:
        with Journal.open(path, read_only=True) as journal:
            print(json.dumps(asdict(check_chain(journal, on_cores=True))))
    except JournalError as error:
        print(json.dumps({"error": str(error)}))


PARALLEL_FROM = 200_000  # events the chain check may split over the cores; fewer are checked in one process
MOST_PROCESSES = 4  # a Raspberry Pi's cores


def _cores() -> int:
    return min(MOST_PROCESSES, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def _range_checked(path: str, key: bytes | None, since: tuple[int, str], upto: int) -> Verdict:
    """One range of the chain, in a process of its own (`_checked_in_ranges`)."""
    with Journal.open(path, read_only=True) as journal:
        try:
            return ChainCheck(journal, key, since, upto=upto).run()
        except JournalDamaged as damaged:
            return damaged.verdict


def _checked_in_ranges(journal: Journal, key: bytes | None, since: tuple[int, str], upto: int) -> Verdict | None:
    """The chain after `since` up to event `upto` with its snapshots, checked in as many ranges as
    the machine has cores (up to MOST_PROCESSES), each in a process of its own. A range starts from
    the stored hash of the event before it, which the range before checks against its content: every
    link is checked once, as in one pass. The verdict of the whole (counting from `since`); None when
    one pass is as quick (one core, a short chain) or a range cannot start (an event missing there)."""
    import multiprocessing

    cores = _cores()
    if cores < 2 or upto - since[0] < PARALLEL_FROM:
        return None
    bounds = [since[0] + (upto - since[0]) * part // cores for part in range(cores + 1)]
    starts = [since] + [(seq, journal.hash_at(seq)) for seq in bounds[1:-1]]
    if any(digest is None for _seq, digest in starts):
        return None  # one pass names the missing event
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(cores) as pool:
        verdicts = pool.starmap(_range_checked, [(str(journal.path), key, start, end)
                                                 for start, end in zip(starts, bounds[1:])])
    snapshots = 0
    for verdict in verdicts:
        snapshots += verdict.snapshots
        if not verdict.intact:
            return replace(verdict, events=verdict.head[0] - since[0], snapshots=snapshots, since=since[0])
    return Verdict(upto - since[0], snapshots, verdicts[-1].head, keyed=key is not None, since=since[0])


def verify(journal: Journal, key: bytes | None = None, *, full: bool = False,
           verified: tuple[int, str] | None = None) -> Verdict:
    """The full check: the chain, and every event readable, canonical and fitting the state before
    it, and every snapshot equal to the state the events fold to. With the key (and not `full`),
    the fold starts at the newest signed snapshot of the current state version, and the chain after
    `verified` (seq, hash: where an earlier check with the key ended, if its event still has that
    hash) or that snapshot, whichever comes first; without `verified`, at the first event."""
    start = None if full or key is None else _checkpoint(journal, key)
    since = (0, GENESIS)
    if start is not None and verified is not None and journal.hash_at(verified[0]) == verified[1]:
        since = verified if verified[0] <= start.seq else (start.seq, start.event_hash)
    # Up to the signed snapshot the fold starts from, the chain alone is checked: on every core.
    ranges = _checked_in_ranges(journal, key, since, start.seq) if start is not None else None
    if ranges is not None and not ranges.intact:
        return ranges
    check = ChainCheck(journal, key, ranges.head if ranges else since)
    state = table_state.INITIAL
    try:
        if start is not None:
            state = table_state.decode_state(start.state)  # signed: the table folded it
        for seq, kind, body in check.rows():
            if start is not None and seq <= start.seq:
                continue
            try:
                event = decode(body)
            except CodecError as exc:
                check.fail(seq, f"cannot be read ({exc})")
            if encode(event).decode() != body or kind != event.kind:
                check.fail(seq, "is not in canonical form: the row was written outside this program")
            try:
                state = table_state.apply(state, event)
            except (KeyError, ValueError, TypeError) as exc:
                check.fail(seq, f"does not fit the events before it ({exc!r})")
            snapshot = check.snapshot
            if (snapshot is not None and snapshot.version == table_state.VERSION
                    and snapshot.state != table_state.encode_state(state).decode()):
                check.fail(seq, "the snapshot taken after it differs from the state the events give")
    except JournalDamaged as damaged:
        return _after(ranges, damaged.verdict)
    except CodecError as exc:
        seq = start.seq if start else 0  # only the snapshot the fold starts from is decoded here
        return _after(ranges, check.verdict(f"event {seq}: the snapshot taken after it cannot be read ({exc})", seq))
    return _after(ranges, check.verdict(folded_from=start.seq if start else 0))


def _after(ranges: Verdict | None, verdict: Verdict) -> Verdict:
    """`verdict` of the check that went on after the ranges checked on the cores, as one check's."""
    if ranges is None:
        return verdict
    return replace(verdict, events=verdict.events + ranges.events, snapshots=verdict.snapshots + ranges.snapshots,
                   since=ranges.since)


def _checkpoint(journal: Journal, key: bytes) -> Snapshot | None:
    """The newest snapshot of the current state version the table signed (the chain check then
    confirms it follows its event), if any."""
    for snapshot in journal.snapshots(newest_first=True):
        if snapshot.version == table_state.VERSION and snapshot.intact(key):
            return snapshot
    return None


def _broken_link(journal: HashIndex, seq: int, prev_hash: str) -> tuple[int, str]:
    """Event `seq` does not follow event `seq - 1`: say what the hash it names tells."""
    follows = journal.seq_of_hash(prev_hash)
    if follows == seq - 2:
        return seq - 1, f"was inserted: event {seq} follows event {seq - 2} in the hash chain"
    if follows is not None and follows < seq - 2:
        return follows + 1, f"to event {seq - 1} were inserted: event {seq} follows event {follows} in the hash chain"
    if follows is not None:
        return seq, f"is out of order: in the hash chain it follows event {follows}: events were reordered"
    return seq, (f"does not follow event {seq - 1} in the hash chain: event {seq - 1} was altered (its hash "
                 f"recomputed), or events before event {seq} were deleted or reordered")
