"""The table's memory over a long run of spins: resident memory against spins played. Run by hand:

    .venv/bin/python bench/bench_memory.py [--spins 1000] [--every 50] [--pi3 PATH]

The table app runs as bench_ui.py runs it (a child on a pseudo-terminal of its own, TERM=linux, 80x24,
its wheel an SS2 on another pseudo-terminal this script writes). Each spin is played as at the
table: the wheel's game to its result, the payout sheet drawn, one chip counted on its first row,
D, "Payouts recorded". Every `--every` spins a line gives the spins played, the child's resident
memory and the growth per spin since the first line (after 20 spins, once every screen has been
drawn). `--pi3 PATH` runs the table alone (not this script) under that Pi 3 budget wrapper.

A kiosk that never restarts plays 40 spins an hour: 10 KB a spin is 10 MB a day.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from bench_ui import Terminal, prepare, result_to_sheet, table_on_pty

from croupier.wheel.games import SimulatedWheel

WARM = 20  # spins before the first figure: every screen of a spin drawn once


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def table_pid(pid_file: Path, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    while not pid_file.exists() or not pid_file.read_text().strip():
        if time.monotonic() > deadline:
            raise TimeoutError("the table never started")
        time.sleep(0.1)
    return int(pid_file.read_text())


def child(pid_file: str, journal: str, device: str) -> None:
    import bench_ui

    Path(pid_file).write_text(str(os.getpid()))  # under pi3 the table is not this script's child
    bench_ui.child(journal, device)


def play(screen: Terminal, wheel_master: int, wheel: SimulatedWheel, rng: random.Random) -> None:
    result_to_sheet(screen, wheel_master, wheel, rng.randrange(37))
    since = screen.mark()
    screen.type("1d")  # one chip on the first row, payouts done
    try:
        screen.wait_for(b"Payouts recorded", since, timeout=10)
    except TimeoutError:  # no colour played: D on an untouched sheet is asked once more
        screen.type("d")
        screen.wait_for(b"Payouts recorded", since, timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=1000)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--pi3", metavar="PATH", help="run the table under this Pi 3 budget wrapper")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        journal = prepare(Path(folder))
        pid_file = Path(folder) / "table.pid"
        command = [*([args.pi3, "--"] if args.pi3 else []), sys.executable, __file__, "--child", str(pid_file)]
        with table_on_pty(journal, command) as (_, screen, wheel_master):
            screen.wait_for(b"menu", 0, timeout=120)
            pid = table_pid(pid_file)
            time.sleep(1.0)  # the wheel link opens
            wheel, rng = SimulatedWheel("cammegh-ss2", random.Random(5)), random.Random(7)
            first = None
            started = time.monotonic()
            print(f"{'spins':>6} {'RSS MB':>8} {'KB/spin':>8} {'minutes':>8}", flush=True)
            for spin in range(1, args.spins + 1):
                play(screen, wheel_master, wheel, rng)
                if spin == WARM:
                    first = (spin, rss_kb(pid))
                if first is not None and (spin == WARM or spin % args.every == 0 or spin == args.spins):
                    rss = rss_kb(pid)
                    growth = (rss - first[1]) / (spin - first[0]) if spin > first[0] else 0.0
                    print(f"{spin:>6} {rss / 1024:>8.1f} {growth:>8.1f} {(time.monotonic() - started) / 60:>8.1f}",
                          flush=True)


if __name__ == "__main__":
    main()
