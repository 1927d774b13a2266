"""Counted spins from the journal's plain event records, with the number that stands after a
correction: for the statistics (`counted_spins`) and for the report's list of spins (`SpinList`).

Works on the records as stored (kind plus fields, as `Journal.records` yields them) so a year of
spins is read without building every event object. A corrected result counts with its corrected
number (`result-corrected` holds both values); a void spin never reaches `result-recorded`.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
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


class SpinList(Sequence):
    """The counted spins, kept as tuples (a year is half a million of them, on a Pi with little
    memory); each reads as a dict with SpinList.FIELDS, and "corrected_from" when corrected."""

    FIELDS = ("spin", "number", "source", "time", "ball", "croupier", "direction", "wheel_game", "event")

    def __init__(self) -> None:
        self._rows: list[tuple] = []
        self._corrected_from: dict[int, int] = {}
        self._index: dict[int, int] = {}  # spin -> position

    def add(self, seq: int, record: dict) -> None:
        word = sys.intern  # the same few names on every spin
        self._index[record["spin"]] = len(self._rows)
        self._rows.append((record["spin"], record["number"], word(record["source"]), record["time"],
                           word(record["ball"]), word(record["croupier"]),
                           record["direction"] and word(record["direction"]), record["wheel_game"], seq))

    def correct(self, spin: int, number: int) -> None:
        at = self._index.get(spin)
        if at is not None:
            self._corrected_from.setdefault(at, self._rows[at][1])
            self._rows[at] = self._rows[at][:1] + (number,) + self._rows[at][2:]

    def __len__(self) -> int:
        return len(self._rows)

    def counted(self) -> Iterator[CountedSpin]:
        """The spins as the wheel statistics take them, with corrected numbers; without their time,
        which the report's statistics (over every spin) do not use and a year takes long to parse."""
        for _spin, number, _source, _time, _ball, croupier, direction, *_ in self._rows:
            yield CountedSpin(number, croupier, direction)

    def __getitem__(self, at):
        if isinstance(at, slice):
            return [self._entry(i) for i in range(*at.indices(len(self)))]
        return self._entry(range(len(self._rows))[at])  # negative indices, and IndexError past the end

    def _entry(self, at: int) -> dict:
        entry = dict(zip(self.FIELDS, self._rows[at]))
        if at in self._corrected_from:
            entry["corrected_from"] = self._corrected_from[at]
        return entry


def standing_results(results: Iterable[tuple[int, dict]], corrections: Iterable[tuple[int, dict]]
                     ) -> Iterator[tuple[int, dict, dict | None]]:
    """Each result-recorded record with the correction that stands for its spin (the last), or
    None; `corrections` are read first (a year holds few), `results` streamed."""
    standing = {record["spin"]: record for _, record in corrections}
    for seq, record in results:
        yield seq, record, standing.get(record["spin"])


class RecentResults:
    """The last `size` counted results as (spin, the number that stands), oldest first: a
    correction replaces its spin's number, if that spin is still among them."""

    def __init__(self, size: int | None = None, results: Iterable[tuple[int, int]] = ()) -> None:
        self.size = size
        self._numbers: dict[int, int] = {}
        for spin, number in results:
            self.record(spin, number)

    def record(self, spin: int, number: int) -> None:
        self._numbers.pop(spin, None)
        self._numbers[spin] = number
        if self.size is not None and len(self._numbers) > self.size:
            del self._numbers[next(iter(self._numbers))]

    def correct(self, spin: int, number: int) -> None:
        if spin in self._numbers:
            self._numbers[spin] = number

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._numbers.items())

    def __len__(self) -> int:
        return len(self._numbers)
