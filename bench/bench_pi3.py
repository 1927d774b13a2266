"""Every figure of the live table's budget on a Raspberry Pi 3, one line each. Run by hand, plain
and then on a Pi 3's budget (a CPU quota and a memory cap; see the README's Performance section):

    .venv/bin/python bench/bench_pi3.py [--quick] [--review] [--only NAME,...]
    sudo pi3 -- .venv/bin/python bench/bench_pi3.py ...

Each figure comes from the real commands, run in child processes on pseudo-terminals:

- ui: sensor line to number on screen (bench_ui.py, 3 runs of 30 spins: the median of the
  medians, and the worst spin), and the table screen's idle CPU;
- table: `croupier table` to its first frame (median of 5 starts, each beside a bare Textual app's);
- demo: `croupier demo`'s resident memory, growth per minute after its first 20 s;
- run: `croupier run --headless` CPU at real wheel pace, and the fsyncs per game (strace);
- billboard: `croupier billboard` to its first frame (the same way);
- review: bench_review.py's figures, with --review (minutes: it builds a year-long journal);
- settlement: a full table under mt-fair (bench_settlement.py);
- core: the table's fold and codec per event;
- help: `croupier COMMAND --help` for every command (median of 5).

The machine's load average is printed with each figure: a busy machine slows everything down.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_ui import Terminal, cpu_seconds, prepare, quit_app

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
CROUPIER = [sys.executable, "-m", "croupier"]
# The commands run as installed: their modules compiled once and cached, as pip leaves them.
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "TERM": "linux", "GPIOZERO_PIN_FACTORY": "mock"}


def load() -> str:
    return "load " + " ".join(Path("/proc/loadavg").read_text().split()[:3])


def say(row: str, figure: str) -> None:
    print(f"{row:<48} {figure}   [{load()}]", flush=True)


def on_terminal(command: list[str], rows: int = 24, columns: int = 80) -> tuple[subprocess.Popen, Terminal]:
    """`command` in a child process drawing on a pseudo-terminal of its own."""
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=ENV, cwd=ROOT,
                               start_new_session=True)
    os.close(slave)
    return process, Terminal(master)


def stop(process: subprocess.Popen, terminal: Terminal) -> None:
    quit_app(process, terminal)
    os.close(terminal.master)


def time_to_frame(command: list[str], pattern: bytes, starts: int) -> list[float]:
    """Milliseconds from starting `command` to `pattern` drawn on its terminal, per start."""
    times = []
    for _ in range(starts):
        started = time.monotonic()
        process, terminal = on_terminal(command)
        try:
            times.append(1000 * (terminal.wait_for(pattern, 0, timeout=120) - started))
        finally:
            stop(process, terminal)
    return times


# --- the rows ------------------------------------------------------------------------------------

def ui(args) -> None:
    medians, worst, idle = [], [], []
    for _ in range(args.ui_runs):
        out = subprocess.run([sys.executable, str(BENCH / "bench_ui.py"), "--spins", str(args.spins)],
                             capture_output=True, text=True, cwd=ROOT, env=ENV, check=True).stdout
        found = re.search(r"median ([\d.]+) ms, worst ([\d.]+) ms", out)
        medians.append(float(found[1]))
        worst.append(float(found[2]))
        idle.append(float(re.search(r"idle CPU: ([\d.]+) %", out)[1]))
    say("sensor line -> number on screen", f"median {statistics.median(medians):.1f} ms "
        f"(runs {', '.join(f'{m:.1f}' for m in medians)}), worst {max(worst):.1f} ms")
    say("table screen idle CPU", f"{statistics.median(idle):.2f} % of a core")


def table_config(folder: Path, journal: Path) -> Path:
    path = folder / "table.toml"
    path.write_text(f'[table]\nlanguage = "en"\n[wheel]\nprotocol = "none"\n[keypad]\nkind = "usb"\n'
                    f'[display]\nenabled = false\n[journal]\npath = "{journal}"\n[logging]\ndestination = "none"\n')
    return path


# The floor under every start: Python, Textual and one line drawn. This machine's speed drifts by a
# third within an hour, so each start is given beside the floor measured at the same moment.
BARE_TEXTUAL = ("from textual.app import App\nfrom textual.widgets import Static\n"
                "class Bare(App):\n    def compose(self):\n        yield Static('menu EUR')\nBare().run()\n")


def _starts(args, command: list[str], pattern: bytes) -> str:
    times, floor = [], []
    for _ in range(args.starts):  # taken in turns, so that both see the machine as it is
        times += time_to_frame(command, pattern, 1)
        floor += time_to_frame([sys.executable, "-c", BARE_TEXTUAL], b"menu", 1)
    return (f"median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms "
            f"(a bare Textual app: {statistics.median(floor):.0f} ms)")


def table(args, folder: Path, journal: Path) -> None:
    say("croupier table to first frame",
        _starts(args, [*CROUPIER, "table", "--config", str(table_config(folder, journal))], b"menu"))


def billboard(args, journal: Path) -> None:
    say("billboard start", _starts(args, [*CROUPIER, "billboard", "--db", str(journal)], rb"EUR"))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def demo(args, folder: Path) -> None:
    process, terminal = on_terminal([*CROUPIER, "demo", "--speed", "20", "--language", "en",
                                     "--db", str(folder / "demo.db")])
    try:
        terminal.wait_for(b"menu", 0, timeout=120)
        time.sleep(20)  # the imports, the first games and the caches settle
        first, started = rss_mb(process.pid), time.monotonic()
        time.sleep(args.demo_seconds)
        last, minutes = rss_mb(process.pid), (time.monotonic() - started) / 60
    finally:
        stop(process, terminal)
    say("croupier demo memory", f"{(last - first) / minutes:+.2f} MB per minute "
        f"({first:.1f} -> {last:.1f} MB over {minutes:.1f} min, wheel at 20x)")


def results(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT count(*) FROM events WHERE kind = 'result-recorded'").fetchone()[0]


def headless(args, folder: Path) -> None:
    """CPU of `croupier run --headless` with a wheel at real pace; fsyncs per game with a fast one."""
    for speed, seconds, trace in ((1.0, args.run_seconds, False), (10.0, args.run_seconds / 2, True)):
        db = folder / f"run-{speed:g}.db"
        wheel = subprocess.Popen([*CROUPIER, "wheel-sim", "--protocol", "cammegh-ss2", "--speed", str(speed),
                                  "--seed", "5", "--fault-every", "1000"], stdout=subprocess.PIPE, text=True,
                                 cwd=ROOT, env=ENV)
        device = wheel.stdout.readline().strip()
        run = subprocess.Popen([*CROUPIER, "run", "--headless", "--db", str(db), "--profile", "pt-americana",
                                "--wheel", f"cammegh-ss2:{device}"], stderr=subprocess.DEVNULL, cwd=ROOT, env=ENV)
        try:
            time.sleep(5)  # started, table opened
            if trace:
                out = folder / "strace.txt"
                tracer = subprocess.Popen(["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", str(out),
                                           "-p", str(run.pid)], stderr=subprocess.DEVNULL)
                time.sleep(1)
            games, cpu, started = results(db), cpu_seconds(run.pid), time.monotonic()
            time.sleep(seconds)
            games, cpu = results(db) - games, cpu_seconds(run.pid) - cpu
            wall = time.monotonic() - started
            if trace:
                tracer.send_signal(signal.SIGINT)
                tracer.wait(timeout=10)
                calls = sum(int(line.split()[3]) for line in out.read_text().splitlines()
                            if line.split()[-1:] in (["fsync"], ["fdatasync"]))
                say("fsyncs per game (run --headless)", f"{calls / max(games, 1):.1f} ({calls} over {games} games)")
            else:
                say("run --headless CPU at real wheel pace", f"{100 * cpu / wall:.2f} % of a core over {wall:.0f} s "
                    f"({games} games)")
        finally:
            for process in (run, wheel):
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()


class MemoryTable:
    """The session's commands against a state in memory: the events a busy table records."""

    def __init__(self) -> None:
        from datetime import datetime, timezone

        from croupier.table.clock import FakeClock
        from croupier.table.state import INITIAL

        self.clock = FakeClock(datetime(2026, 1, 1, 20, tzinfo=timezone.utc))
        self.state = INITIAL
        self.events = []

    def run(self, command, **arguments) -> None:
        from croupier.table.commands import execute
        from croupier.table.state import fold

        events = execute(command, self.state, self.clock.now(), **arguments)
        self.state = fold(events, self.state)
        self.events += events


def core(args) -> None:
    """The table's core per event: the fold, and the codec both ways (the journal's and the
    snapshot's), over the events of 200 attended spins (bench_journal.py's busy table)."""
    from decimal import Decimal

    from bench_journal import attended_spin, staff_and_open

    from croupier.table import colours
    from croupier.table.events import decode as decode_event, encode as encode_event
    from croupier.table.state import INITIAL, decode_state, encode_state, fold

    table = MemoryTable()
    staff_and_open(table, "pt-americana", sensor_only=False)
    for colour in ("red", "green"):
        table.run(colours.assign_colour, colour=colour, player=colour, chip_value=Decimal(5), chips=10**6, by="Ana")
    for k in range(200):
        attended_spin(table, k * 7 % 37)
    events = table.events
    encoded = [encode_event(e) for e in events]

    def per_event(action) -> float:
        best = min(_timed(action) for _ in range(5))
        return 1e6 * best / len(events)

    fold_us = per_event(lambda: fold(events, INITIAL))
    encode_us = per_event(lambda: [encode_event(e) for e in events])
    decode_us = per_event(lambda: [decode_event(data) for data in encoded])
    snapshot = encode_state(table.state)
    state_ms = 1000 * min(_timed(lambda: decode_state(encode_state(table.state))) for _ in range(5))
    say("table core per event", f"fold {fold_us:.1f} us, encode {encode_us:.1f} us, decode {decode_us:.1f} us "
        f"({len(events)} events); snapshot ({len(snapshot)} bytes) both ways {state_ms:.2f} ms")


def _timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def review(args) -> None:
    out = subprocess.run([sys.executable, str(BENCH / "bench_review.py")], capture_output=True, text=True,
                         cwd=ROOT, env=ENV).stdout
    for line in out.strip().splitlines():
        say("review", line)


def settlement(args) -> None:
    out = subprocess.run([sys.executable, str(BENCH / "bench_settlement.py"), "--profile", "mt-fair",
                          "--seconds", "3"], capture_output=True, text=True, cwd=ROOT, env=ENV, check=True).stdout
    say("full-table settlement (mt-fair)", out.strip().splitlines()[0])


def help_(args) -> None:
    from croupier.cli import COMMANDS  # here: bench_startup.py runs beside a venv, with any python3

    times = {}
    for name in ["", *COMMANDS]:
        runs = []
        for _ in range(5):
            started = time.perf_counter()
            subprocess.run([*CROUPIER, *([name] if name else []), "--help"], capture_output=True, cwd=ROOT, env=ENV)
            runs.append(1000 * (time.perf_counter() - started))
        times[name or "croupier"] = statistics.median(runs)
    bare = statistics.median(_python_start() for _ in range(5))
    say("--help of every command", ", ".join(f"{name} {ms:.0f}" for name, ms in times.items())
        + f" ms (python alone {bare:.0f} ms)")


def _python_start() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], cwd=ROOT, env=ENV)
    return 1000 * (time.perf_counter() - started)


ROWS = ("ui", "table", "demo", "run", "billboard", "review", "settlement", "core", "help")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help=f"these rows only, comma-separated: {','.join(ROWS)}")
    parser.add_argument("--quick", action="store_true", help="shorter runs: a first look, not figures to report")
    parser.add_argument("--review", action="store_true", help="also run bench_review.py (minutes)")
    args = parser.parse_args()
    rows = args.only.split(",") if args.only else [row for row in ROWS if row != "review" or args.review]
    args.ui_runs, args.spins = (1, 10) if args.quick else (3, 30)
    args.starts = 2 if args.quick else 5
    args.demo_seconds = 30 if args.quick else 240
    args.run_seconds = 60 if args.quick else 180
    if "run" in rows and shutil.which("strace") is None:
        print("strace is not installed: fsyncs per game are not counted", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "croupier"], cwd=ROOT, env=ENV, check=True)
    with tempfile.TemporaryDirectory(prefix="bench-pi3-") as name:
        folder = Path(name)
        journal = None
        if {"table", "billboard"} & set(rows):
            journal = prepare(folder)
        for row in rows:
            if row == "ui":
                ui(args)
            elif row == "table":
                table(args, folder, journal)
            elif row == "demo":
                demo(args, folder)
            elif row == "run":
                headless(args, folder)
            elif row == "billboard":
                billboard(args, journal)
            elif row == "review":
                review(args)
            elif row == "settlement":
                settlement(args)
            elif row == "core":
                core(args)
            elif row == "help":
                help_(args)


if __name__ == "__main__":
    main()
