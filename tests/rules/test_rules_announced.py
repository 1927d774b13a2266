"""Announced bets, the complete bet and finales: each recipe's composition (§3, PT-A 25-26, FR)."""
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.rules.announced import (A_CHEVAL_PAIRS, complete, finale_a_cheval,
                                      finale_en_plein, number_and_neighbours, series)
from croupier.rules.wheel import JEU_ZERO, ORPHELINS, TIERS, VOISINS


def units(recipe) -> dict[str, int]:
    return {p.name: chips for p, chips in recipe.units}


@pytest.mark.parametrize("name, chips", [("voisins", 9), ("zero-spiel", 4), ("tiers", 6),
                                         ("orphelins", 5), ("nassa", 5)])
def test_series_chip_counts_are_the_digests(name, chips):
    assert series(name).chips == chips


def test_voisins_is_the_pt_a_composition():
    # PT-A 25a: rua 0-2-3 and quadro 25-26-28-29 with two chips; cavalos 4-7, 12-15, 18-21,
    # 19-22 and 32-35 with one.
    assert units(series("voisins")) == {"0/2/3": 2, "25/26/28/29": 2, "4/7": 1, "12/15": 1,
                                        "18/21": 1, "19/22": 1, "32/35": 1}


def test_orphelins_and_tiers_are_the_pt_a_compositions():
    assert units(series("orphelins")) == {"1": 1, "6/9": 1, "14/17": 1, "17/20": 1, "31/34": 1}
    assert units(series("tiers")) == {"5/8": 1, "10/11": 1, "13/16": 1, "23/24": 1,
                                      "27/30": 1, "33/36": 1}


def test_series_cover_their_sectors_of_the_wheel():
    assert series("voisins").numbers == set(VOISINS)
    assert series("tiers").numbers == set(TIERS)
    assert series("orphelins").numbers == set(ORPHELINS)
    assert series("zero-spiel").numbers == set(JEU_ZERO)
    assert series("nassa").numbers == set(JEU_ZERO) | {19}  # FR: zero spiel "without the 19"


def test_voisins_tiers_and_orphelins_recipes_partition_the_wheel():
    covered = [series(n).numbers for n in ("voisins", "tiers", "orphelins")]
    assert sum(map(len, covered)) == 37 and set().union(*covered) == set(range(37))


@pytest.mark.parametrize("each_side, chips", [(1, 3), (2, 5), (3, 7)])
def test_number_and_neighbours_takes_3_5_or_7_pleins(each_side, chips):
    recipe = number_and_neighbours(26, each_side)
    assert recipe.chips == chips
    assert all(p.kind == "plein" for p, _ in recipe.units)


def test_neighbours_of_zero_by_two_are_the_ru_example():
    assert number_and_neighbours(0, 2).numbers == {3, 26, 0, 32, 15}


@pytest.mark.parametrize("bad", [0, 4])
def test_other_neighbour_counts_are_refused(bad):
    with pytest.raises(ValueError, match="use 1, 2 or 3"):
        number_and_neighbours(17, bad)


def test_complete_17_is_40_chips_in_the_progressive_composition():
    recipe = complete(17)
    assert recipe.chips == 40
    per_kind = Counter()
    for position, chips in recipe.units:
        per_kind[position.kind] += chips
    # 1 plein x1, 4 splits x2, 1 street x3, 4 corners x4, 2 lines x6
    assert per_kind == {"plein": 1, "split": 8, "street": 3, "corner": 16, "line": 12}


def test_complete_0_is_17_chips():
    assert units(complete(0)) == {"0": 1, "0/1": 2, "0/2": 2, "0/3": 2, "0/1/2": 3, "0/2/3": 3,
                                  "0/1/2/3": 4}


@pytest.mark.parametrize("digit, chips", [(d, 4) for d in range(7)] + [(d, 3) for d in (7, 8, 9)])
def test_finale_en_plein_chip_counts(digit, chips):
    recipe = finale_en_plein(digit)
    assert recipe.chips == chips
    assert all(n % 10 == digit for n in recipe.numbers)


# FR's table: horizontal 0-1 1-2 2-3 4-5 5-6 = 5 chips, 7-8 8-9 = 4; vertical 0-3 1-4 2-5 3-6 = 4,
# 4-7 5-8 6-9 7-10 8-11 9-12 = 3.
A_CHEVAL_CHIPS = {(0, 1): 5, (1, 2): 5, (2, 3): 5, (4, 5): 5, (5, 6): 5, (7, 8): 4, (8, 9): 4,
                  (0, 3): 4, (1, 4): 4, (2, 5): 4, (3, 6): 4, (4, 7): 3, (5, 8): 3, (6, 9): 3,
                  (7, 10): 3, (8, 11): 3, (9, 12): 3}


def test_the_fr_table_lists_every_finale_a_cheval():
    assert set(A_CHEVAL_PAIRS) == set(A_CHEVAL_CHIPS)


@pytest.mark.parametrize("pair, chips", sorted(A_CHEVAL_CHIPS.items()))
def test_finale_a_cheval_chip_counts(pair, chips):
    assert finale_a_cheval(*pair).chips == chips


def test_finale_a_cheval_fr_examples():
    assert units(finale_a_cheval(8, 9)) == {"8/9": 1, "18": 1, "19": 1, "28/29": 1}
    assert units(finale_a_cheval(6, 3)) == {"3/6": 1, "13/16": 1, "23/26": 1, "33/36": 1}


@pytest.mark.parametrize("a, b", [(3, 4), (0, 2), (6, 7), (9, 10)])
def test_other_pairs_are_not_finales(a, b):
    with pytest.raises(ValueError, match="is not a finale à cheval"):
        finale_a_cheval(a, b)


@given(st.integers(0, 36))
def test_complete_bet_covers_only_positions_holding_its_number(n):
    recipe = complete(n)
    assert all(n in p.numbers for p, _ in recipe.units)
    assert recipe.category == "complete"
