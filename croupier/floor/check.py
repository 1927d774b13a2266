"""`croupier floor check`: a table's journal against the floor's copy, up to the floor's last anchor.

The journal must check by itself (the journal's own chain check), hold every event the floor
anchored, and hold each of them with the hash the floor stored. A journal cut after the anchor, or
rewritten and re-chained by someone with access to the file, fails here even when it checks alone.
"""
from __future__ import annotations

from dataclasses import dataclass

from croupier.floor.store import FloorStore
from croupier.journal.store import Journal
from croupier.journal.verify import check_chain


@dataclass(frozen=True)
class Comparison:
    table_id: str
    anchor_seq: int | None  # the floor's last anchor for the table
    journal_head: int
    compared: int  # events compared with the floor's copy
    problem: str | None = None

    @property
    def matches(self) -> bool:
        return self.problem is None


def compare(journal: Journal, store: FloorStore, table_id: str) -> Comparison:
    record = store.table(table_id)
    verdict = check_chain(journal)
    head = journal.head[0]
    if record is None:
        return Comparison(table_id, None, head, 0, f"the floor holds no events of table {table_id}")
    anchor = record.anchor_seq
    if anchor is None:
        return Comparison(table_id, None, head, 0, f"the floor has not anchored table {table_id} yet")
    if not verdict.intact:
        return Comparison(table_id, anchor, head, 0, f"the journal itself does not check: {verdict.problem}")
    if head < anchor:
        return Comparison(table_id, anchor, head, 0,
                          f"the journal ends at event {head} but the floor anchored event {anchor} of table "
                          f"{table_id}: events {head + 1}-{anchor} were cut from the journal")
    floor = {link.seq: link.hash for link in store.links(table_id, upto=anchor)}
    compared = 0
    for seq, _time, _kind, _body, _prev, digest, _mac in journal.links(anchor):
        if floor.get(seq) != digest:
            what = "is missing from the floor's copy" if seq not in floor else "differs from the floor's copy"
            return Comparison(table_id, anchor, head, compared,
                              f"event {seq} of table {table_id} {what}: the journal was rewritten after the "
                              f"floor anchored event {anchor}")
        compared += 1
    if compared != anchor:
        return Comparison(table_id, anchor, head, compared, f"the journal holds {compared} of the {anchor} events "
                                                            "the floor anchored")
    return Comparison(table_id, anchor, head, compared)
