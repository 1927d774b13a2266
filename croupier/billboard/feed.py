"""The journal as the players' monitor reads it: opened read-only, the state from its last snapshot,
the recent results from the tail of the file, then new events as they are committed.

Start-up reads a bounded tail, however old the journal: first the last 1,000 events, widened until
it holds the statistics window or reaches the start. Polling asks SQLite for the events after the
last one read, which costs one indexed query when nothing happened.
"""
from __future__ import annotations

from pathlib import Path

from croupier.billboard.model import WINDOW, Billboard
from croupier.history.spins import RecentResults
from croupier.journal.store import Journal
from croupier.session import TableSession
from croupier.table import events as ev
from croupier.table.clock import SystemClock

TAIL = 1000  # events read first for the recent results


class JournalFeed:
    def __init__(self, path: str | Path, window: int = WINDOW) -> None:
        """Raises JournalError, naming the problem, for a journal that is missing or cannot be read."""
        session = TableSession.open(path, SystemClock(), read_only=True)
        self.journal: Journal = session.journal
        self.seq = session.seq
        self.board = Billboard(session.state, _recent_results(self.journal, self.seq, window), window)

    def poll(self) -> list[ev.Event]:
        """The events committed since the last poll, already applied to the board."""
        new = list(self.journal.entries(self.seq))
        for entry in new:
            self.board.apply(entry.event)
            self.seq = entry.seq
        return [entry.event for entry in new]

    def close(self) -> None:
        self.journal.close()


def _recent_results(journal: Journal, head: int, wanted: int) -> list[tuple[int, int]]:
    """(spin, number) of the last `wanted` counted results up to event `head`, oldest first."""
    span = TAIL
    while True:
        after = max(0, head - span)
        results = RecentResults(wanted)
        for entry in journal.entries(after):
            if entry.seq > head:
                break
            event = entry.event
            if isinstance(event, ev.ResultRecorded):
                results.record(event.spin, event.number)
            elif isinstance(event, ev.ResultCorrected):
                results.correct(event.spin, event.number)
        if len(results) >= wanted or after == 0:
            return list(results)
        span *= 4

