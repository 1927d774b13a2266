"""A journal read for review: opened read-only, cut into shifts, one shift's events loaded at a time
so a year-long journal opens as fast as a day's."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from croupier.journal.store import Entry, Journal

SHIFT_KINDS = ("table-opened", "table-closed")


@dataclass(frozen=True)
class Shift:
    """The events from one table opening up to the next (the first shift also holds what was
    recorded before any opening, such as staff registration)."""

    number: int
    first_seq: int
    last_seq: int
    opened: datetime | None
    closed: datetime | None
    profile: str | None

    @property
    def label(self) -> str:
        if self.opened is None:
            return f"shift {self.number}: before the table opened"
        start = self.opened.astimezone().strftime("%Y-%m-%d %H:%M")
        end = self.closed.astimezone().strftime("%H:%M") if self.closed else "still open"
        return f"shift {self.number}: {start} to {end} ({self.profile})"


def open_read_only(path: str | Path) -> Journal:
    """The journal at `path`, opened so that nothing can be written to it (SQLite mode=ro)."""
    return Journal.open(path, read_only=True)


def list_shifts(journal: Journal) -> list[Shift]:
    """Every shift in the journal, oldest first (reads only the opening and closing events)."""
    head = journal.head[0]
    openings: list[tuple[int, dict]] = []
    closings: dict[int, dict] = {}
    for seq, record in journal.records(SHIFT_KINDS):
        if record["kind"] == "table-opened":
            openings.append((seq, record))
        elif openings:
            closings[openings[-1][0]] = record
    shifts: list[Shift] = []
    if not openings:
        return [Shift(1, 1, head, None, None, None)] if head else []
    for index, (seq, record) in enumerate(openings):
        first = 1 if index == 0 else seq
        last = openings[index + 1][0] - 1 if index + 1 < len(openings) else head
        closed = closings.get(seq)
        shifts.append(Shift(index + 1, first, last, datetime.fromisoformat(record["time"]),
                            datetime.fromisoformat(closed["time"]) if closed else None, record.get("profile")))
    return shifts


def shift_of(shifts: list[Shift], seq: int) -> Shift:
    """The shift holding event `seq`."""
    firsts = [shift.first_seq for shift in shifts]
    return shifts[max(0, bisect_right(firsts, seq) - 1)]


def load_entries(journal: Journal, shift: Shift) -> list[Entry]:
    """The shift's events, each checked against the hash chain as it is read (a damaged journal
    raises JournalError naming the event, rather than showing what it cannot vouch for)."""
    entries = []
    for entry in journal.entries(after=shift.first_seq - 1):
        if entry.seq > shift.last_seq:
            break
        entries.append(entry)
    return entries
