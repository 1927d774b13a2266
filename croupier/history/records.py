"""The journal as every projection reads it: (seq, typed event) pairs, from the store
(`Journal.events`) or from decoded entries (`numbered`)."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from croupier.table.events import Event


class Entry(Protocol):
    """An event as the journal store hands it out, with its place in the journal."""

    @property
    def seq(self) -> int: ...

    @property
    def event(self) -> Event: ...


def numbered(entries: Iterable[Entry]) -> Iterator[tuple[int, Event]]:
    """Decoded journal entries as (seq, event), the form every projection folds."""
    for entry in entries:
        yield entry.seq, entry.event
