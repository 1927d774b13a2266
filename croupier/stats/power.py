"""How many spins a test needs before its silence means anything: the sample size at which a
given bias is detected with the wanted power (80%) by the test as it is run, at its corrected
significance level.

Both kinds of test get their power from the distribution the decision is really made on:
- an exact binomial test (one pocket's or one sector's count) rejects from a critical count, so its
  power is a binomial tail under the alternative, searched over the number of spins;
- Pearson's chi-square rejects above the chi-square critical value, and under the alternative its
  statistic is a quadratic form in (nearly) normal counts, whose distribution is matched on four
  cumulants by a noncentral chi-square (Liu, Tang and Zhang 2009). The plain noncentral
  chi-square with noncentrality N * sum((p1 - p0)**2 / p0) ignores that a favoured cell's count
  also spreads more than a fair one's, and promises a little more power than the test has.
"""
from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache

from croupier.stats.special import binomial_sf, chi2_isf, noncentral_chi2_sf, normal_quantile


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


def critical_count(spins: int, p0: float, tail: float) -> int:
    """The smallest count c with P(X >= c) < `tail` for X binomial(spins, p0): the exact binomial
    test rejects from there on (spins + 1 when no count is that rare)."""
    guess = spins * p0 + normal_quantile(1.0 - tail) * math.sqrt(spins * p0 * (1.0 - p0))
    count = min(spins + 1, max(0, math.ceil(guess)))
    while count > 0 and binomial_sf(count - 1, spins, p0) < tail:
        count -= 1
    while binomial_sf(count, spins, p0) >= tail:
        count += 1
    return count


def binomial_test_power(spins: int, p0: float, p1: float, alpha: float, two_sided: bool = True) -> float:
    """Chance that the exact binomial test of p0 at level `alpha` rejects when the share is p1 > p0.

    A two-sided test rejects when twice the smaller tail is below `alpha`. Only the upper side is
    counted: with the share raised, the count falling into the lower rejection region is far
    below a millionth at any size this is used for, and leaving it out keeps the figure on the
    safe side."""
    tail = alpha / 2.0 if two_sided else alpha
    return binomial_sf(critical_count(spins, p0, tail), spins, p1)


def spins_for_binomial_test(p0: float, p1: float, alpha: float, power: float, two_sided: bool = True) -> int:
    """The fewest spins from which the exact binomial test of p0 at level `alpha` (already
    corrected for the number of tests) detects the share p1 > p0 with at least `power`.

    The power of a test on a discrete count is a sawtooth in the number of spins: it rises while
    the critical count stays put and drops each time the critical count steps up. So the answer is
    the first number of spins after which it never falls below `power` again: a bisection finds
    where it first crosses, then the spins are walked on until the power would reach `power` even
    with the critical count one higher. From there the trend alone keeps it above: the critical
    count never runs more than one ahead of its smooth course, which the alternative's mean outruns."""
    if not 0.0 < p0 < p1 < 1.0:
        raise ValueError(f"the biased share must exceed the fair one, both within (0, 1): got {p0} and {p1}")
    tail = alpha / 2.0 if two_sided else alpha

    def reaches(spins: int) -> bool:
        return binomial_test_power(spins, p0, p1, alpha, two_sided) >= power

    spins = max(2, _normal_approximation(p0, p1, tail, power))
    while not reaches(spins):
        spins *= 2
    low = spins // 2
    while low > 1 and reaches(low):
        low //= 2
    while spins - low > 1:  # short of the power at low, reaching it at spins
        middle = (low + spins) // 2
        spins, low = (middle, low) if reaches(middle) else (spins, middle)
    last_short = low
    for spins, power_now, power_one_higher in _powers_from(spins, p0, p1, tail):
        if power_one_higher >= power:
            return last_short + 1
        if power_now < power:
            last_short = spins
    raise AssertionError("unreachable: the walk over the spins is endless")


def _powers_from(spins: int, p0: float, p1: float, tail: float):
    """(spins, power, power were the critical count one higher) for spins, spins + 1, ...

    One incomplete beta per tail to start, then the recurrences between neighbouring binomial
    probabilities, a few multiplications a step: P_n+1(X >= c) = P_n(X >= c) + p P_n(X = c - 1),
    P_n+1(X = k) = P_n(X = k) (n + 1) q / (n + 1 - k), and P_n(X >= c + 1) = P_n(X >= c) - P_n(X = c)."""
    shares = (p0, p1)
    while True:  # afresh from the exact tails, and again after spins at which no count rejects
        count = critical_count(spins, p0, tail)
        tails = [binomial_sf(count, spins, p) for p in shares]
        at = [_binomial_mass(count, spins, p) for p in shares]
        below = [_binomial_mass(count - 1, spins, p) for p in shares]
        yield spins, tails[1], tails[1] - at[1]
        while count <= spins:
            for i, p in enumerate(shares):
                tails[i] += p * below[i]
                at[i] *= (spins + 1) * (1.0 - p) / (spins + 1 - count)
                below[i] *= (spins + 1) * (1.0 - p) / (spins + 2 - count)
            spins += 1
            while tails[0] >= tail:  # the critical count steps up, by one at most
                for i, p in enumerate(shares):
                    tails[i] -= at[i]
                    below[i] = at[i]
                    at[i] *= (spins - count) * p / ((count + 1) * (1.0 - p))
                count += 1
            yield spins, tails[1], tails[1] - at[1]
        spins += 1


def _binomial_mass(k: int, n: int, p: float) -> float:
    """P(X = k) for X binomial(n, p)."""
    if not 0 <= k <= n:
        return 0.0
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * math.log(p) + (n - k) * math.log1p(-p))


def _normal_approximation(p0: float, p1: float, tail: float, power: float) -> int:
    """The textbook normal-approximation sample size: only a starting point for the search."""
    root = ((normal_quantile(1.0 - tail) * math.sqrt(p0 * (1 - p0)) + normal_quantile(power) * math.sqrt(p1 * (1 - p1)))
            / (p1 - p0))
    return math.ceil(root * root)


def chi_square_power(null: Sequence[float], alternative: Sequence[float], spins: float, alpha: float) -> float:
    """Chance that Pearson's chi-square of `spins` counts against `null`, at level `alpha` on
    len(null) - 1 degrees of freedom, rejects when the counts follow `alternative`."""
    return _chi_square_power(_cumulant_terms(tuple(null), tuple(alternative)), chi2_isf(alpha, len(null) - 1), spins)


def spins_for_chi_square(null: Sequence[float], alternative: Sequence[float], alpha: float, power: float) -> int:
    """The fewest spins at which Pearson's chi-square against `null` (at level `alpha`) detects
    `alternative` with at least `power`. Its power grows smoothly with the spins, so a bisection
    over them finds it."""
    terms = _cumulant_terms(tuple(null), tuple(alternative))
    critical = chi2_isf(alpha, len(null) - 1)
    low, high = 1, 64
    while _chi_square_power(terms, critical, high) < power:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if _chi_square_power(terms, critical, middle) < power:
            low = middle
        else:
            high = middle
    return high


@lru_cache(maxsize=64)
def _cumulant_terms(null: tuple[float, ...], alternative: tuple[float, ...]) -> tuple[tuple[float, float], ...]:
    """(t_k, s_k) for k = 1..4 such that the k-th cumulant of Pearson's statistic over N spins is
    2**(k-1) * (k-1)! * (t_k + k * N * s_k).

    The counts are treated as normal with the multinomial covariance N (diag(p1) - p1 p1'); the
    statistic is then the quadratic form (Z + m)' A (Z + m) with A = diag(1 / (N p0)) and mean
    shift m = N (p1 - p0), whose cumulants are 2**(k-1) (k-1)! (tr((A S)**k) + k m' A (S A)**(k-1) m).
    Here S A = C is the operator v -> p1 * v / p0 - p1 * sum(p1 * v / p0), the same for every N,
    so t_k = tr(C**k) and s_k = (d / p0) . C**(k-1) d with d = p1 - p0."""
    if len(null) != len(alternative) or len(null) < 2:
        raise ValueError("the null and the alternative need the same cells, at least two")
    cells = len(null)

    def apply(vector: list[float]) -> list[float]:
        scaled = [v / q for v, q in zip(vector, null)]
        shared = sum(p * s for p, s in zip(alternative, scaled))
        return [p * (s - shared) for p, s in zip(alternative, scaled)]

    traces = [0.0] * 4
    for cell in range(cells):
        vector = [0.0] * cells
        vector[cell] = 1.0
        for k in range(4):
            vector = apply(vector)
            traces[k] += vector[cell]
    difference = [p - q for p, q in zip(alternative, null)]
    weights = [d / q for d, q in zip(difference, null)]
    shifts, vector = [], difference
    for k in range(4):
        shifts.append(sum(w * v for w, v in zip(weights, vector)))
        vector = apply(vector)
    return tuple(zip(traces, shifts))


def _chi_square_power(terms: tuple[tuple[float, float], ...], critical: float, spins: float) -> float:
    """P(statistic > `critical`) by Liu, Tang and Zhang's four-cumulant noncentral chi-square.
    On the null itself (the shifts all zero, C a projection of rank df) it is the exact chi-square."""
    c1, c2, c3, c4 = (t + k * spins * s for k, (t, s) in enumerate(terms, start=1))
    skew, kurt = c3 / c2 ** 1.5, c4 / c2 ** 2
    if skew * skew > kurt:
        scale = 1.0 / (skew - math.sqrt(skew * skew - kurt))
        noncentrality = skew * scale ** 3 - scale ** 2
        freedom = scale ** 2 - 2.0 * noncentrality
    else:
        scale, noncentrality, freedom = 1.0 / skew, 0.0, 1.0 / (skew * skew)
    standardised = (critical - c1) / math.sqrt(2.0 * c2)
    matched = standardised * math.sqrt(2.0) * scale + freedom + noncentrality
    return noncentral_chi2_sf(matched, freedom, noncentrality)
