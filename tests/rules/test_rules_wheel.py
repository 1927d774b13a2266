"""The wheel: numberings, colours, neighbours and sectors against the regulation texts (§1, §3)."""
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.rules.wheel import (AMERICAN, BLACK, FRENCH, JEU_ZERO, ORPHELINS, RED, TIERS,
                                  VOISINS, colour, neighbours)


def ring_after(text: str, label: str) -> tuple[int, ...]:
    """The hyphenated ring of 37 numbers that follows `label` in a regulation text."""
    found = re.search(re.escape(label) + r"\W+((?:\d+\s*-\s*-?\s*){36}\d+)", text)
    assert found, f"no ring after {label!r}"
    return tuple(int(n) for n in re.findall(r"\d+", found.group(1)))


def test_numberings_are_the_rings_printed_in_pt_a_2(seed):
    text = seed("000")
    assert FRENCH == ring_after(text, "Numeração francesa")
    assert AMERICAN == ring_after(text, "Numeração americana")


def test_pt_b_prints_the_american_ring_the_other_way_round(seed):
    assert ring_after(seed("001"), "Numeração americana") == tuple(reversed(AMERICAN))


@pytest.mark.parametrize("ring", [FRENCH, AMERICAN])
def test_each_numbering_holds_every_pocket_once(ring):
    assert sorted(ring) == list(range(37))


def test_red_and_black_are_the_digest_sets(regulations):
    listed = re.search(r"red = ([\d ]+)", regulations).group(1).split()
    assert RED == {int(n) for n in listed}
    assert BLACK == set(range(1, 37)) - RED and len(BLACK) == 18


def test_zero_has_neither_colour_and_colour_follows_the_number():
    assert colour(0) == "green"
    assert [colour(n) for n in (1, 2, 10, 11, 19, 36)] == ["red", "black", "black", "black",
                                                            "red", "red"]


@pytest.mark.parametrize("bad", [-1, 37, "7", 1.0, True])
def test_colour_refuses_what_is_not_a_pocket(bad):
    with pytest.raises(ValueError, match="not a number on the wheel"):
        colour(bad)


def test_zero_and_two_neighbours_is_the_ru_example():
    # RU 4.17: "zero with neighbours" covers 3, 26, 0, 32, 15.
    assert neighbours(0, 2) == (3, 26, 0, 32, 15)


@given(st.integers(0, 36), st.integers(0, 36), st.integers(1, 3),
       st.sampled_from(["french", "american"]))
def test_being_a_neighbour_is_mutual(a, b, k, ring):
    assert (b in neighbours(a, k, ring)) == (a in neighbours(b, k, ring))


@given(st.integers(0, 36), st.integers(1, 3))
def test_american_neighbours_do_not_depend_on_the_direction_printed(number, k):
    reverse = tuple(reversed(AMERICAN))
    at = reverse.index(number)
    expected = {reverse[(at + step) % 37] for step in range(-k, k + 1)}
    assert set(neighbours(number, k, "american")) == expected


def test_voisins_tiers_and_orphelins_partition_the_wheel():
    assert (len(VOISINS), len(TIERS), len(ORPHELINS)) == (17, 12, 8)
    assert sorted(VOISINS + TIERS + ORPHELINS) == list(range(37))


def test_sectors_are_the_numbers_the_digest_and_fr_name():
    # FR: orphelins are 17-34-6 on one side and 1-20-14-31-9 on the other.
    assert set(ORPHELINS) == {17, 34, 6, 1, 20, 14, 31, 9}
    assert set(JEU_ZERO) == {12, 35, 3, 26, 0, 32, 15}
    assert set(JEU_ZERO) < set(VOISINS)
