"""The floor checks each table's hash chain with the journal's own check (croupier.journal.verify),
link by link as the events arrive: it hands the check the received rows as a journal would."""
from __future__ import annotations

from typing import Callable, Iterator, Sequence

from croupier.floor.wire import Link
from croupier.journal.verify import ChainCheck, JournalDamaged


class _Received:
    """The rows of one table received since its stored head, shaped as the journal the check reads."""

    def __init__(self, table_id: str, links: Sequence[Link], seq_of_hash: Callable[[str], int | None]) -> None:
        self.path = f"table {table_id}"
        self._links = links
        self._seq_of_hash = seq_of_hash
        self.head = (links[-1].seq, links[-1].hash) if links else (0, "")

    def links(self, upto: int) -> Iterator[tuple[int, str, str, str, str]]:
        return iter([(l.seq, l.kind, l.body, l.prev_hash, l.hash) for l in self._links if l.seq <= upto])

    def snapshots(self):
        return iter(())  # snapshots stay at the table

    def seq_of_hash(self, digest: str) -> int | None:
        known = {l.hash: l.seq for l in self._links}
        return known.get(digest, self._seq_of_hash(digest))


def check_links(table_id: str, head: tuple[int, str], links: Sequence[Link],
                seq_of_hash: Callable[[str], int | None]) -> tuple[list[Link], JournalDamaged | None]:
    """The leading run of `links` that follows `head` in the hash chain, and what broke it (if anything)."""
    if not links:
        return [], None
    received = _Received(table_id, links, seq_of_hash)
    check = ChainCheck(received)
    check.head = head  # the stored events were checked when they came
    good: list[Link] = []
    by_seq = {l.seq: l for l in links}
    try:
        for seq, _kind, _body in check.rows():
            good.append(by_seq[seq])
    except JournalDamaged as damaged:
        return good, damaged
    return good, None
