"""Opening a year-long journal in the review app (aim: under 2 s), and the memory it takes.

Run by hand: .venv/bin/python bench/bench_review.py [--days N | --headless SPINS] [--journal PATH] [--rebuild]
The year is built once (a few minutes: every event is encoded and hash-chained like the table
does) and kept at PATH for later runs; --headless SPINS builds instead, beside PATH, the journal
`croupier run --headless` writes (the wheel sensor alone, one opening that never closes). Prints the time to a usable screen (journal opened
read-only, shifts listed, the latest shift loaded and every pane filled), the time of the
whole-journal statistics, and memory (tracemalloc peak and the process's maximum RSS)."""
from __future__ import annotations

import argparse
import asyncio
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from croupier.journal.store import Journal
from croupier.rules.spin import Direction
from croupier.table import events as ev

SPINS_PER_HOUR = 40
HOURS_PER_SHIFT = 10
CROUPIERS = ("Ana", "Rui", "Eva", "Luis")


def shift_events(day: int, rng: random.Random, start: datetime) -> list[ev.Event]:
    opened = start + timedelta(days=day)
    balls = (ev.Ball(id="B1", diameter_mm=Decimal("20")), ev.Ball(id="B2", diameter_mm=Decimal("20")))
    out: list[ev.Event] = [
        ev.TableOpened(time=opened, profile="pt-americana", minimum=Decimal("5"), colours=("red", "green", "blue"),
                       balls=balls, ball_in_play="B1", croupier=CROUPIERS[0], by="Marta"),
        ev.ColourAssigned(time=opened, colour="red", player=f"p{day}", chip_value=Decimal("5"), chips=200, by="Ana"),
    ]
    croupier, direction, spin = CROUPIERS[0], Direction.CLOCKWISE, day * SPINS_PER_HOUR * HOURS_PER_SHIFT
    for hour in range(HOURS_PER_SHIFT):
        if hour:
            incoming = CROUPIERS[hour % len(CROUPIERS)]
            out.append(ev.StaffRelieved(time=opened + timedelta(hours=hour), role=ev.Role.CROUPIER,
                                        outgoing=croupier, incoming=incoming, overdue=False))
            out.append(ev.BallSwapped(time=opened + timedelta(hours=hour), ball="B2" if hour % 2 else "B1",
                                      previous="B1" if hour % 2 else "B2", late=False, by=incoming))
            croupier = incoming
        ball = "B2" if hour % 2 else "B1"
        for k in range(SPINS_PER_HOUR):
            spin += 1
            t = opened + timedelta(hours=hour, seconds=90 * k)
            number = rng.randrange(37)
            direction = direction.opposite()
            won = Fraction(35) if number == 17 else Fraction(0)
            out += [
                ev.BetsPlaced(time=t, spin=spin, colour="red", stakes=(ev.Stake(bet="plein 17", chips=1),)),
                ev.BallLaunched(time=t + timedelta(seconds=20), spin=spin, direction=direction, ball=ball,
                                croupier=croupier, source=ev.Source.SENSOR),
                ev.BetsClosed(time=t + timedelta(seconds=30), spin=spin, source=ev.Source.SENSOR),
                ev.ResultRecorded(time=t + timedelta(seconds=40), spin=spin, number=number, source=ev.Source.SENSOR,
                                  ball=ball, croupier=croupier, direction=direction,
                                  outcomes=(ev.ColourOutcome(colour="red", staked=1, won=won,
                                                             returned=Fraction(1) if won else Fraction(0),
                                                             lost=Fraction(0) if won else Fraction(1)),)),
                ev.PayoutsCompleted(time=t + timedelta(seconds=60), spin=spin, by=croupier),
            ]
    out.append(ev.TableClosed(time=opened + timedelta(hours=HOURS_PER_SHIFT), by="Marta"))
    return out


def build(path: Path, days: int) -> None:
    rng = random.Random(2025)
    start = datetime(2025, 1, 1, 14, 0, tzinfo=timezone.utc)
    began = time.perf_counter()
    with Journal.open(path) as journal:
        for day in range(days):
            journal.append(shift_events(day, rng, start))
    print(f"built {path} ({days} shifts) in {time.perf_counter() - began:.0f} s")


async def open_in_app(path: Path) -> float:
    from croupier.review.shifts import open_read_only

    began = time.perf_counter()
    from croupier.review.app import ReviewApp  # imported inside the timing: a real start pays for it
    app = ReviewApp(open_read_only(path))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        ready = time.perf_counter() - began
        rows = app.query_one("#timeline-table").row_count
    app.journal.close()
    print(f"  usable screen (latest shift, {rows:,} events in the timeline)   {ready:6.2f} s   (aim < 2 s)")
    return ready


def whole_journal_statistics(path: Path) -> None:
    from croupier.review.shifts import open_read_only
    from croupier.history.spins import SPIN_EVENTS, counted_spins
    from croupier.stats import summary

    began = time.perf_counter()
    with open_read_only(path) as journal:
        spins = counted_spins(journal.events(SPIN_EVENTS))
        summary(spins)
    print(f"  whole-journal statistics ({len(spins):,} spins, key a)        {time.perf_counter() - began:6.2f} s")


def spin_lookup(path: Path) -> None:
    from croupier.review.shifts import find_spin, list_shifts, open_read_only

    with open_read_only(path) as journal:
        began = time.perf_counter()
        shifts = list_shifts(journal)
        listed = time.perf_counter() - began
        began = time.perf_counter()
        found = find_spin(journal, 100)
        looked = time.perf_counter() - began
    print(f"  shifts listed ({len(shifts):,}, cut at openings and midnights)      {listed:6.2f} s")
    print(f"  spin 100 found anywhere in the journal (event {found})        {looked * 1000:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench_review.py")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--headless", type=int, metavar="SPINS", help="a sensor-only journal of SPINS spins instead")
    parser.add_argument("--open-only", action="store_true", help=argparse.SUPPRESS)  # the child's part
    parser.add_argument("--journal", type=Path, default=Path(tempfile.gettempdir()) / "croupier-bench-review-year.db")
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    if args.rebuild:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{args.journal}{suffix}").unlink(missing_ok=True)
    if args.headless:
        from bench_journal import sensor_journal

        args.journal = sensor_journal(args.journal.parent, args.headless)  # sensor-SPINS-spins.db beside PATH
    elif not args.journal.exists():
        build(args.journal, args.days)
    with Journal.open(args.journal, read_only=True) as journal:
        events = journal.head[0]
    size = args.journal.stat().st_size
    if args.open_only:
        asyncio.run(open_in_app(args.journal))
        print(f"  memory: maximum RSS of the review's process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}"
              " MiB   (aim < 100 MiB)")
        return
    print(f"{args.journal}: {events:,} events, {size / 2**20:.0f} MiB")
    print("  first open in a process of its own, Textual and croupier imported on the way, as at a real start:",
          flush=True)
    subprocess.run([sys.executable, __file__, "--journal", str(args.journal), "--open-only"], check=True)
    print("  again, traced for memory (tracemalloc slows it):")
    tracemalloc.start()
    asyncio.run(open_in_app(args.journal))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  memory: tracemalloc peak {peak / 2**20:.1f} MiB while opening")
    spin_lookup(args.journal)
    whole_journal_statistics(args.journal)
    print(f"  memory: maximum RSS of this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
