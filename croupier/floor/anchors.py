"""Anchor receipts at the table: the publisher's thread hands them over through a queue, and the
thread that owns the table's session records each as a `floor-anchored` event in the journal. A
receipt the publisher refused (not the floor's, or not naming this journal's event) comes the same
way, and is raised as an alarm."""
from __future__ import annotations

import logging
import queue
from datetime import datetime

from croupier.floor.wire import Anchor
from croupier.journal.store import Journal
from croupier.table.alarms import raise_alarm
from croupier.table.events import AlarmKind, Event, FloorAnchored
from croupier.table.state import TableState

log = logging.getLogger(__name__)


def record_anchor(state: TableState, now: datetime, *, seq: int, digest: str, anchored_at: datetime) -> list[Event]:
    """The table command recording the floor's receipt (no rule refuses it)."""
    return [FloorAnchored(seq=seq, digest=digest, anchored_at=anchored_at)]


def refuse_anchor(state: TableState, now: datetime, *, detail: str) -> list[Event]:
    """The table command raising the alarm for a receipt it did not record."""
    return [raise_alarm(state, AlarmKind.FLOOR_RECEIPT, "floor receipt", detail)]


def last_anchor(journal: Journal) -> int:
    """The seq of the last anchor the journal recorded (0 for none)."""
    last = 0
    for _seq, anchored in journal.events([FloorAnchored]):
        last = max(last, anchored.seq)
    return last


class AnchorInbox:
    """Anchors on their way from the publisher's thread to the table's."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Anchor | str] = queue.SimpleQueue()

    def put(self, anchor: Anchor) -> None:
        self._queue.put(anchor)

    def refuse(self, problem: str) -> None:
        """A receipt not recorded: the table raises `problem` as an alarm."""
        self._queue.put(problem)

    def drain(self, session) -> int:
        """Record the anchors waiting (call it from the thread that owns `session`); how many.
        A journal that cannot take the event raises JournalError, as any other command does."""
        recorded = 0
        while True:
            try:
                anchor = self._queue.get_nowait()
            except queue.Empty:
                return recorded
            if isinstance(anchor, str):
                session.run(refuse_anchor, detail=anchor)
                continue
            try:
                anchored_at = datetime.fromisoformat(anchor.time)
            except ValueError:
                log.warning("floor anchor with an unreadable time %r: not recorded", anchor.time)
                continue
            session.run(record_anchor, seq=anchor.seq, digest=anchor.hash, anchored_at=anchored_at)
            recorded += 1
