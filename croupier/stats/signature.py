"""Dealer signature: a croupier who launches the same way every time lands the ball a steady
distance from where it started. The ball starts in the previous result's pocket (after a golpe
nulo it is put back there, `PT-A 22`), so the test looks at the distance, in wheel order, from the
previous counted result to this one, per croupier and launch direction, against uniform."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from croupier.stats.multiplicity import holm
from croupier.stats.pockets import ChiSquare, chi_square_uniform
from croupier.stats.spins import POCKETS


@dataclass(frozen=True)
class SignatureGroup:
    croupier: str | None
    direction: str | None
    distance_counts: tuple[int, ...]  # index d: results d pockets on, in the listed (clockwise) order
    test: ChiSquare
    p_adjusted: float  # Holm over all the groups

    @property
    def spins(self) -> int:
        return sum(self.distance_counts)

    @property
    def commonest_distance(self) -> int:
        return max(range(POCKETS), key=self.distance_counts.__getitem__)


def pocket_distance(previous: int, current: int, positions: Sequence[int]) -> int:
    """How many pockets on from `previous` to `current`, following the wheel order as listed."""
    return (positions[current] - positions[previous]) % POCKETS


def wheel_positions(wheel_order: Sequence[int]) -> list[int]:
    """Position of each number (0..36) in the wheel order."""
    positions = [0] * POCKETS
    for position, number in enumerate(wheel_order):
        positions[number] = position
    return positions


def dealer_signatures(
    results: Iterable[tuple[int, str | None, str | None]], wheel_order: Sequence[int]
) -> list[SignatureGroup]:
    """Signature tests from consecutive (number, croupier, direction) results of one wheel, in
    time order. The first result has no previous one and only serves as the start of the next."""
    positions = wheel_positions(wheel_order)
    tallies: dict[tuple[str | None, str | None], list[int]] = {}
    previous_position = None
    for number, croupier, direction in results:
        position = positions[number]
        if previous_position is not None:
            tally = tallies.get((croupier, direction))
            if tally is None:
                tally = tallies[(croupier, direction)] = [0] * POCKETS
            tally[(position - previous_position) % POCKETS] += 1
        previous_position = position
    return signature_groups(tallies)


def column_signatures(numbers: bytes, groups: Sequence[int], keys: Sequence[tuple[str | None, str | None]],
                      wheel_order: Sequence[int]) -> list[SignatureGroup]:
    """`dealer_signatures` of spins given as columns (`SpinColumns`): the consecutive pairs are
    counted in C, a year of spins in a blink."""
    positions = numbers.translate(bytes(wheel_positions(wheel_order)) + bytes(256 - POCKETS))
    tallies: dict[tuple[str | None, str | None], list[int]] = {}
    for (group, previous, position), count in Counter(zip(groups[1:], positions, positions[1:])).items():
        tally = tallies.get(keys[group])
        if tally is None:
            tally = tallies[keys[group]] = [0] * POCKETS
        tally[(position - previous) % POCKETS] += count
    return signature_groups(tallies)


def signature_groups(tallies: dict[tuple[str | None, str | None], list[int]]) -> list[SignatureGroup]:
    """Each (croupier, direction) group's test from its counts of distances, Holm over them all."""
    keys = sorted(tallies, key=lambda key: (str(key[0]), str(key[1])))
    tests = [chi_square_uniform(tallies[key]) for key in keys]
    adjusted = holm([test.p_value for test in tests])
    return [
        SignatureGroup(croupier, direction, tuple(tallies[(croupier, direction)]), test, p_adj)
        for (croupier, direction), test, p_adj in zip(keys, tests, adjusted)
    ]
