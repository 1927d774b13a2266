"""How fast a full table settles: 10 owners sharing every inside position and every announced bet
the profile offers, settled for each of the 37 numbers in turn. Run by hand:

    .venv/bin/python bench/bench_settlement.py [--profile ID] [--seconds S]

Prints settlements per second and milliseconds per full table; the aim is under 1 ms. Also times
the heavier case of every owner playing all of those bets.
"""
from __future__ import annotations

import argparse
import time

from croupier.rules.announced import A_CHEVAL_PAIRS, SERIES
from croupier.rules.bets import parse_bet
from croupier.rules.layout import INSIDE_KINDS, POSITIONS
from croupier.rules.profiles import PROFILE_IDS, load_profile
from croupier.rules.settlement import settle

OWNERS = [f"colour{i}" for i in range(10)]


def full_table_specs(profile) -> list[str]:
    specs = [p.name for p in POSITIONS if p.kind in INSIDE_KINDS]
    specs += [name for name in SERIES if profile.offers(name)]
    specs += [f"neighbours:{n}:{k}" for n in range(37) for k in profile.neighbour_sides()]
    if profile.offers("complete"):
        specs += [f"complete:{n}" for n in range(37)]
    if profile.offers("finale-en-plein"):
        specs += [f"finale:{d}" for d in range(10)]
    if profile.offers("finale-a-cheval"):
        specs += [f"finale:{a}/{b}" for a, b in A_CHEVAL_PAIRS]
    return specs


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
    parser.add_argument("--profile", default="mt-fair", choices=PROFILE_IDS)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    profile = load_profile(args.profile)
    specs = full_table_specs(profile)
    shared = [parse_bet(f"{spec}x3@{OWNERS[i % 10]}", profile) for i, spec in enumerate(specs)]
    everyone = [parse_bet(f"{spec}x3@{owner}", profile) for owner in OWNERS for spec in specs]
    for label, bets in (("full table, bets shared by 10 owners", shared),
                        ("every owner plays every bet", everyone)):
        rounds, elapsed = measure(bets, profile, args.seconds)
        print(f"{args.profile}: {label}: {len(bets)} bets: {rounds / elapsed:,.0f} settlements/s, "
              f"{1000 * elapsed / rounds:.3f} ms per table")


if __name__ == "__main__":
    main()
