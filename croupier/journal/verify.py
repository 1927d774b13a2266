"""Check a whole journal: the hash chain, every event readable, every snapshot equal to the fold.

The chain catches an edited row (its content no longer matches its hash), a deleted, inserted or
reordered row (a row no longer follows the one before it), and events cut from the end when a
snapshot refers to them. Events cut from the end after the last snapshot leave a shorter chain
that is still whole: compare the head printed here with the one on the last shift report.

`verify` is the full check of `croupier verify` (a minute for a year on a desktop: every event is
decoded and folded). `ChainCheck` is its first half, the hash chain and the snapshots' digests,
in seconds: reports and exports run it, so a damaged journal stops them with the first bad event named.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from croupier.journal.store import GENESIS, Journal, JournalError, Snapshot
from croupier.table import state as table_state
from croupier.table.codec import CodecError
from croupier.table.events import decode, encode


@dataclass(frozen=True)
class Verdict:
    events: int  # events checked before the first problem (all of them when intact)
    snapshots: int
    head: tuple[int, str]  # (seq, hash) of the last good event
    problem: str | None = None  # names the first bad event
    bad_event: int | None = None

    @property
    def intact(self) -> bool:
        return self.problem is None


class JournalDamaged(JournalError):
    """The journal does not check: `verdict.problem` names the first bad event."""

    def __init__(self, path, verdict: Verdict) -> None:
        super().__init__(f"{path} is damaged: {verdict.problem}. Nothing is reported or exported from a "
                         f"journal that does not check; `croupier verify --db {path}` checks it all")
        self.verdict = verdict


class ChainCheck:
    """The journal's events as far as its head when opened, each handed on only once it follows the
    one before it in the hash chain and matches its own hash, and the snapshot after it (if any)
    its digest. Raises JournalDamaged at the first that does not check."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.last = journal.head[0]  # events the table appends meanwhile are for the next check
        self.head = (0, GENESIS)  # the last event that checked
        self.checked: dict[int, Snapshot] = {}  # event -> the snapshot after it, checked

    def rows(self) -> Iterator[tuple[int, str, str]]:
        """(seq, kind, body) of the events that check, in order; the snapshots after them are in
        `self.checked`."""
        pending = {s.seq: s for s in self.journal.snapshots()}
        sha256 = hashlib.sha256
        seq, prev = self.head
        for at, kind, body, prev_hash, digest in self.journal.links(self.last):
            if at != seq + 1:
                self.fail(seq + 1, f"is missing (event {seq} is followed by event {at}): events were deleted")
            if prev_hash != prev:
                self.fail(*_broken_link(self.journal, at, prev_hash))
            # store.event_hash, inlined: this line runs for every event of a year-long journal.
            if sha256(f"{prev}\n{at}\n{body}".encode()).hexdigest() != digest:
                self.fail(at, "its content does not match its hash: the event was altered")
            if at in pending:
                snapshot = pending.pop(at)
                if not snapshot.intact() or snapshot.event_hash != digest:
                    self.fail(at, "the snapshot taken after it does not match its digest: the snapshot was altered")
                self.checked[at] = snapshot
            yield at, kind, body
            seq, prev = self.head = at, digest
        if seq < self.last:
            self.fail(seq + 1, f"is missing: the journal ends at event {seq} but its head was event {self.last}")
        # A snapshot past the last event checked is the table's own if the table has written its
        # event since this check began; otherwise its events were cut from the end.
        cut = [at for at, snapshot in pending.items()
               if at <= self.last or self.journal.seq_of_hash(snapshot.event_hash) != at]
        if cut:
            self.fail(seq + 1, f"is missing: the journal ends at event {seq} but a snapshot was taken after event "
                               f"{min(cut)}: events were deleted from the end")

    def records(self, kinds: Iterable[str]) -> Iterator[tuple[int, dict]]:
        """(seq, plain record) of the events of the given kinds, in order, as `Journal.records`
        gives them, but checked: for reports over a long history."""
        kinds = frozenset(kinds)
        loads = json.loads
        for seq, kind, body in self.rows():
            if kind in kinds:
                yield seq, loads(body)

    def run(self) -> Verdict:
        """Check the whole chain; raises JournalDamaged naming the first bad event."""
        for _ in self.rows():
            pass
        return Verdict(self.head[0], len(self.checked), self.head)

    def fail(self, at: int, why: str) -> None:
        raise JournalDamaged(self.journal.path,
                             Verdict(self.head[0], len(self.checked), self.head, f"event {at}: {why}", at))


def check_chain(journal: Journal) -> Verdict:
    """The hash chain and the snapshots' digests only: what a report or an export needs to trust."""
    try:
        return ChainCheck(journal).run()
    except JournalDamaged as damaged:
        return damaged.verdict


def verify(journal: Journal) -> Verdict:
    """The full check: the chain, and every event readable, canonical and fitting the state before
    it, and every snapshot equal to the state the events fold to."""
    chain = ChainCheck(journal)
    state = table_state.INITIAL
    try:
        for seq, kind, body in chain.rows():
            try:
                event = decode(body)
            except CodecError as exc:
                chain.fail(seq, f"cannot be read ({exc})")
            if encode(event).decode() != body or kind != event.kind:
                chain.fail(seq, "is not in canonical form: the row was written outside this program")
            try:
                state = table_state.apply(state, event)
            except (KeyError, ValueError, TypeError) as exc:
                chain.fail(seq, f"does not fit the events before it ({exc!r})")
            snapshot = chain.checked.get(seq)
            if (snapshot is not None and snapshot.version == table_state.VERSION
                    and snapshot.state != table_state.encode_state(state).decode()):
                chain.fail(seq, "the snapshot taken after it differs from the state the events give")
    except JournalDamaged as damaged:
        return damaged.verdict
    return Verdict(chain.head[0], len(chain.checked), chain.head)


def _broken_link(journal: Journal, seq: int, prev_hash: str) -> tuple[int, str]:
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
