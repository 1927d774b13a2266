"""The wheel: its 37 pockets, the two numberings, colours, neighbours and sectors.

Rule references are to ../shared/REGULATIONS.md (§1).
"""
from __future__ import annotations

NUMBERS = range(37)  # 0..36 (PT-A 2, PT-B 2, SRIJ 6c)

# Clockwise, as printed in PT-A 2a and PT-A 2b. PT-B 2b prints the American ring the other way
# round; neighbour sets do not depend on the direction.
FRENCH = (0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1,
          20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26)
AMERICAN = (0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, 27, 10, 25, 29, 12,
            8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2)
NUMBERINGS: dict[str, tuple[int, ...]] = {"french": FRENCH, "american": AMERICAN}

# A property of the number, never of its place on the wheel (PT-A 6, FR "Rosso e Nero").
RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
BLACK = frozenset(range(1, 37)) - RED


def check_number(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 36:
        raise ValueError(f"{number!r} is not a number on the wheel (0-36)")
    return number


def colour(number: int) -> str:
    """'red', 'black', or 'green' for zero, which has neither colour (PT-A 6)."""
    check_number(number)
    if number == 0:
        return "green"
    return "red" if number in RED else "black"


def numbering(name: str) -> tuple[int, ...]:
    try:
        return NUMBERINGS[name]
    except KeyError:
        raise ValueError(f"{name!r} is not a wheel numbering; use french or american") from None


def neighbours(number: int, each_side: int, numbering_name: str = "french") -> tuple[int, ...]:
    """The number with `each_side` wheel neighbours on either side, in clockwise wheel order."""
    ring = numbering(numbering_name)
    check_number(number)
    if not 0 <= each_side <= 18:
        raise ValueError(f"{each_side} neighbours each side is impossible on a 37-pocket wheel")
    at = ring.index(number)
    return tuple(ring[(at + step) % 37] for step in range(-each_side, each_side + 1))


def arc(first: int, last: int, numbering_name: str = "french") -> tuple[int, ...]:
    """The pockets from `first` to `last` inclusive, going clockwise."""
    ring = numbering(numbering_name)
    start, stop = ring.index(check_number(first)), ring.index(check_number(last))
    return tuple(ring[(start + step) % 37] for step in range((stop - start) % 37 + 1))


# The racetrack sectors of the French wheel (§3), as arcs of the ring. The announced bets in
# announced.py cover exactly these numbers; the tests check one against the other.
VOISINS = arc(22, 25)  # 17 numbers around zero
TIERS = arc(27, 33)  # the 12 numbers opposite zero
ORPHELINS = arc(1, 9) + arc(17, 6)  # the two gaps between them: 1-20-14-31-9 and 17-34-6
JEU_ZERO = arc(12, 15)  # the 7 numbers nearest zero
SECTORS: dict[str, tuple[int, ...]] = {
    "voisins": VOISINS, "tiers": TIERS, "orphelins": ORPHELINS, "jeu-zero": JEU_ZERO,
}
