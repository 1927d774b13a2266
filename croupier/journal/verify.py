"""Check a whole journal: the hash chain, every event readable, every snapshot equal to the fold.

The chain catches an edited row (its content no longer matches its hash), a deleted, inserted or
reordered row (a row no longer follows the one before it), and events cut from the end when a
snapshot refers to them. Events cut from the end after the last snapshot leave a shorter chain
that is still whole: compare the head printed here with the one on the last shift report.
"""
from __future__ import annotations

from dataclasses import dataclass

from croupier.journal.store import GENESIS, Journal, event_hash
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


def verify(journal: Journal) -> Verdict:
    snapshots = {s.seq: s for s in journal.snapshots()}
    state = table_state.INITIAL
    seq, prev = 0, GENESIS
    checked_snapshots = 0

    def bad(at: int, why: str) -> Verdict:
        return Verdict(seq, checked_snapshots, (seq, prev), f"event {at}: {why}", at)

    for row in journal.rows():
        expected = seq + 1
        if row.seq != expected:
            return bad(expected, f"is missing (event {seq} is followed by event {row.seq}): events were deleted")
        if row.prev_hash != prev:
            return bad(*_broken_link(journal, row.seq, row.prev_hash))
        if event_hash(prev, row.seq, row.body.encode()) != row.hash:
            return bad(row.seq, "its content does not match its hash: the event was altered")
        try:
            event = decode(row.body)
        except CodecError as exc:
            return bad(row.seq, f"cannot be read ({exc})")
        if encode(event).decode() != row.body or row.kind != event.kind:
            return bad(row.seq, "is not in canonical form: the row was written outside this program")
        try:
            state = table_state.apply(state, event)
        except (KeyError, ValueError, TypeError) as exc:
            return bad(row.seq, f"does not fit the events before it ({exc!r})")
        seq, prev = row.seq, row.hash
        snapshot = snapshots.pop(seq, None)
        if snapshot is not None:
            if not snapshot.intact() or snapshot.event_hash != prev:
                return bad(seq, "the snapshot taken after it does not match its digest: the snapshot was altered")
            if snapshot.version == table_state.VERSION and snapshot.state != table_state.encode_state(state).decode():
                return bad(seq, "the snapshot taken after it differs from the state the events give")
            checked_snapshots += 1
    if snapshots:
        first = min(snapshots)
        return Verdict(seq, checked_snapshots, (seq, prev),
                       f"event {seq + 1}: is missing: the journal ends at event {seq} but a snapshot was taken "
                       f"after event {first}: events were deleted from the end", seq + 1)
    return Verdict(seq, checked_snapshots, (seq, prev))


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
