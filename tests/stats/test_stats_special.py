"""The p-values rest on these functions: they must agree with scipy's reference implementations."""
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as reference

from croupier.stats.special import (
    binomial_cdf, binomial_sf, binomial_two_sided, chi2_isf, chi2_sf, gamma_q, noncentral_chi2_sf,
)


def close(value: float, expected: float, rel: float = 1e-9, tiny: float = 1e-300) -> bool:
    return math.isclose(value, expected, rel_tol=rel, abs_tol=tiny)


@settings(max_examples=200)
@given(statistic=st.floats(0, 2000, allow_nan=False), df=st.integers(1, 400))
def test_chi_square_tail_agrees_with_scipy(statistic, df):
    assert close(chi2_sf(statistic, df), reference.chi2.sf(statistic, df))


@pytest.mark.parametrize("statistic,df", [(36.0, 36), (51.0, 36), (120.0, 36), (400.0, 36), (5.99, 2), (0.5, 2)])
def test_chi_square_tail_at_the_values_the_tests_meet(statistic, df):
    assert close(chi2_sf(statistic, df), reference.chi2.sf(statistic, df), rel=1e-12)


def agrees_with_scipy(value: float, expected: float) -> bool:
    # scipy's binomial tail is good to about 1e-13 almost everywhere, but in places far below any
    # p-value that decides anything it loses every digit (binom.sf(369, 395, 5/37) is 24% low and
    # binom.sf(374, 400, 5/37) is 0 where the exact sum is 9.9e-289). There, both only need to be
    # negligible; the exact sums below check that far tail.
    if expected > 1e-100:
        return close(value, expected, rel=1e-8)
    return value < 1e-99


@settings(max_examples=100)
@given(n=st.integers(1, 600_000), fraction=st.floats(0, 1), p=st.sampled_from([1 / 37, 3 / 37, 5 / 37, 9 / 37, 0.5]))
def test_binomial_tails_agree_with_scipy(n, fraction, p):
    k = round(n * fraction)
    assert agrees_with_scipy(binomial_sf(k, n, p), reference.binom.sf(k - 1, n, p))
    assert agrees_with_scipy(binomial_cdf(k, n, p), reference.binom.cdf(k, n, p))


@pytest.mark.parametrize("k,n,p", [
    (361, 385, Fraction(5, 37)), (370, 395, Fraction(5, 37)), (375, 400, Fraction(5, 37)),
    (30, 40, Fraction(1, 37)), (2, 300, Fraction(1, 2)),
])
def test_binomial_far_tails_agree_with_the_exact_sum(k, n, p):
    exact_upper = sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))
    exact_lower = sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(0, k + 1))
    assert close(binomial_sf(k, n, float(p)), float(exact_upper), rel=1e-12, tiny=0.0)
    assert close(binomial_cdf(k, n, float(p)), float(exact_lower), rel=1e-12, tiny=0.0)


@pytest.mark.parametrize("k,n", [(14_500, 500_000), (12_400, 500_000), (13_514, 500_000), (0, 37), (37, 37), (9, 100)])
def test_two_sided_binomial_is_twice_the_smaller_tail(k, n):
    p = 1 / 37
    smaller = min(reference.binom.cdf(k, n, p), reference.binom.sf(k - 1, n, p))
    assert close(binomial_two_sided(k, n, p), min(1.0, 2 * smaller), rel=1e-8)


@settings(max_examples=60)
@given(statistic=st.floats(0.1, 200), df=st.integers(1, 60), noncentrality=st.floats(0, 80))
def test_noncentral_chi_square_tail_agrees_with_scipy(statistic, df, noncentrality):
    expected = reference.ncx2.sf(statistic, df, noncentrality) if noncentrality else reference.chi2.sf(statistic, df)
    assert close(noncentral_chi2_sf(statistic, df, noncentrality), expected, rel=1e-7, tiny=1e-12)


@pytest.mark.parametrize("probability,df", [(0.05, 36), (0.05, 2), (0.01, 1), (0.5, 10), (1e-6, 36)])
def test_critical_value_agrees_with_scipy(probability, df):
    assert math.isclose(chi2_isf(probability, df), reference.chi2.isf(probability, df), rel_tol=1e-9)


def test_impossible_arguments_are_refused_with_their_value():
    with pytest.raises(ValueError, match="a > 0"):
        gamma_q(0, 1)
    with pytest.raises(ValueError, match="x >= 0"):
        gamma_q(1, -1)
    with pytest.raises(ValueError, match="df > 0"):
        chi2_sf(3, 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        chi2_isf(1.5, 3)
