"""The wheel watched continuously: one-sided CUSUM charts whose false-alarm rate holds however often
they are looked at.

A test run once on a fixed number of spins keeps its 5% only for that one look: the review, the
floor view and the whole-journal report recompute as spins come in, and a fair wheel looked at
every 1,000 spins up to 30,000 trips a one-look test about a quarter of the time. The watch instead
keeps, for each pocket and each run of WIDTH adjacent pockets, Page's CUSUM of the log-likelihood
ratio of "favoured by RATIO" against fair (E. S. Page, "Continuous inspection schemes",
Biometrika 41, 1954, pp. 100-115):

    W(n) = max(0, W(n-1) + log(p1/p0))          the pocket (or run) came up
    W(n) = max(0, W(n-1) + log((1-p1)/(1-p0)))  it did not

and alerts once W reaches THRESHOLD. The chart is a function of the spins alone, never of when or
how often anyone looks, so looking more often cannot raise more alerts.

Its false-alarm rate is bounded, not estimated: W(n) >= h means some stretch of spins ending at n
has a likelihood ratio of at least e^h, so W <= log R, where R(n) = sum over k <= n of the ratio
of spins k..n is the Shiryaev-Roberts statistic; R(n) - n is a martingale on a fair wheel, and
Doob's maximal inequality gives P(max over n <= N of R(n) >= e^h) <= N e^-h (M. Pollak, "Optimal
detection of a change in distribution", Annals of Statistics 13, 1985, pp. 206-227, section 2;
G. Lorden, "Procedures for reacting to a change in distribution", Annals of Mathematical
Statistics 42, 1971). With N = YEAR_SPINS, more spins than any wheel plays in a year, and
Bonferroni over the 74 charts, e^h = YEAR_SPINS * 74 / ALPHA: a fair wheel raises an alert in at
most 5% of wheel-years, whoever looks and however often. The bound is conservative; bench/bench_watch.py
measures the real rate and the spins a biased wheel takes to be caught.
"""
from __future__ import annotations

import math
from itertools import chain
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from croupier.stats.spins import POCKETS

ALPHA = 0.05
# One game a minute around the clock all year: more than any table plays in a year.
YEAR_SPINS = 525_600
POCKET_RATIO = 1.25  # the bias on one pocket each pocket chart is tuned to
SECTOR_RATIO = 1.10  # the bias on a run of pockets each sector chart is tuned to
WIDTH = 5  # a number and two each side: the sector a neighbours bet covers
CHARTS = 2 * POCKETS
THRESHOLD = math.log(YEAR_SPINS * CHARTS / ALPHA)


class Chart(NamedTuple):
    """One CUSUM chart: `pockets` (in wheel order for a run), its value now and its highest, and
    the spin (1-based, in the order given) at which it first reached the threshold. A tuple: the
    floor's ingester makes 74 for every table it stores a batch of (a frozen dataclass cost most of that)."""

    pockets: tuple[int, ...]
    value: float
    highest: float
    alarm_at: int | None
    risen: float = 0.0  # its value just after its pockets last came up, at spin `last`: where it goes on from
    last: int = 0

    @property
    def kind(self) -> str:
        return "pocket" if len(self.pockets) == 1 else "sector"


def _steps(share: float, ratio: float) -> tuple[float, float]:
    """The chart's rise when its pockets come up and its fall when they do not."""
    return math.log(ratio), -math.log((1 - share * ratio) / (1 - share))


def watch(numbers: Iterable[int], wheel_order: Sequence[int], since: Sequence[Chart] = (), spun: int = 0
          ) -> list[Chart]:
    """Every chart after the `numbers` in the order they came: 37 pockets, then 37 runs of WIDTH
    adjacent pockets (each starting at one pocket of `wheel_order`). `since`: the charts `watch`
    gave after the first `spun` spins, when `numbers` are the spins that followed them: the charts
    go on from there to exactly what one pass over all the spins gives.

    A chart only rises when one of its pockets comes up and otherwise falls by a fixed step to 0,
    so each is brought up to date only at the spins its pockets came up (six charts per spin, not
    74), one chart at a time."""
    came_up: list[list[int]] = [[] for _ in range(POCKETS)]  # the spins (1-based) each number came up at
    spins = spun
    for spins, number in enumerate(numbers, spun + 1):
        came_up[number].append(spins)
    pocket_rise, pocket_fall = _steps(1 / POCKETS, POCKET_RATIO)
    sector_rise, sector_fall = _steps(WIDTH / POCKETS, SECTOR_RATIO)
    runs = _runs(tuple(wheel_order))
    before: list[Chart | None] = list(since) or [None] * CHARTS
    if len(before) != CHARTS or any(chart is not None and chart.last > spun for chart in before):
        raise ValueError(f"the charts to go on from are not {CHARTS} charts after {spun} spins")
    return ([_chart((number,), came_up[number], pocket_rise, pocket_fall, spins, before[number])
             for number in range(POCKETS)]
            + [_chart(run, _merged([came_up[number] for number in run]), sector_rise, sector_fall, spins,
                      before[POCKETS + at]) for at, run in enumerate(runs)])


@lru_cache(maxsize=4)
def _runs(wheel_order: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The runs of WIDTH adjacent pockets, each starting at one pocket of `wheel_order`."""
    return tuple(tuple(wheel_order[(start + i) % POCKETS] for i in range(WIDTH)) for start in range(POCKETS))


def _merged(runs: list[list[int]]) -> list[int]:
    """Sorted lists of spins as one sorted list, joined and sorted in C (the sort merges the runs)."""
    spins = list(chain.from_iterable(runs))
    spins.sort()
    return spins


def _chart(pockets: tuple[int, ...], rises: list[int], rise: float, fall: float, spins: int,
           before: Chart | None = None) -> Chart:
    """The chart of `pockets` after `spins` spins, its pockets having come up at the spins `rises`
    (after those `before` had seen)."""
    value, highest, last, alarm_at = ((before.risen, before.highest, before.last, before.alarm_at) if before
                                      else (0.0, 0.0, 0, None))
    for spin in rises:
        now = value - fall * (spin - 1 - last)
        now = (now if now > 0.0 else 0.0) + rise
        value, last = now, spin
        if now > highest:
            highest = now
            if now >= THRESHOLD and alarm_at is None:
                alarm_at = spin
    return Chart(pockets, max(0.0, value - fall * (spins - last)), highest, alarm_at, value, last)
