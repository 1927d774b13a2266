"""`croupier floor check`: a table's journal against the floor's copy, up to the floor's last anchor.

The journal must check by itself (the journal's own chain check), hold every event the floor
anchored, and hold each of them with the hash the floor stored. A journal cut after the anchor, or
rewritten and re-chained by someone with access to the file, fails here even when it checks alone.
Where the two differ, the table's signatures (the key enrolled at the floor) say which copy is the
table's own: a journal re-chained without the table's private key, or a floor copy written by anyone
but the table, carries no valid signature.
"""
from __future__ import annotations

from dataclasses import dataclass

from croupier.floor.store import FloorStore
from croupier.journal.signing import SigningKeyError, event_signed, parse_public_key
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
    floor = {link.seq: link for link in store.links(table_id, upto=anchor)}
    compared = 0
    for row in journal.rows():
        if row.seq > anchor:
            break
        held = floor.get(row.seq)
        if held is None or held.hash != row.hash:
            what = "is missing from the floor's copy" if held is None else "differs from the floor's copy"
            return Comparison(table_id, anchor, head, compared,
                              f"event {row.seq} of table {table_id} {what}: "
                              + _genuine(store, table_id, row.sig, row.hash, held, anchor))
        compared += 1
    if compared != anchor:
        return Comparison(table_id, anchor, head, compared, f"the journal holds {compared} of the {anchor} events "
                                                            "the floor anchored")
    return Comparison(table_id, anchor, head, compared)


def _genuine(store: FloorStore, table_id: str, journal_sig: str | None, journal_hash: str, held, anchor: int) -> str:
    """Which copy of a differing event is the table's, by its signature."""
    pem = store.public_key(table_id)
    try:
        key = parse_public_key(pem.encode(), "the enrolled key") if pem else None
    except SigningKeyError:
        key = None
    if key is None:
        return (f"the journal was rewritten after the floor anchored event {anchor} (no key is enrolled for table "
                f"{table_id}: the signatures cannot say which copy is genuine)")
    journal_ok = event_signed(key, journal_hash, journal_sig)
    floor_ok = held is not None and event_signed(key, held.hash, held.sig)
    if journal_ok and not floor_ok:
        return "the journal's event carries the table's signature and the floor's does not: the journal is genuine"
    if floor_ok and not journal_ok:
        return (f"the floor's copy carries the table's signature and the journal's event does not: the journal was "
                f"rewritten after the floor anchored event {anchor}")
    if journal_ok and floor_ok:
        return "both carry the table's signature: the table signed two different events (its key was used twice)"
    return "neither carries the table's signature"
