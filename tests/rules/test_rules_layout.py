"""Every legal position on the layout, and clear refusals for everything else (§2)."""
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.rules.layout import POSITIONS, LayoutError, parse_position, positions_holding


def cell(n: int) -> tuple[int, int]:
    """(row, column) of 1..36 on the layout: twelve rows of three."""
    return (n - 1) // 3, (n - 1) % 3


def test_position_counts():
    # 37 pleins, 60 splits (0/1, 0/2, 0/3 included), 14 streets, 23 corners, 11 lines, ...
    counts = Counter(p.kind for p in POSITIONS)
    assert counts == {"plein": 37, "split": 60, "street": 14, "corner": 23, "line": 11,
                      "dozen": 3, "column": 3, "two-dozens": 2, "two-columns": 2, "simple": 6}


@pytest.mark.parametrize("spec", ["0/1", "0/2", "0/3", "0/1/2", "0/2/3", "0/1/2/3"])
def test_zero_combinations_are_legal(spec):
    assert parse_position(spec).name == spec


@pytest.mark.parametrize("spec, kind", [("17/14", "split"), ("18/16/17", "street"),
                                        ("17/13/16/14", "corner"), ("18/13/14/17/16/15", "line")])
def test_numbers_may_come_in_any_order(spec, kind):
    position = parse_position(spec)
    assert position.kind == kind and position.numbers == {int(n) for n in spec.split("/")}


@given(st.integers(1, 36), st.integers(1, 36))
def test_a_split_is_two_numbers_that_touch(a, b):
    (ra, ca), (rb, cb) = cell(a), cell(b)
    touching = abs(ra - rb) + abs(ca - cb) == 1
    if touching:
        assert parse_position(f"{a}/{b}").kind == "split"
    else:
        with pytest.raises(LayoutError):
            parse_position(f"{a}/{b}")


@given(st.sets(st.integers(1, 36), min_size=4, max_size=4))
def test_a_corner_is_a_square_of_four(numbers):
    cells = sorted(cell(n) for n in numbers)
    (r, c) = cells[0]
    square = cells == [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
    spec = "/".join(map(str, numbers))
    if square:
        assert parse_position(spec).kind == "corner"
    else:
        with pytest.raises(LayoutError, match="is not a corner"):
            parse_position(spec)


def test_every_street_and_line_is_made_of_whole_rows():
    for p in POSITIONS:
        if p.kind in ("street", "line") and 0 not in p.numbers:
            rows = Counter(cell(n)[0] for n in p.numbers)
            assert all(count == 3 for count in rows.values())
            assert max(rows) - min(rows) == len(rows) - 1


@pytest.mark.parametrize("spec, message", [
    ("1/5", "1/5 is not a split"),
    ("3/4", "3/4 is not a split"),  # the end of one row does not touch the next row's start
    ("0/4", "0/4 is not a split"),
    ("1/2/4", "1/2/4 is not a street"),
    ("3/4/5", "3/4/5 is not a street"),
    ("0/1/3", "0/1/3 is not a street"),
    ("2/3/4/5", "2/3/4/5 is not a corner"),
    ("1/2/3/5/6/7", "1/2/3/5/6/7 is not a line"),
    ("1/2/3/4/5", "no bet covers 5 numbers"),
    ("37", "37 is not on the layout"),
    ("14/14", "14 is repeated"),
    ("-1", "'-1' is not a number"),
    ("dozen4", "the dozens are dozen1, dozen2 and dozen3"),
    ("dozen1+3", "the two dozens must be adjacent"),
    ("column3+1", "the two columns must be adjacent"),
    ("", "empty"),
])
def test_illegal_positions_are_refused_saying_why(spec, message):
    with pytest.raises(LayoutError, match=message):
        parse_position(spec)


@pytest.mark.parametrize("name, pays", [("7", 35), ("0/3", 17), ("0/1/2", 11), ("0/1/2/3", 8),
                                        ("1/2/3/4/5/6", 5), ("dozen2", 2), ("column1", 2),
                                        ("dozen1+2", 0.5), ("column2+3", 0.5), ("even", 1)])
def test_odds_are_the_regulations(name, pays):
    assert parse_position(name).pays == pays


def test_outside_positions_cover_the_right_numbers():
    assert parse_position("column1").numbers == {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34}
    assert parse_position("dozen2+3").numbers == set(range(13, 37))
    assert parse_position("column1+2").numbers == {n for n in range(1, 37) if n % 3 != 0}
    for name in ("red", "black", "even", "odd", "low", "high"):
        numbers = parse_position(name).numbers
        assert len(numbers) == 18 and 0 not in numbers
    assert parse_position("low").numbers == set(range(1, 19))


@given(st.integers(1, 36))
def test_every_number_is_in_one_dozen_one_column_and_three_pairs_of_chances(n):
    holders = [p for p in POSITIONS if n in p.numbers]
    kinds = Counter(p.kind for p in holders)
    assert kinds["dozen"] == kinds["column"] == 1
    assert kinds["simple"] == 3


def test_positions_holding_a_number_are_what_a_complete_bet_covers():
    # PT-A 26 on 17: 1 plein, 4 splits, 1 street, 4 corners, 2 lines.
    assert Counter(p.kind for p in positions_holding(17)) == {
        "plein": 1, "split": 4, "street": 1, "corner": 4, "line": 2}


def test_pairs_of_zero_row_are_exactly_the_three_zero_splits():
    legal = {frozenset((0, n)) for n in range(1, 37)
             if any(p.numbers == {0, n} for p in POSITIONS)}
    assert legal == {frozenset((0, 1)), frozenset((0, 2)), frozenset((0, 3))}
    assert sum(1 for a, b in combinations(range(37), 2)
               if any(p.numbers == {a, b} for p in POSITIONS)) == 60
