"""Tests on sectors: runs of adjacent pockets in wheel order (a tilted wheel or a worn fret favours
a region, not a number) and the split between voisins, tiers and orphelins."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from croupier.stats.multiplicity import bonferroni
from croupier.stats.pockets import ChiSquare, chi_square
from croupier.stats.special import binomial_two_sided
from croupier.stats.spins import POCKETS

SECTOR_WIDTHS = range(3, 10)


@dataclass(frozen=True)
class SectorDeviation:
    pockets: tuple[int, ...]  # in wheel order
    count: int
    expected: float
    z: float
    p_value: float  # exact binomial, two-sided
    p_adjusted: float  # Bonferroni over every window tested


def sliding_sectors(
    counts: Sequence[int], wheel_order: Sequence[int], widths: Sequence[int] = SECTOR_WIDTHS
) -> list[SectorDeviation]:
    """Every window of `widths` adjacent pockets around the wheel, most surprising first.

    37 windows per width: with widths 3..9 that is 259 overlapping tests. Bonferroni over all of
    them is conservative (overlapping windows are strongly correlated), which keeps a fair wheel
    quiet at the cost of some power."""
    total = sum(counts)
    tests = len(widths) * POCKETS
    ring = [counts[number] for number in wheel_order] * 2
    results = []
    for width in widths:
        p = width / POCKETS
        expected = total * p
        spread = math.sqrt(total * p * (1.0 - p))
        window = sum(ring[:width])
        p_values: dict[int, float] = {}  # windows of one width with the same count share a p-value
        for start in range(POCKETS):
            if start:
                window += ring[start + width - 1] - ring[start - 1]
            raw = p_values.get(window)
            if raw is None:
                raw = p_values[window] = binomial_two_sided(window, total, p) if total else 1.0
            pockets = tuple(wheel_order[(start + i) % POCKETS] for i in range(width))
            z = (window - expected) / spread if spread else 0.0
            results.append(SectorDeviation(pockets, window, expected, z, raw, bonferroni(raw, tests)))
    results.sort(key=lambda sector: (sector.p_value, -abs(sector.z)))
    return results


@dataclass(frozen=True)
class SectorCell:
    name: str
    pockets: int
    count: int
    expected: float


def sector_split(
    counts: Sequence[int], sectors: Mapping[str, frozenset[int]]
) -> tuple[ChiSquare, list[SectorCell]]:
    """Chi-square of the hits per named sector against each sector's share of the 37 pockets.
    The sectors must partition the wheel."""
    covered = sorted(number for pockets in sectors.values() for number in pockets)
    if covered != list(range(POCKETS)):
        raise ValueError("the sectors must cover every pocket exactly once")
    total = sum(counts)
    cells = [
        SectorCell(name, len(pockets), sum(counts[n] for n in pockets), total * len(pockets) / POCKETS)
        for name, pockets in sectors.items()
    ]
    test = chi_square([cell.count for cell in cells], [cell.pockets / POCKETS for cell in cells])
    return test, cells
