"""How fast a full table settles: 10 owners sharing every inside position and every announced bet
the profile offers, settled for each of the 37 numbers in turn. Run by hand:

    .venv/bin/python bench/bench_settlement.py [--profile ID] [--seconds S]

Prints settlements per second and milliseconds per full table; the aim is under 1 ms. Also times
the heavier case of every owner playing all of those bets.
"""
from __future__ import annotations

import argparse
import time

from croupier.rules.bets import offered_specs, parse_bet
from croupier.rules.profiles import load_profile, profile_ids
from croupier.rules.settlement import settle

OWNERS = [f"colour{i}" for i in range(10)]


def measure(bets, profile, seconds: float) -> tuple[int, float]:
    rounds, start = 0, time.perf_counter()
    while True:
        for number in range(37):
            settle(number, bets, profile)
        rounds += 37
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return rounds, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="mt-fair", choices=profile_ids())
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    profile = load_profile(args.profile)
    specs = offered_specs(profile, outside=False)
    shared = [parse_bet(f"{spec}x3@{OWNERS[i % 10]}", profile) for i, spec in enumerate(specs)]
    everyone = [parse_bet(f"{spec}x3@{owner}", profile) for owner in OWNERS for spec in specs]
    for label, bets in (("full table, bets shared by 10 owners", shared),
                        ("every owner plays every bet", everyone)):
        rounds, elapsed = measure(bets, profile, args.seconds)
        print(f"{args.profile}: {label}: {len(bets)} bets: {rounds / elapsed:,.0f} settlements/s, "
              f"{1000 * elapsed / rounds:.3f} ms per table")


if __name__ == "__main__":
    main()
