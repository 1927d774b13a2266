"""The report's checkpoints: what they cost the table, and the first report of a journal never
reported before (no saved fold in the cache) that they make fast: aim < 2 s at 500,000 spins, and
< 3 s at 100,000 spins on a Pi 3's budget (`--pi3 TOOL`, as root).

Run by hand (the journals take minutes to write the first time; --dir keeps them):

    .venv/bin/python bench/bench_checkpoints.py --dir DIR [--spins 100000,500000] [--pi3 TOOL]
        [--python OLD_PYTHON --python NEW_PYTHON] [--turns 3]

Each `--python` is an interpreter with croupier installed (normally, not editable); their reports are
run in turns, so a noisy machine weighs on each alike. The report runs in a process of its own with an
empty cache directory: the first report of the journal, from its newest checkpoint (or, for a
version without checkpoints, from its first event).
"""
from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_journal import sensor_journal  # noqa: E402  (the same journals bench_journal writes)


def table_cost(path: Path) -> None:
    """What the table's thread does once per checkpoint: the checkpoint before taken up, the events
    since folded and checked, the fold written and signed. Made here as the table would, at the
    event that leaves a reader the longest tail (a checkpoint's worth of events less one), after one
    made from the first event (as after an upgrade). CPU seconds, and per event between two."""
    from croupier.journal import checkpoints
    from croupier.journal.key import default_key_path, read_key
    from croupier.journal.signing import default_signing_key_path, read_private_key
    from croupier.journal.store import Journal

    with Journal.open(path, read_only=True) as journal:
        head = journal.head[0]
    interval = max(checkpoints.EVERY, head // checkpoints.SHARE)
    key, signing = read_key(default_key_path(path)), read_private_key(default_signing_key_path(path))
    with sqlite3.connect(path) as conn:  # the ones the table made as the journal was written: made again here
        conn.execute(checkpoints.SCHEMA)
        conn.execute("DELETE FROM report_checkpoints")
    for upto, what in ((head - 2 * interval + 1, "from the first event"), (head - interval + 1, "from the one before")):
        started, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_utime
        assert checkpoints.write(path, key, signing, upto, print)
        cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu
        seconds = time.perf_counter() - started
        with sqlite3.connect(path) as conn:
            (size,) = conn.execute("SELECT length(fold) FROM report_checkpoints WHERE seq = ?", (upto,)).fetchone()
        print(f"checkpoint at event {upto:,} {what}: {seconds:.2f} s ({cpu:.2f} s CPU), {size / 2**20:.1f} MiB")
    print(f"one every {interval:,} events at this size: {cpu / interval * 1e6:.0f} us CPU and {size / interval:.0f} "
          f"bytes per event; a report folds at most {interval - 1:,} events after it")


# The table's own cost per spin, in the interpreter measured: a sensor table's session (launch, no
# more bets, result: three events a spin, each appended and synced), its checkpoints included.
TABLE_SPINS = """
import sys, tempfile, threading, time
from decimal import Decimal
from pathlib import Path
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Ball, Source

spins = int(sys.argv[1])
with tempfile.TemporaryDirectory(dir=sys.argv[2]) as folder:
    clock = FakeClock()
    session = TableSession.open(Path(folder) / "journal.db", clock)
    balls = tuple(Ball(id=name, diameter_mm=Decimal(21)) for name in "AB")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=balls, croupier="Ana",
                       sensor_only=True)
    direction, cpu, started = Direction.CLOCKWISE, time.process_time(), time.perf_counter()
    for n in range(spins):
        clock.advance(seconds=30)
        session.launch(direction=direction, source=Source.SENSOR, wheel_game=n % 256 + 1)
        session.close_bets(source=Source.SENSOR)
        session.sensor_result(number=n * 11 % 37, wheel_game=n % 256 + 1, direction=direction)
        direction = direction.opposite()
    for thread in threading.enumerate():
        if thread.name == "report-checkpoint":
            thread.join()
    print(time.perf_counter() - started, time.process_time() - cpu, session.seq)
    session.close()
"""


def table_per_spin(python: str, spins: int, folder: Path) -> tuple[float, float, int]:
    done = subprocess.run([python, "-c", TABLE_SPINS, str(spins), str(folder)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    seconds, cpu, events = done.stdout.split()
    return float(seconds), float(cpu), int(events)


def first_report(python: str, path: Path, pi3: str | None) -> tuple[float, int]:
    """Seconds and exit status of `croupier report --db PATH` in a new process, nothing cached."""
    with tempfile.TemporaryDirectory(prefix="bench-report-cache-") as cache, open(os.devnull, "wb") as sink:
        command = [python, "-m", "croupier", "report", "--db", str(path)]
        if pi3:
            command = [pi3, "--", *command]
        started = time.perf_counter()
        done = subprocess.run(command, stdout=sink, stderr=subprocess.PIPE,
                              env={**os.environ, "XDG_CACHE_HOME": cache})
        return time.perf_counter() - started, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True, help="folder for the journals (kept for the next run)")
    parser.add_argument("--spins", default="100000,500000", help="spins of each journal (100000,500000)")
    parser.add_argument("--python", action="append", help="an interpreter with croupier installed (repeat to "
                                                           "compare, in turns; default: this one)")
    parser.add_argument("--pi3", metavar="TOOL", help="run each report under this Pi 3 budget tool")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--no-cost", action="store_true", help="skip the table's cost")
    parser.add_argument("--table-spins", type=int, metavar="N",
                        help="only the table's own cost: N sensor spins through the session, per interpreter, in "
                             "turns, the journal in --dir (its disk's syncs included)")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    pythons = args.python or [sys.executable]
    if args.table_spins:
        costs: dict[str, list[tuple[float, float, int]]] = {python: [] for python in pythons}
        for _ in range(args.turns):
            for python in pythons:
                costs[python].append(table_per_spin(python, args.table_spins, args.dir))
        for python, runs in costs.items():
            print(f"table, {args.table_spins:,} sensor spins ({runs[0][2]:,} events), {python}: "
                  + ", ".join(f"{seconds / args.table_spins * 1e3:.2f} ms ({cpu / args.table_spins * 1e3:.2f} ms CPU)"
                              for seconds, cpu, _ in runs) + " a spin")
        return
    for spins in (int(n) for n in args.spins.split(",")):
        path = sensor_journal(args.dir, spins)
        if not args.no_cost:
            table_cost(path)
        times: dict[str, list[float]] = {python: [] for python in pythons}
        for _ in range(args.turns):
            for python in pythons:
                seconds, status = first_report(python, path, args.pi3)
                assert status == 0, f"{python}: report failed on {path}"
                times[python].append(seconds)
        for python, seconds in times.items():
            print(f"first report, {spins:,} spins{' under ' + args.pi3 if args.pi3 else ''}, {python}: "
                  + ", ".join(f"{s:.2f}" for s in seconds) + f" s (best {min(seconds):.2f})", flush=True)


if __name__ == "__main__":
    main()
