"""The floor checks each table's hash chain with the journal's own check (croupier.journal.verify's
`chain`), link by link as the events arrive. The floor holds no table's key: it checks that every
column matches its hash and each event follows the one before; the table's signatures travel with the
events and are kept, for `croupier verify --key` on the table's side."""
from __future__ import annotations

from typing import Callable, Sequence

from croupier.floor.wire import Link
from croupier.journal.verify import JournalDamaged, chain


class _Received:
    """What the chain check asks of a journal to explain a broken link: where a hash stands."""

    def __init__(self, links: Sequence[Link], seq_of_hash: Callable[[str], int | None]) -> None:
        self._known = {link.hash: link.seq for link in links}
        self._seq_of_hash = seq_of_hash

    def seq_of_hash(self, digest: str) -> int | None:
        return self._known.get(digest, self._seq_of_hash(digest))


def check_links(table_id: str, head: tuple[int, str], links: Sequence[Link],
                seq_of_hash: Callable[[str], int | None]) -> tuple[list[Link], JournalDamaged | None]:
    """The leading run of `links` that follows `head` in the hash chain, and what broke it (if anything)."""
    good: list[Link] = []
    rows = ((link.seq, link.time, link.kind, link.body, link.prev_hash, link.hash, link.mac) for link in links)
    try:
        for _ in chain(rows, None, head, path=f"table {table_id}", journal=_Received(links, seq_of_hash)):
            good.append(links[len(good)])
    except JournalDamaged as damaged:
        return good, damaged
    return good, None
