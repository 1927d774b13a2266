"""The two forms the journal is read in: plain records (`(seq, dict)`, fast, for a year of spins)
and decoded entries (a shift's, for the review). A projection that folds records takes entries
through `records_of`."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from croupier.table.events import Event, to_record


class Entry(Protocol):
    """An event as the journal store hands it out, with its place in the journal."""

    seq: int
    event: Event


def records_of(entries: Iterable[Entry]) -> Iterator[tuple[int, dict]]:
    for entry in entries:
        yield entry.seq, to_record(entry.event)
