"""Tests on how often each pocket came up: Pearson's chi-square over the 37 pockets, each number's
deviation (z-score, exact binomial p-value, Holm correction) and the maximum-count test."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from croupier.stats.multiplicity import holm
from croupier.stats.special import binomial_sf, binomial_two_sided, chi2_sf
from croupier.stats.spins import POCKETS


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    df: int
    p_value: float


def chi_square(counts: Sequence[int], probabilities: Sequence[float]) -> ChiSquare:
    """Pearson's goodness-of-fit test of `counts` against cell `probabilities` summing to 1."""
    if len(counts) != len(probabilities) or len(counts) < 2:
        raise ValueError("chi-square needs at least two cells and one probability per cell")
    total = sum(counts)
    if total == 0:
        return ChiSquare(0.0, len(counts) - 1, 1.0)
    statistic = 0.0
    for observed, probability in zip(counts, probabilities):
        expected = total * probability
        statistic += (observed - expected) ** 2 / expected
    df = len(counts) - 1
    return ChiSquare(statistic, df, chi2_sf(statistic, df))


def chi_square_uniform(counts: Sequence[int]) -> ChiSquare:
    """Pearson's chi-square of `counts` against every cell being equally likely."""
    return chi_square(counts, [1.0 / len(counts)] * len(counts))


@dataclass(frozen=True)
class NumberDeviation:
    number: int
    count: int
    expected: float
    z: float  # (count - expected) / binomial standard deviation
    p_value: float  # exact binomial, two-sided
    p_adjusted: float  # Holm over the 37 numbers


def number_deviations(counts: Sequence[int]) -> list[NumberDeviation]:
    """Each pocket's count against 1/37 of the spins, in number order."""
    total = sum(counts)
    p = 1.0 / POCKETS
    expected = total * p
    spread = math.sqrt(total * p * (1.0 - p))
    raw = [binomial_two_sided(count, total, p) if total else 1.0 for count in counts]
    adjusted = holm(raw)
    return [
        NumberDeviation(number, count, expected, (count - expected) / spread if spread else 0.0,
                        raw[number], adjusted[number])
        for number, count in enumerate(counts)
    ]


@dataclass(frozen=True)
class MaxCount:
    """The most frequent pocket(s) and how surprising their count is on a fair wheel.

    P(max >= m) is bracketed by exact binomial tails q = P(one pocket >= m):
    `p_value_lower` = 1 - (1 - q)**37, a lower bound because multinomial counts are negatively
    associated (one pocket's excess leaves fewer spins for the others), and `p_value` =
    min(1, 37 q), the Bonferroni upper bound. The two agree closely wherever the value is small
    enough to matter, and the test uses the upper (conservative) one."""

    numbers: tuple[int, ...]
    count: int
    expected: float
    p_value: float
    p_value_lower: float


def max_count_test(counts: Sequence[int]) -> MaxCount:
    total = sum(counts)
    top = max(counts)
    numbers = tuple(number for number, count in enumerate(counts) if count == top)
    q = binomial_sf(top, total, 1.0 / POCKETS) if total else 1.0
    lower = -math.expm1(POCKETS * math.log1p(-q)) if q < 1.0 else 1.0
    return MaxCount(numbers, top, total / POCKETS, min(1.0, POCKETS * q), lower)
