"""A journal read for review: opened read-only, cut into shifts, one shift's events loaded at a time
so a year-long journal opens as fast as a day's."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from croupier.history.clock import local, midnight, stamp
from croupier.i18n import _, formats
from croupier.journal.store import Entry, Journal
from croupier.table.events import ResultRecorded, TableClosed, TableOpened, decode

SHIFT_EVENTS = (TableOpened, TableClosed)


@dataclass(frozen=True)
class Shift:
    """The events from one table opening up to the next, or to midnight in the table's time zone
    when the table stays open past it (the first shift also holds what was recorded before any
    opening, such as staff registration)."""

    number: int
    first_seq: int
    last_seq: int
    opened: datetime | None
    closed: datetime | None
    profile: str | None
    last_number: int | None = None  # a span of shifts (a date range's paper): the number of its last

    @property
    def label(self) -> str:
        if self.opened is None:
            return _("shift {number}: before the table opened").format(number=self.number)
        start = stamp(self.opened, "short")
        end = formats.time_of_day(local(self.closed), "short") if self.closed else _("still open")
        if self.closed and local(self.closed).date() != local(self.opened).date():
            end = stamp(self.closed, "short")
        if self.last_number is not None and self.last_number != self.number:
            return _("shifts {first}-{last}: {start} to {end} ({profile})").format(
                first=self.number, last=self.last_number, start=start, end=end, profile=self.profile)
        return _("shift {number}: {start} to {end} ({profile})").format(number=self.number, start=start, end=end,
                                                                       profile=self.profile)


def open_read_only(path: str | Path) -> Journal:
    """The journal at `path`, opened so that nothing can be written to it (SQLite mode=ro)."""
    return Journal.open(path, read_only=True)


def list_shifts(journal: Journal) -> list[Shift]:
    """Every shift in the journal, oldest first, cut at each table opening and at each midnight of
    the table's time zone (a table the wheel drives alone never closes: a day is its page). Reads
    only the opening and closing events, and a few events by their key for each midnight."""
    head = journal.head[0]
    openings: list[tuple[int, TableOpened]] = []
    closings: dict[int, TableClosed] = {}
    for seq, event in journal.events(SHIFT_EVENTS):
        if isinstance(event, TableOpened):
            openings.append((seq, event))
        elif isinstance(event, TableClosed) and openings:
            closings[openings[-1][0]] = event
    if not head:
        return []
    spans: list[tuple[int, int, TableOpened | None, TableClosed | None]] = []  # first, last, opening, closing
    if not openings:
        spans.append((1, head, None, None))
    for index, (seq, opening) in enumerate(openings):
        first = 1 if index == 0 else seq
        last = openings[index + 1][0] - 1 if index + 1 < len(openings) else head
        spans.append((first, last, opening, closings.get(seq)))
    shifts: list[Shift] = []
    for first, last, opened_by, closing in spans:
        profile = opened_by.profile if opened_by else None
        pieces = day_cuts(journal, first, last)
        for at, (start, end) in enumerate(pieces):
            opened = opened_by.time if opened_by and at == 0 else \
                (time_of(journal, start) if opened_by else None)
            closed = closing.time if closing and at == len(pieces) - 1 else \
                (time_of(journal, end) if at < len(pieces) - 1 else None)
            shifts.append(Shift(len(shifts) + 1, start, end, opened, closed, profile))
    return shifts


def time_of(journal: Journal, seq: int) -> datetime:
    """The recorded time of event `seq`, read by its key."""
    return datetime.fromisoformat(next(journal.rows(seq - 1)).time)


def first_at_or_after(journal: Journal, moment: datetime, low: int, high: int) -> int:
    """The first event in low..high recorded at `moment` or later (high + 1 when none): a binary
    search by key, since events are recorded in time order."""
    while low <= high:
        middle = (low + high) // 2
        if time_of(journal, middle) < moment:
            low = middle + 1
        else:
            high = middle - 1
    return low


def day_cuts(journal: Journal, first: int, last: int) -> list[tuple[int, int]]:
    """first..last cut at each midnight of the table's time zone, as (first, last) pairs."""
    begin, end = local(time_of(journal, first)), local(time_of(journal, last))
    pieces, start = [], first
    day = begin.date() + timedelta(days=1)
    while day <= end.date():
        cut = first_at_or_after(journal, midnight(day), start, last)  # the midnight of that day, its own offset
        if start < cut <= last:
            pieces.append((start, cut - 1))
            start = cut
        day += timedelta(days=1)
    pieces.append((start, last))
    return pieces


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


def spin_at_or_after(journal: Journal, seq: int, look: int = 200) -> tuple[int, int] | None:
    """(spin, seq) of the first event from `seq` on that belongs to a spin, within `look` events."""
    for at, row in enumerate(journal.rows(seq - 1)):
        if at == look:
            return None
        if '"spin":' in row.body:  # only these are decoded
            spin = getattr(decode(row.body), "spin", None)
            if isinstance(spin, int):
                return spin, row.seq
    return None


def find_spin(journal: Journal, spin: int) -> int | None:
    """The event recording spin `spin`'s result, anywhere in the journal: a binary search by key
    (spins are numbered in journal order), never a scan of the whole file."""
    low, high = 1, journal.head[0]
    while low <= high:
        middle = (low + high) // 2
        found = spin_at_or_after(journal, middle)
        if found is not None and found[0] < spin:
            low = middle + 1
        else:
            high = middle - 1
    for row in journal.rows(low - 1):
        if '"spin":' not in row.body:
            continue
        event = decode(row.body)
        at = getattr(event, "spin", None)
        if isinstance(at, int) and at > spin:
            return None
        if isinstance(event, ResultRecorded) and at == spin:
            return row.seq
    return None


def find_moment(journal: Journal, moment: datetime) -> int:
    """The first event recorded at `moment` or later (the last event when none is)."""
    head = journal.head[0]
    return min(first_at_or_after(journal, moment, 1, head), head)


def pick_shift(shifts: list[Shift], text: str) -> Shift:
    """The shift `--shift` names: its number (1 is the oldest) or 'last'. Raises ValueError saying
    which numbers there are."""
    if shifts and text == "last":
        return shifts[-1]
    # at most nine digits: far below Python's limit on the digits of a number
    if shifts and text.isdecimal() and len(text) <= 9 and 1 <= int(text) <= len(shifts):
        return shifts[int(text) - 1]
    if not shifts:
        raise ValueError(f"--shift {text[:40]!r}: the journal holds no shift")
    raise ValueError(f"--shift {text[:40]!r}: give a shift number from 1 to {len(shifts)} or 'last'")
