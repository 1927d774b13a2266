"""Wheel-integrity statistics over 500,000 spins (aim: under 3 s on the machine that runs it).

Run by hand: .venv/bin/python bench/bench_stats.py [SPINS] [--false-alarms JOURNALS]
Prints the time of each test family and of the whole summary, and the memory the summary takes
on top of the spins themselves (tracemalloc peak). With --false-alarms, also how often the whole
summary of a fair wheel raises any alert (aim: at most 5%), over that many simulated journals of
each of 300, 3,000 and 30,000 spins."""
from __future__ import annotations

import random
import sys
import time
import tracemalloc
from datetime import datetime, timedelta

from croupier.rules.wheel import FRENCH
from croupier.stats import CountedSpin, summary, wheel_chart
from croupier.stats.pockets import chi_square_uniform, max_count_test, number_deviations
from croupier.stats.sectors import sliding_sectors
from croupier.stats.signature import dealer_signatures


def spins(count: int) -> list[CountedSpin]:
    rng = random.Random(1)
    start = datetime(2025, 1, 1)
    croupiers = [f"croupier-{i}" for i in range(12)]
    return [CountedSpin(rng.randrange(37), croupiers[(i // 60) % 12], ("clockwise", "anticlockwise")[i % 2],
                        None, start + timedelta(seconds=90 * i)) for i in range(count)]


def timed(label: str, work):
    began = time.perf_counter()
    result = work()
    print(f"  {label:<28} {time.perf_counter() - began:8.3f} s")
    return result


def false_alarms(journals: int) -> None:
    croupiers, directions = ("ana", "rui", "eva"), ("clockwise", "anticlockwise")
    shapes = [[[CountedSpin(n, c, d) for d in directions] for c in croupiers] for n in range(37)]
    rng = random.Random(7)
    print(f"false alarms of the whole summary on a fair wheel, {journals:,} journals per size:")
    for size in (300, 3_000, 30_000):
        alarmed = 0
        for _ in range(journals):
            numbers = rng.choices(range(37), k=size)
            alarmed += bool(summary([shapes[n][(i // 60) % 3][i % 2] for i, n in enumerate(numbers)])["alerts"])
        print(f"  {size:>6,} spins: {alarmed:,} of {journals:,} raised an alert ({alarmed / journals:.1%}; aim <= 5%)")


def main() -> None:
    if "--false-alarms" in sys.argv:
        at = sys.argv.index("--false-alarms")
        false_alarms(int(sys.argv[at + 1]))
        del sys.argv[at:at + 2]
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500_000
    data = spins(count)
    print(f"{count:,} spins")
    counts = [0] * 37
    for spin in data:
        counts[spin.number] += 1
    timed("chi-square", lambda: chi_square_uniform(counts))
    timed("numbers (Holm)", lambda: number_deviations(counts))
    timed("maximum count", lambda: max_count_test(counts))
    timed("sliding sectors (259)", lambda: sliding_sectors(counts, FRENCH))
    timed("dealer signature", lambda: dealer_signatures(
        ((s.number, s.croupier, s.direction) for s in data), FRENCH))
    timed("chart", lambda: wheel_chart(counts, FRENCH))
    tracemalloc.start()
    began = time.perf_counter()
    summary(data)
    elapsed = time.perf_counter() - began
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  {'summary (everything)':<28} {elapsed:8.3f} s   (aim < 3 s; under tracemalloc, which slows it)")
    began = time.perf_counter()
    summary(data)
    print(f"  {'summary, untraced':<28} {time.perf_counter() - began:8.3f} s")
    print(f"  memory peak of the summary  {peak / 2**20:8.1f} MiB on top of the spins")


if __name__ == "__main__":
    main()
