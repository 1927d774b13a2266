"""The continuous watch (croupier/stats/watch.py) on simulated wheels: how often a fair wheel raises
an alert in a wheel-year, and how many spins a biased wheel takes to be caught.

Run by hand: .venv/bin/python bench/bench_watch.py [--years N] [--year-spins N] [--runs N] [--one-look N]

  --years N       fair wheel-years simulated (default 200)
  --year-spins N  spins in each (default 200,000: a busy table's year; the bound holds up to 525,600)
  --runs N        biased wheels simulated per bias (default 40)
  --one-look N    also the old way, for comparison: the one-look summary of N fair wheels looked at
                  every 1,000 spins up to 30,000 (default 0: skipped; ~1 s per wheel)

A biased wheel is caught when any chart reaches the alert line; the spins given are from the start
of the bias (median and 90th percentile), and whether the chart that rang is the right one. With a
bias that starts after 100,000 fair spins the charts must first climb from where chance left them.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from croupier.rules.wheel import FRENCH
from croupier.stats import CountedSpin, summary
from croupier.stats.watch import ALPHA, THRESHOLD, YEAR_SPINS, watch

POCKET = 17
SECTOR = tuple(FRENCH[FRENCH.index(POCKET) - 2:FRENCH.index(POCKET) + 3])  # 17 and two each side


def weights(favoured: tuple[int, ...], ratio: float) -> list[float]:
    """Pocket chances with each of `favoured` `ratio` times the fair 1/37, the rest evenly lower."""
    raised = len(favoured) * ratio / 37
    rest = (1 - raised) / (37 - len(favoured))
    return [ratio / 37 if number in favoured else rest for number in range(37)]


def fair_years(years: int, spins: int, rng: random.Random) -> None:
    alarmed = 0
    began = time.perf_counter()
    for _ in range(years):
        numbers = rng.choices(range(37), k=spins)
        alarmed += any(chart.alarm_at is not None for chart in watch(numbers, FRENCH))
    elapsed = time.perf_counter() - began
    print(f"fair wheel: {alarmed} of {years:,} wheel-years of {spins:,} spins raised an alert "
          f"({alarmed / years:.1%}; bound {ALPHA:.0%} for up to {YEAR_SPINS:,} spins a year; "
          f"alert line {THRESHOLD:.2f})")
    print(f"  the watch over {spins:,} spins: {elapsed / years:.3f} s")


def caught(label: str, favoured: tuple[int, ...], ratio: float, runs: int, rng: random.Random,
           fair_before: int = 0, horizon: int = 400_000) -> None:
    chances = weights(favoured, ratio)
    delays, right, missed = [], 0, 0
    for _ in range(runs):
        numbers = rng.choices(range(37), k=fair_before) + rng.choices(range(37), weights=chances, k=horizon)
        rung = [chart for chart in watch(numbers, FRENCH) if chart.alarm_at is not None]
        if not rung:
            missed += 1
            continue
        first = min(rung, key=lambda chart: chart.alarm_at)
        delays.append(first.alarm_at - fair_before)
        right += bool(set(first.pockets) & set(favoured))
    if not delays:
        print(f"{label}: never caught within {horizon:,} spins in {runs} runs")
        return
    delays.sort()
    tenth = delays[min(len(delays) - 1, int(0.9 * len(delays)))]
    print(f"{label}: caught after {statistics.median(delays):,.0f} spins (median), {tenth:,} (90th percentile)"
          f"; the chart that rang covers the biased pockets in {right} of {len(delays)}"
          + (f"; {missed} not caught within {horizon:,}" if missed else ""))


def one_look(wheels: int, rng: random.Random) -> None:
    alarmed = 0
    for _ in range(wheels):
        spins = [CountedSpin(n) for n in rng.choices(range(37), k=30_000)]
        alarmed += any(summary(spins[:end])["alerts"] for end in range(1_000, 30_001, 1_000))
    print(f"one-look summary looked at every 1,000 spins up to 30,000: {alarmed} of {wheels} fair wheels "
          f"alerted at least once ({alarmed / wheels:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--years", type=int, default=200)
    parser.add_argument("--year-spins", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--one-look", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(2026)
    fair_years(args.years, args.year_spins, rng)
    caught(f"pocket {POCKET} at 1.25x", (POCKET,), 1.25, args.runs, rng)
    caught(f"pocket {POCKET} at 1.25x after 100,000 fair spins", (POCKET,), 1.25, args.runs, rng, 100_000)
    sector = "-".join(map(str, SECTOR))
    caught(f"sector {sector} at 1.25x", SECTOR, 1.25, args.runs, rng)
    caught(f"sector {sector} at 1.10x", SECTOR, 1.10, args.runs, rng)
    caught(f"sector {sector} at 1.10x after 100,000 fair spins", SECTOR, 1.10, args.runs, rng, 100_000)
    if args.one_look:
        one_look(args.one_look, rng)


if __name__ == "__main__":
    main()
