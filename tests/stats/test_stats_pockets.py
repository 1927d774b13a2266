"""Pocket counts: Pearson's chi-square, each number's deviation, and the maximum-count test."""
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as reference

from croupier.stats.multiplicity import bonferroni, holm
from croupier.stats.pockets import chi_square, chi_square_uniform, max_count_test, number_deviations

counts_37 = st.lists(st.integers(0, 5000), min_size=37, max_size=37).filter(lambda c: sum(c) > 0)


@given(counts_37)
def test_chi_square_agrees_with_scipy(counts):
    expected = reference.chisquare(counts)
    test = chi_square_uniform(counts)
    assert test.df == 36
    assert math.isclose(test.statistic, expected.statistic, rel_tol=1e-9, abs_tol=1e-9)
    assert math.isclose(test.p_value, expected.pvalue, rel_tol=1e-8, abs_tol=1e-300)


@given(counts_37, st.randoms(use_true_random=False))
def test_chi_square_does_not_depend_on_which_pocket_holds_which_count(counts, rng):
    shuffled = list(counts)
    rng.shuffle(shuffled)
    assert math.isclose(chi_square_uniform(counts).statistic, chi_square_uniform(shuffled).statistic, rel_tol=1e-9)


def test_chi_square_of_a_perfectly_even_wheel_is_zero_with_p_one():
    test = chi_square_uniform([10] * 37)
    assert test.statistic == 0 and test.p_value == 1.0


def test_chi_square_with_unequal_cells_agrees_with_scipy():
    counts, shares = [170, 90, 110], [17 / 37, 12 / 37, 8 / 37]
    expected = reference.chisquare(counts, [370 * s for s in shares])
    test = chi_square(counts, shares)
    assert test.df == 2
    assert math.isclose(test.statistic, expected.statistic, rel_tol=1e-12)
    assert math.isclose(test.p_value, expected.pvalue, rel_tol=1e-10)


def test_holm_by_hand():
    # Sorted: 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 = 0.04 -> kept at 0.06 (monotone).
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=60))
def test_holm_lies_between_the_raw_p_value_and_bonferroni(p_values):
    adjusted = holm(p_values)
    for raw, holm_value in zip(p_values, adjusted):
        assert raw <= holm_value <= bonferroni(raw, len(p_values)) + 1e-15
    ranked = sorted(range(len(p_values)), key=p_values.__getitem__)
    assert all(adjusted[a] <= adjusted[b] for a, b in zip(ranked, ranked[1:]))


def test_number_deviations_by_hand():
    counts = [10] * 37
    counts[17] = 40  # 36 x 10 + 40 = 400 spins: each number expected 400/37 times
    rows = number_deviations(counts)
    n, p = 400, 1 / 37
    assert [row.number for row in rows] == list(range(37))
    assert rows[17].z == pytest.approx((40 - n * p) / math.sqrt(n * p * (1 - p)))
    assert rows[17].p_value == pytest.approx(2 * reference.binom.sf(39, n, p), rel=1e-8)
    assert rows[17].p_adjusted == pytest.approx(37 * rows[17].p_value, rel=1e-8)  # the smallest: x37
    assert rows[17].p_adjusted < 0.05
    assert all(row.p_adjusted > 0.05 for row in rows if row.number != 17)


def exact_max_count_tail(spins: int, top: int, pockets: int = 37) -> float:
    """P(the most frequent pocket has at least `top` of `spins`) on a fair wheel, exactly: the
    sequences whose counts all stay below `top`, counted with the exponential generating function
    (sum_{j < top} x^j / j!)^pockets, over all pockets**spins sequences."""
    factor = [Fraction(1, math.factorial(j)) for j in range(min(top, spins + 1))]
    power = [Fraction(1)] + [Fraction(0)] * spins
    for _ in range(pockets):
        power = [sum(power[i - j] * factor[j] for j in range(min(i + 1, len(factor)))) for i in range(spins + 1)]
    below = power[spins] * math.factorial(spins) / Fraction(pockets) ** spins
    return float(1 - below)


@pytest.mark.parametrize("spins,top", [(37, 4), (37, 5), (74, 7), (74, 9), (111, 9), (111, 12)])
def test_max_count_bounds_bracket_the_exact_probability(spins, top):
    counts = [0] * 37
    counts[5] = top
    for i in range(spins - top):
        counts[6 + i % 31] += 1  # the rest spread thin, all below `top`
    assert max(counts) == top and sum(counts) == spins
    exact = exact_max_count_tail(spins, top)
    test = max_count_test(counts)
    assert test.numbers == (5,)
    assert test.p_value_lower <= exact <= test.p_value + 1e-12
    if exact < 0.05:  # where the test decides, the conservative bound is close to the truth
        assert test.p_value <= 1.1 * exact


def test_max_count_reports_every_pocket_tied_at_the_top():
    counts = [3] * 37
    counts[0] = counts[26] = 9
    assert max_count_test(counts).numbers == (0, 26)
