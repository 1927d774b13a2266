"""Announced bets (racetrack, "séries", "annunci"), the complete bet, and finales (§3).

Each is a recipe: layout positions with the chips each takes per unit of the bet. Only the chips
on a winning position win, at that position's odds; the others lose (PT-A 27c-d, RU 4.17).
"""
from __future__ import annotations

from croupier.rules.layout import BY_NAME, Position, positions_holding
from croupier.rules.record import Record
from croupier.rules.wheel import check_number, neighbours


class Recipe(Record, kw_only=False):
    """An announced bet as the units it places on the layout."""
    name: str  # canonical spec: "voisins", "neighbours:17:2", "complete:17", "finale:8/9"
    kind: str  # a key of CATEGORY below
    units: tuple[tuple[Position, int], ...]  # (position, chips per unit of the bet)

    @property
    def chips(self) -> int:
        return sum(chips for _, chips in self.units)

    @property
    def numbers(self) -> frozenset[int]:
        return frozenset().union(*(p.numbers for p, _ in self.units))

    @property
    def category(self) -> str:
        return CATEGORY[self.kind]


CATEGORY = {
    "voisins": "series", "zero-spiel": "series", "tiers": "series", "orphelins": "series",
    "nassa": "series", "neighbours": "neighbours", "finale-en-plein": "finales",
    "finale-a-cheval": "finales", "complete": "complete",
}
SERIES = ("voisins", "zero-spiel", "tiers", "orphelins", "nassa")


def _recipe(name: str, kind: str, units: dict[str, int]) -> Recipe:
    return Recipe(name, kind, tuple((BY_NAME[spec], chips) for spec, chips in units.items()))


# The compositions of PT-A 25a, PT-B 25a and FR "Settori finali".
_SERIES_UNITS = {
    # série grande: 2 on 0/2/3 and on 25/26/28/29, 1 on five splits
    "voisins": {"0/2/3": 2, "4/7": 1, "12/15": 1, "18/21": 1, "19/22": 1, "25/26/28/29": 2,
                "32/35": 1},
    "zero-spiel": {"0/3": 1, "12/15": 1, "26": 1, "32/35": 1},  # série do zero (PT-B 25a)
    "tiers": {"5/8": 1, "10/11": 1, "13/16": 1, "23/24": 1, "27/30": 1, "33/36": 1},
    "orphelins": {"1": 1, "6/9": 1, "14/17": 1, "17/20": 1, "31/34": 1},
    "nassa": {"0/3": 1, "12/15": 1, "19": 1, "26": 1, "32/35": 1},  # FR: zero spiel plus 19
}
SERIES_RECIPES: dict[str, Recipe] = {
    name: _recipe(name, name, units) for name, units in _SERIES_UNITS.items()
}


def series(name: str) -> Recipe:
    try:
        return SERIES_RECIPES[name]
    except KeyError:
        raise ValueError(f"{name!r} is not a series; use one of {', '.join(SERIES)}") from None


def number_and_neighbours(number: int, each_side: int) -> Recipe:
    """The number and `each_side` neighbours each side on the French wheel, all en plein
    (PT-A 25b: 3, 5 or 7 chips)."""
    if each_side not in (1, 2, 3):
        raise ValueError(f"{each_side} neighbours each side is not a bet; use 1, 2 or 3")
    numbers = neighbours(number, each_side, "french")
    return _recipe(f"neighbours:{number}:{each_side}", "neighbours", {str(n): 1 for n in numbers})


# The usual progressive composition of the complete bet: chips per position by its kind.
_COMPLETE_CHIPS = {"plein": 1, "split": 2, "street": 3, "corner": 4, "line": 6}


def complete(number: int) -> Recipe:
    """Every split, street, corner and line holding `number`, and its plein (PT-A 26)."""
    check_number(number)
    units = tuple((p, _COMPLETE_CHIPS[p.kind]) for p in positions_holding(number))
    return Recipe(f"complete:{number}", "complete", units)


def finale_en_plein(digit: int) -> Recipe:
    """A plein on every number ending in `digit` (FR: 4 chips for 0-6, 3 for 7-9)."""
    if not 0 <= digit <= 9:
        raise ValueError(f"{digit} is not a final digit; use 0 to 9")
    return _recipe(f"finale:{digit}", "finale-en-plein", {str(n): 1 for n in range(digit, 37, 10)})


# The pairs FR lists for finales à cheval, as the split of the first decade.
A_CHEVAL_PAIRS = ((0, 1), (1, 2), (2, 3), (4, 5), (5, 6), (7, 8), (8, 9),
                  (0, 3), (1, 4), (2, 5), (3, 6), (4, 7), (5, 8), (6, 9), (7, 10), (8, 11), (9, 12))


def finale_a_cheval(first: int, second: int) -> Recipe:
    """The split `first/second` repeated in every decade where both numbers exist; where the two
    numbers of a decade do not touch on the layout they are played as two pleins (FR example:
    finale 8/9 = 8/9, 18, 19, 28/29)."""
    pair = tuple(sorted((first, second)))
    if pair not in A_CHEVAL_PAIRS:
        known = ", ".join(f"{a}/{b}" for a, b in A_CHEVAL_PAIRS)
        raise ValueError(f"{first}/{second} is not a finale à cheval; use one of {known}")
    units: dict[str, int] = {}
    for decade in range(0, 40, 10):
        a, b = pair[0] + decade, pair[1] + decade
        if b > 36:
            break
        split = f"{a}/{b}"
        if split in BY_NAME:
            units[split] = 1
        else:
            units[str(a)] = units[str(b)] = 1
    return _recipe(f"finale:{pair[0]}/{pair[1]}", "finale-a-cheval", units)

