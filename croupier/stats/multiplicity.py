"""Corrections for running many tests at once, so that looking at 37 pockets (or 259 sectors)
does not turn chance into an alarm."""
from __future__ import annotations

from collections.abc import Sequence


def bonferroni(p_value: float, tests: int) -> float:
    """The p-value of one test among `tests`, corrected: valid whatever the tests' dependence."""
    return min(1.0, p_value * tests)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input's order.

    Controls the family-wise error rate like Bonferroni under any dependence between the tests,
    and never flags fewer of them."""
    count = len(p_values)
    adjusted = [1.0] * count
    running = 0.0
    for rank, index in enumerate(sorted(range(count), key=p_values.__getitem__)):
        running = max(running, min(1.0, (count - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
