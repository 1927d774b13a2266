"""Every legal position on the layout, what it pays, and parsing of position specs like `14/17`.

The layout (§2, SRIJ 6f, RU 4.15): 0 on top, then 1..36 in twelve rows of three; the columns run
up from 34, 35 and 36. Anything that is not one of the 161 positions here is refused with a
message that says why.
"""
from __future__ import annotations

import re
from fractions import Fraction

from croupier.rules.record import Record, field
from croupier.rules.wheel import BLACK, RED

# What each kind pays to 1 (PT-A 27a-b, PT-B 27a-b, SRIJ 12, RU 4.15, FR "Pagamenti").
PAYS: dict[str, Fraction] = {
    "plein": Fraction(35), "split": Fraction(17), "street": Fraction(11), "corner": Fraction(8),
    "line": Fraction(5), "dozen": Fraction(2), "column": Fraction(2),
    "two-dozens": Fraction(1, 2), "two-columns": Fraction(1, 2), "simple": Fraction(1),
}
KINDS = tuple(PAYS)
INSIDE_KINDS = ("plein", "split", "street", "corner", "line")

# The payout-order category of each kind; two-way bets go with their single kind.
CATEGORY = {
    "plein": "pleins", "split": "splits", "street": "streets", "corner": "corners",
    "line": "lines", "dozen": "dozens", "two-dozens": "dozens", "column": "columns",
    "two-columns": "columns", "simple": "simple",
}


class LayoutError(ValueError):
    """A position spec that is not a legal position; the message says why."""


class Position(Record, kw_only=False):
    """A position of the layout: its kind, the numbers it covers and what it is called."""
    kind: str
    numbers: frozenset[int]
    name: str  # canonical spec: "14/17", "dozen1+2", "red"
    pays_halves: int = field(repr=False, compare=False)  # twice the odds: two-way bets stay whole

    @property
    def pays(self) -> Fraction:
        return Fraction(self.pays_halves, 2)

    @property
    def category(self) -> str:
        return CATEGORY[self.kind]

    def __str__(self) -> str:
        return self.name


_PAYS_HALVES = {kind: int(pays * 2) for kind, pays in PAYS.items()}  # once a kind, not once a position


def _position(kind: str, numbers, name: str | None = None) -> Position:
    numbers = frozenset(numbers)
    name = name or "/".join(str(n) for n in sorted(numbers))
    return Position(kind=kind, numbers=numbers, name=name, pays_halves=_PAYS_HALVES[kind])


def _row(first: int) -> tuple[int, int, int]:
    return (first, first + 1, first + 2)


_ROW_STARTS = range(1, 35, 3)  # 1, 4, ..., 34


def _inside_positions() -> list[Position]:
    found = [_position("plein", [n]) for n in range(37)]
    splits = [[0, 1], [0, 2], [0, 3]]
    for n in range(1, 37):
        if n % 3 != 0:  # horizontal, within a row
            splits.append([n, n + 1])
        if n <= 33:  # vertical, to the row below
            splits.append([n, n + 3])
    found += [_position("split", s) for s in splits]
    found += [_position("street", s) for s in ([0, 1, 2], [0, 2, 3])]
    found += [_position("street", _row(r)) for r in _ROW_STARTS]
    found.append(_position("corner", [0, 1, 2, 3]))  # "quatre premiers" (FR)
    for r in _ROW_STARTS[:-1]:
        found += [_position("corner", [r + c, r + c + 1, r + c + 3, r + c + 4]) for c in (0, 1)]
    found += [_position("line", _row(r) + _row(r + 3)) for r in _ROW_STARTS[:-1]]
    return found


_DOZENS = {i: range(12 * i - 11, 12 * i + 1) for i in (1, 2, 3)}
_COLUMNS = {i: range(i, 37, 3) for i in (1, 2, 3)}
SIMPLE_CHANCES: dict[str, frozenset[int]] = {
    "red": RED, "black": BLACK,
    "even": frozenset(range(2, 37, 2)), "odd": frozenset(range(1, 37, 2)),
    "low": frozenset(range(1, 19)), "high": frozenset(range(19, 37)),
}


def _outside_positions() -> list[Position]:
    found = []
    for word, groups in (("dozen", _DOZENS), ("column", _COLUMNS)):
        found += [_position(word, groups[i], f"{word}{i}") for i in (1, 2, 3)]
        found += [_position(f"two-{word}s", [*groups[i], *groups[i + 1]], f"{word}{i}+{i + 1}")
                  for i in (1, 2)]
    found += [_position("simple", numbers, name) for name, numbers in SIMPLE_CHANCES.items()]
    return found


POSITIONS: tuple[Position, ...] = tuple(_inside_positions() + _outside_positions())
BY_NAME: dict[str, Position] = {p.name: p for p in POSITIONS}
_INSIDE_BY_NUMBERS: dict[frozenset[int], Position] = {
    p.numbers: p for p in POSITIONS if p.kind in INSIDE_KINDS
}

_SIZE_KIND = {1: "plein", 2: "split", 3: "street", 4: "corner", 6: "line"}
_WHY_NOT = {
    "split": "{} and {} do not touch on the layout",
    "street": "a street is one row of three, or 0/1/2 or 0/2/3",
    "corner": "a corner is four numbers in a square, or 0/1/2/3",
    "line": "a line is two adjacent rows of three",
}
_OUTSIDE = r"(dozen|column)(\d+)(?:\+(\d+))?"  # compiled by re the first time a spec needs it


def position(number_or_name: int | str) -> Position:
    """The position with this canonical name (or the plein of this number)."""
    return parse_position(str(number_or_name))


def parse_position(spec: str) -> Position:
    """A position from its spec: `17`, `14/17` (numbers in any order), `dozen1+2`, `red`."""
    text = spec.strip().lower()
    if text in BY_NAME:
        return BY_NAME[text]
    outside = re.fullmatch(_OUTSIDE, text)
    if outside:
        return _refuse_outside(spec, *outside.groups())
    if not text:
        raise LayoutError("an empty spec is not a position")
    numbers = []
    for part in text.split("/"):
        if not part.isdecimal():
            raise LayoutError(f"{spec} is not a position: {part!r} is not a number")
        number = int(part)
        if number > 36:
            raise LayoutError(f"{spec} is not a position: {number} is not on the layout (0-36)")
        if number in numbers:
            raise LayoutError(f"{spec} is not a position: {number} is repeated")
        numbers.append(number)
    kind = _SIZE_KIND.get(len(numbers))
    if kind is None:
        raise LayoutError(f"{spec} is not a position: no bet covers {len(numbers)} numbers")
    found = _INSIDE_BY_NUMBERS.get(frozenset(numbers))
    if found is None:
        raise LayoutError(f"{spec} is not a {kind}: " + _WHY_NOT[kind].format(*numbers))
    return found


def _refuse_outside(spec: str, word: str, first: str, second: str | None) -> Position:
    if second is None:
        raise LayoutError(f"{spec} is not a bet: the {word}s are {word}1, {word}2 and {word}3")
    raise LayoutError(
        f"{spec} is not a two-{word} bet: the two {word}s must be adjacent "
        f"({word}1+2 or {word}2+3)"
    )


def positions_of(kind: str) -> tuple[Position, ...]:
    if kind not in PAYS:
        raise ValueError(f"{kind!r} is not a kind of position; use one of {', '.join(KINDS)}")
    return tuple(p for p in POSITIONS if p.kind == kind)


def positions_holding(number: int) -> tuple[Position, ...]:
    """Every inside position that holds `number` (what a complete bet covers, PT-A 26)."""
    return tuple(p for p in POSITIONS if p.kind in INSIDE_KINDS and number in p.numbers)
