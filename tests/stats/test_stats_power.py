"""The sample sizes that tell the pit boss when a quiet test means something."""
import math

import pytest
from scipy import stats as reference

from croupier.stats.power import biased, spins_for_chi_square, spins_for_proportion


def test_biased_moves_the_favoured_cells_up_and_keeps_a_distribution():
    alternative = biased([1 / 37] * 37, {0}, 0.10)
    assert alternative[0] == pytest.approx(1.1 / 37)
    assert sum(alternative) == pytest.approx(1.0)
    assert alternative[1] == pytest.approx((1 - 1.1 / 37) / 36)


def z_test_power(spins: int, p0: float, p1: float, alpha: float) -> float:
    """Power of the two-sided one-proportion z-test, from scipy's normal distribution."""
    critical = reference.norm.isf(alpha / 2)
    shift = (p1 - p0) * math.sqrt(spins)
    return reference.norm.sf((critical * math.sqrt(p0 * (1 - p0)) - shift) / math.sqrt(p1 * (1 - p1)))


@pytest.mark.parametrize("p0,alpha", [(1 / 37, 0.05 / 37), (5 / 37, 0.05 / 259), (0.5, 0.05)])
def test_proportion_sample_size_reaches_the_wanted_power_and_no_sooner(p0, alpha):
    p1 = 1.1 * p0
    spins = spins_for_proportion(p0, p1, alpha, 0.8)
    assert z_test_power(spins, p0, p1, alpha) >= 0.8 - 1e-6
    assert z_test_power(spins - 2, p0, p1, alpha) < 0.8


def test_chi_square_sample_size_reaches_the_wanted_power_and_no_sooner():
    null = [1 / 37] * 37
    alternative = biased(null, {0}, 0.10)
    spins = spins_for_chi_square(null, alternative, 0.05, 0.8)
    per_spin = sum((a - b) ** 2 / b for a, b in zip(alternative, null))
    critical = reference.chi2.isf(0.05, 36)
    assert reference.ncx2.sf(critical, 36, spins * per_spin) >= 0.8 - 1e-6
    assert reference.ncx2.sf(critical, 36, (spins - 2) * per_spin) < 0.8


def test_a_few_hundred_spins_prove_nothing_about_a_ten_percent_bias():
    # The issue's own warning: one pocket 10% too often needs tens of thousands of spins.
    assert spins_for_proportion(1 / 37, 1.1 / 37, 0.05 / 37, 0.8) > 30_000
    assert spins_for_chi_square([1 / 37] * 37, biased([1 / 37] * 37, {0}, 0.1), 0.05, 0.8) > 30_000
