"""How many spins a test needs before its silence means anything: the sample size at which a
given bias is detected with the wanted power (80%) at the test's significance level."""
from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from croupier.stats.special import chi2_isf, noncentral_chi2_sf, normal_quantile


def biased(null: Sequence[float], favoured: Collection[int], bias: float) -> list[float]:
    """`null` with the cells in `favoured` made `bias` (0.10 = 10%) more likely together, and the
    other cells scaled down in proportion so the probabilities still sum to 1."""
    share = sum(null[i] for i in favoured)
    rest = 1.0 - share
    boosted = share * (1.0 + bias)
    if boosted >= 1.0:
        raise ValueError(f"a {bias:.0%} bias on cells holding {share:.0%} exceeds certainty")
    return [p * (1.0 + bias) if i in favoured else p * (1.0 - boosted) / rest
            for i, p in enumerate(null)]


def spins_for_proportion(p0: float, p1: float, alpha: float, power: float, two_sided: bool = True) -> int:
    """Spins for a test of one proportion (a pocket's or a sector's share) to tell p1 from p0,
    by the normal approximation to the binomial."""
    z_alpha = normal_quantile(1.0 - (alpha / 2.0 if two_sided else alpha))
    z_power = normal_quantile(power)
    root = (z_alpha * math.sqrt(p0 * (1 - p0)) + z_power * math.sqrt(p1 * (1 - p1))) / (p1 - p0)
    return math.ceil(root * root)


def spins_for_chi_square(null: Sequence[float], alternative: Sequence[float], alpha: float, power: float) -> int:
    """Spins for Pearson's chi-square to reject `null` with the wanted power when the truth is
    `alternative`: the statistic then follows a noncentral chi-square whose noncentrality grows in
    proportion to the spins, N * sum((p1 - p0)**2 / p0)."""
    df = len(null) - 1
    critical = chi2_isf(alpha, df)
    per_spin = sum((p1 - p0) ** 2 / p0 for p0, p1 in zip(null, alternative))
    low, high = 0.0, 1.0
    while noncentral_chi2_sf(critical, df, high) < power:
        high *= 2.0
    for _ in range(100):
        middle = (low + high) / 2.0
        if noncentral_chi2_sf(critical, df, middle) < power:
            low = middle
        else:
            high = middle
        if high - low < 1e-6:
            break
    return math.ceil(high / per_spin)
