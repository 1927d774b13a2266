"""`croupier payout` cold, against a bare interpreter's start, measured pairwise: each round starts
`python -c pass` and then the command with the same interpreter, so both meet the same load on the
machine. Run by hand (and under ../shared/tools/pi3 -- for a Pi 3's budget):

    .venv/bin/python bench/bench_startup_payout.py [--rounds N]

Prints the median of each and their ratio; the aim is at most 3 times `python -c pass`.
The command is the installed console script (`croupier` beside the interpreter) when there is one,
else `python -m croupier`. Both run with their bytecode cached (as pip installs it), in a temporary
PYTHONPYCACHEPREFIX: a shell with PYTHONDONTWRITEBYTECODE would otherwise time the compiler.
"""
from __future__ import annotations

import argparse
import statistics
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BETS = ["--profile", "ru-american", "--number", "17", "17x2@blue", "voisins@red", "14/17"]


def started(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from start to exit of one process, its output thrown away."""
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    script = Path(sys.executable).with_name("croupier")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "croupier"]
    bare, payout, ratios = [], [], []
    cache = tempfile.TemporaryDirectory(prefix="bench-pycache-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache.name
    for argv in ([sys.executable, "-c", "pass"], [*command, "payout", *BETS]):
        started(argv, env)  # once, so both read warm file caches and cached bytecode
    for _ in range(args.rounds):
        bare.append(started([sys.executable, "-c", "pass"], env))
        payout.append(started([*command, "payout", *BETS], env))
        ratios.append(payout[-1] / bare[-1])
    cache.cleanup()
    b, p = statistics.median(bare), statistics.median(payout)
    print(f"python -c pass   : {b * 1000:7.1f} ms (median of {args.rounds})")
    print(f"croupier payout  : {p * 1000:7.1f} ms ({' '.join(command)} payout {' '.join(BETS)})")
    print(f"ratio of medians : {p / b:5.2f}  (median of pairwise ratios {statistics.median(ratios):.2f}; aim <= 3)")


if __name__ == "__main__":
    main()
