"""`croupier payout` cold, against a bare interpreter's start, measured pairwise: each round starts
`python -c pass` and then the command with the same interpreter, so both meet the same load on the
machine. Run by hand (and under ../shared/tools/pi3 -- for a Pi 3's budget):

    .venv/bin/python bench/bench_startup_payout.py [--rounds N]

Prints the median of each and their ratio; the aim is at most 3 times `python -c pass`.
The command is the installed console script (`croupier` beside the interpreter) when there is one,
else `python -m croupier`.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BETS = ["--profile", "ru-american", "--number", "17", "17x2@blue", "voisins@red", "14/17"]


def started(argv: list[str]) -> float:
    """Seconds from start to exit of one process, its output thrown away."""
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    script = Path(sys.executable).with_name("croupier")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "croupier"]
    bare, payout, ratios = [], [], []
    started([*command, "payout", *BETS])  # once, so both read warm file caches
    for _ in range(args.rounds):
        bare.append(started([sys.executable, "-c", "pass"]))
        payout.append(started([*command, "payout", *BETS]))
        ratios.append(payout[-1] / bare[-1])
    b, p = statistics.median(bare), statistics.median(payout)
    print(f"python -c pass   : {b * 1000:7.1f} ms (median of {args.rounds})")
    print(f"croupier payout  : {p * 1000:7.1f} ms ({' '.join(command)} payout {' '.join(BETS)})")
    print(f"ratio of medians : {p / b:5.2f}  (median of pairwise ratios {statistics.median(ratios):.2f}; aim <= 3)")


if __name__ == "__main__":
    main()
