"""Counted spins from the journal's plain event records, for the statistics.

Works on the records as stored (kind plus fields, as `Journal.records` yields them) so a year of
spins is read without building every event object. A corrected result counts with its corrected
number (`result-corrected` holds both values); a void spin never reaches `result-recorded`.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from croupier.stats.spins import CountedSpin

SPIN_KINDS = ("result-recorded", "result-corrected")


def counted_spins(records: Iterable[tuple[int, dict]], wheel: str | None = None) -> list[CountedSpin]:
    """The counted results, in journal order, from (seq, record) pairs of the SPIN_KINDS events
    (other kinds are ignored)."""
    spins: list[CountedSpin] = []
    index_of_spin: dict[int, int] = {}
    for seq, record in records:
        kind = record.get("kind")
        if kind == "result-recorded":
            index_of_spin[record["spin"]] = len(spins)
            time = record.get("time")
            spins.append(CountedSpin(record["number"], record.get("croupier"), record.get("direction"), wheel,
                                     datetime.fromisoformat(time) if time else None))
        elif kind == "result-corrected":
            index = index_of_spin.get(record["spin"])
            if index is None:
                raise ValueError(f"event {seq}: corrects spin {record['spin']}, which has no recorded result")
            old = spins[index]
            spins[index] = CountedSpin(record["number"], old.croupier, old.direction, old.wheel, old.time)
    return spins
