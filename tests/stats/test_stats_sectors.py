"""Sliding sectors of adjacent pockets, and the voisins / tiers / orphelins split."""
import math

import pytest
from scipy import stats as reference

from croupier.stats.sectors import sector_split, sliding_sectors

# REGULATIONS.md §3: the numbers each announced series covers.
# Série grande / voisins: street 0-2-3, splits 4-7 12-15 18-21 19-22 32-35, corner 25-26-28-29.
VOISINS = {0, 2, 3, 4, 7, 12, 15, 18, 21, 19, 22, 32, 35, 25, 26, 28, 29}
# Série pequena / tiers: splits 5-8 10-11 13-16 23-24 27-30 33-36.
TIERS = {5, 8, 10, 11, 13, 16, 23, 24, 27, 30, 33, 36}
# Vadios / orphelins: plein 1, splits 6-9 14-17 17-20 31-34.
ORPHELINS = {1, 6, 9, 14, 17, 20, 31, 34}


def test_the_regulation_sectors_are_17_12_and_8_pockets():
    assert (len(VOISINS), len(TIERS), len(ORPHELINS)) == (17, 12, 8)
    assert VOISINS | TIERS | ORPHELINS == set(range(37))


def test_every_window_of_3_to_9_adjacent_pockets_is_tested(french_ring):
    windows = sliding_sectors([1] * 37, french_ring)
    assert len(windows) == 7 * 37
    doubled = french_ring * 2
    arcs = {tuple(doubled[start:start + width]) for width in range(3, 10) for start in range(37)}
    assert {w.pockets for w in windows} == arcs
    assert all(w.z == 0 and w.p_value == 1.0 for w in windows)  # an even wheel has nothing to show


def test_a_hot_pocket_lights_every_window_that_holds_it(french_ring):
    counts = [10] * 37
    counts[26] = 60  # 26 sits between 3 and 0 on the French wheel
    windows = sliding_sectors(counts, french_ring)
    for window in windows:
        expected_count = 10 * len(window.pockets) + (50 if 26 in window.pockets else 0)
        assert window.count == expected_count
    # The most surprising windows are the narrow ones around 26.
    assert 26 in windows[0].pockets and len(windows[0].pockets) == 3


def test_window_p_values_are_exact_binomial_with_bonferroni_over_259(french_ring):
    counts = [20] * 37
    for number in (5, 24, 16, 33, 1):  # five adjacent pockets on the French wheel
        counts[number] = 40
    total = sum(counts)
    top = sliding_sectors(counts, french_ring)[0]
    assert set(top.pockets) == {5, 24, 16, 33, 1}
    p = 5 / 37
    raw = 2 * reference.binom.sf(top.count - 1, total, p)
    assert top.p_value == pytest.approx(raw, rel=1e-8)
    assert top.p_adjusted == pytest.approx(min(1.0, 259 * raw), rel=1e-8)
    assert top.z == pytest.approx((200 - total * p) / math.sqrt(total * p * (1 - p)))


def test_sector_split_agrees_with_scipy():
    counts = [0] * 37
    for number in range(37):
        counts[number] = 30 if number in ORPHELINS else 20
    test, cells = sector_split(counts, {"voisins": frozenset(VOISINS), "tiers": frozenset(TIERS),
                                        "orphelins": frozenset(ORPHELINS)})
    observed = [17 * 20, 12 * 20, 8 * 30]
    total = sum(observed)
    expected = reference.chisquare(observed, [total * 17 / 37, total * 12 / 37, total * 8 / 37])
    assert [cell.count for cell in cells] == observed
    assert test.df == 2
    assert test.statistic == pytest.approx(expected.statistic)
    assert test.p_value == pytest.approx(expected.pvalue)


def test_sectors_that_do_not_partition_the_wheel_are_refused():
    with pytest.raises(ValueError, match="every pocket exactly once"):
        sector_split([1] * 37, {"voisins": frozenset(VOISINS), "tiers": frozenset(TIERS)})
