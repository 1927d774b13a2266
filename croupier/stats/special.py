"""The special functions behind the p-values: regularized incomplete gamma and beta, the normal
tail, and the chi-square and binomial distributions built on them. Standard library only, so the
statistics run on a Raspberry Pi without numpy or scipy.

The incomplete gamma and beta use the classic pair of expansions: a power series where it
converges fast and a continued fraction (modified Lentz) elsewhere, each side computed directly so
that small tail probabilities keep their relative precision instead of being `1 - (almost 1)`.
"""
from __future__ import annotations

import math
from statistics import NormalDist

_EPSILON = 1e-15
_TINY = 1e-300  # guards the continued fractions against division by zero


def _log_gamma_prefactor(a: float, x: float) -> float:
    """log of x**a * exp(-x) / Gamma(a), the factor common to both expansions."""
    return a * math.log(x) - x - math.lgamma(a)


def _gamma_series(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its power series (converges for x < a + 1)."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(_iteration_limit(a, x)):
        denominator += 1.0
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPSILON:
            return total * math.exp(_log_gamma_prefactor(a, x))
    raise ArithmeticError(f"incomplete gamma series did not converge for a={a}, x={x}")


def _gamma_continued_fraction(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by its continued fraction (for x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _iteration_limit(a, x)):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPSILON:
            return h * math.exp(_log_gamma_prefactor(a, x))
    raise ArithmeticError(f"incomplete gamma fraction did not converge for a={a}, x={x}")


def _iteration_limit(a: float, x: float) -> int:
    # Both expansions need a number of terms that grows like the square root of the parameters.
    return 1000 + int(20 * math.sqrt(max(a, x, 1.0)))


def gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a)."""
    if not a > 0:
        raise ValueError(f"gamma_q needs a > 0, got a={a}")
    if not x >= 0:
        raise ValueError(f"gamma_q needs x >= 0, got x={x}")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return 1.0 - _gamma_series(a, x)
    return _gamma_continued_fraction(a, x)


def chi2_sf(statistic: float, df: float) -> float:
    """P(X >= statistic) for X chi-square with df degrees of freedom: the test's p-value."""
    if not df > 0:
        raise ValueError(f"chi-square needs df > 0, got {df}")
    if statistic <= 0:
        return 1.0
    return gamma_q(df / 2.0, statistic / 2.0)


def chi2_isf(probability: float, df: float) -> float:
    """The statistic whose upper tail is `probability` (the critical value), by bisection."""
    if not 0.0 < probability < 1.0:
        raise ValueError(f"probability must be strictly between 0 and 1, got {probability}")
    low, high = 0.0, df + 10.0
    while chi2_sf(high, df) > probability:
        high *= 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if chi2_sf(middle, df) > probability:
            low = middle
        else:
            high = middle
        if high - low <= 1e-12 * high:
            break
    return (low + high) / 2.0


def noncentral_chi2_sf(statistic: float, df: float, noncentrality: float) -> float:
    """P(X >= statistic) for a noncentral chi-square: the power of a chi-square test.

    Poisson mixture of central chi-squares, summed outward from the largest Poisson weight so the
    terms that matter are added first and the sum stops when the weights vanish."""
    if noncentrality < 0:
        raise ValueError(f"noncentrality must be >= 0, got {noncentrality}")
    half = noncentrality / 2.0
    if half == 0:
        return chi2_sf(statistic, df)
    peak = int(half)

    def weight(j: int) -> float:
        return math.exp(j * math.log(half) - half - math.lgamma(j + 1.0))

    total = 0.0
    for direction in (range(peak, -1, -1), range(peak + 1, peak + 100_000)):
        for j in direction:
            w = weight(j)
            total += w * chi2_sf(statistic, df + 2.0 * j)
            if w < 1e-17 and j != peak:
                break
    return min(1.0, total)


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta (converges for x < (a + 1) / (a + b + 2))."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    if abs(d) < _TINY:
        d = _TINY
    d = 1.0 / d
    h = d
    for m in range(1, _iteration_limit(a, b)):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = _TINY if abs(d) < _TINY else d
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = _TINY if abs(d) < _TINY else d
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPSILON:
            return h
    raise ArithmeticError(f"incomplete beta fraction did not converge for a={a}, b={b}, x={x}")


def beta_i(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if not (a > 0 and b > 0):
        raise ValueError(f"incomplete beta needs a, b > 0, got a={a}, b={b}")
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return beta_i(k, n - k + 1, p)


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X binomial(n, p), computed as the other side's incomplete beta."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return beta_i(n - k, k + 1, 1.0 - p)


def binomial_two_sided(k: int, n: int, p: float) -> float:
    """Two-sided p-value of observing k successes: twice the smaller tail, at most 1."""
    tail = binomial_sf(k, n, p) if k > n * p else binomial_cdf(k, n, p)
    return min(1.0, 2.0 * tail)


STANDARD_NORMAL = NormalDist()


def normal_quantile(probability: float) -> float:
    """z such that P(Z <= z) = probability for a standard normal Z."""
    return STANDARD_NORMAL.inv_cdf(probability)
