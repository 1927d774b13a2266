"""The journal's speed: events appended per second with synchronous=FULL (aim >= 200/s) and what
the keyed chain and the head witness cost of it, start-up time for a 24-hour shift and for a year of
spins (aim < 0.5 s whatever the age), `croupier report` over 500,000 spins (aim < 5 s), and
`croupier verify` with and without the table's key at 10,000, 100,000 and 500,000 spins (aim
< 5 s and < 60 MB with the key).

Run by hand (minutes: the year is half a million spins, every event encoded and hash-chained):

    .venv/bin/python bench/bench_journal.py [--dir DIR] [--spins 500000] [--verify-spins 10000,100000] [--keep]

DIR must be on the disk the table writes to (an SD card on the Pi): the default is a temporary
folder under the current directory. With --keep the journals stay in DIR for another run.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from croupier import session as session_module
from croupier.journal.report import REPORT_EVENTS, build_report, write_json
from croupier.journal.store import Journal, event_hash, event_mac
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table import bets, colours, cycle, relief, roles
from croupier.table.balls import swap_ball
from croupier.table.clock import FakeClock
from croupier.table.commands import execute
from croupier.table.events import Ball, ResultRecorded, Role, Source, Stake
from croupier.table.state import INITIAL, VERSION, encode_state, fold

BALLS = (Ball(id="A", diameter_mm=Decimal(21)), Ball(id="B", diameter_mm=Decimal(21)))
SPINS_PER_HOUR = 40


class BatchedTable:
    """The session's commands and snapshots, appended in batches of SNAPSHOT_EVERY events: the
    journal is the one the table would write, built without one disk sync per event."""

    def __init__(self, path: Path, clock: FakeClock):
        self.journal = Journal.open(path)
        self.clock = clock
        self.state = INITIAL
        self.pending = []

    def run(self, command, **arguments) -> None:
        events = execute(command, self.state, self.clock.now(), **arguments)
        self.state = fold(events, self.state)
        self.pending += events
        if len(self.pending) >= session_module.SNAPSHOT_EVERY and not self.closing:
            self.journal.append(self.pending)
            self.pending = []
            self.journal.write_snapshot(self.journal.head[0], VERSION, encode_state(self.state))

    closing = False

    def close(self, play_one_more) -> None:
        """Leave the longest tail start-up can meet: SNAPSHOT_EVERY - 1 events after the last
        snapshot, as after a power cut just before the next one."""
        self.journal.append(self.pending)
        self.journal.write_snapshot(self.journal.head[0], VERSION, encode_state(self.state))
        self.pending, self.closing = [], True
        worst = session_module.SNAPSHOT_EVERY - 1
        while len(self.pending) < worst:
            play_one_more()
        self.journal.append(self.pending[:worst])
        if self.journal.checkpoints is not None:
            self.journal.checkpoints.wait()  # the report's checkpoint the table was making
        self.journal.close()


def staff_and_open(table, profile: str, sensor_only: bool) -> None:
    table.run(roles.register_staff, name="Boss", role=Role.PIT_BOSS, pin="9000", salt=b"b" * 16)
    for name in ("Ana", "Rui"):
        table.run(roles.register_staff, name=name, role=Role.CROUPIER, pin="1111", salt=name.encode() * 8,
                  by="Boss", by_pin="9000")
    table.run(cycle.open_table, profile=profile, minimum=5, colours=("red", "green", "blue"), balls=BALLS,
              croupier="Ana", sensor_only=sensor_only)


def attended_spin(table, number: int) -> None:
    """One spin of a busy table: two colours bet, launch, result typed and confirmed, payouts."""
    clock = table.clock
    table.run(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=1), Stake(bet="red", chips=2)))
    table.run(bets.place_bets, colour="green", stakes=(Stake(bet="orphelins", chips=1),))
    clock.advance(seconds=40)
    last = table.state.last_direction
    table.run(cycle.launch, direction=last.opposite() if last else Direction.CLOCKWISE)
    table.run(cycle.close_bets)
    clock.advance(seconds=20)
    table.run(cycle.enter_result, number=number)
    table.run(cycle.confirm_result)
    clock.advance(seconds=30)
    table.run(cycle.payouts_done)


def shift_24h(table) -> None:
    staff_and_open(table, "pt-americana", sensor_only=False)
    for colour in ("red", "green"):
        table.run(colours.assign_colour, colour=colour, player=colour, chip_value=Decimal(5), chips=10**6, by="Ana")
    for hour in range(24):
        for k in range(SPINS_PER_HOUR):
            attended_spin(table, (hour * SPINS_PER_HOUR + k) * 7 % 37)
        incoming = "Rui" if table.state.staff_on(Role.CROUPIER) == "Ana" else "Ana"
        table.run(relief.relieve, role=Role.CROUPIER, incoming=incoming, pin="1111")  # PT-A 33
        table.run(swap_ball, by=incoming)  # PT-A 17


def sensor_year(table, spins: int, progress, opened: bool = False, direction=Direction.CLOCKWISE) -> None:
    if not opened:
        staff_and_open(table, "pt-americana", sensor_only=True)
    clock = table.clock
    for n in range(spins):
        clock.advance(seconds=40)
        table.run(cycle.launch, direction=direction, source=Source.SENSOR, wheel_game=n % 256 + 1)
        clock.advance(seconds=10)
        table.run(cycle.close_bets, source=Source.SENSOR)
        clock.advance(seconds=20)
        table.run(cycle.sensor_result, number=n * 11 % 37, wheel_game=n % 256 + 1, direction=direction)
        direction = direction.opposite()
        if n and n % 50000 == 0:
            progress(n)


def timed(action, repeat: int = 5) -> float:
    """The best of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def startup(path: Path) -> tuple[float, int, int]:
    """Seconds to open the journal and rebuild the state (snapshot + tail), events in the journal,
    events folded after the snapshot."""
    def open_once():
        session = TableSession.open(path, FakeClock())
        session.journal.close()  # no closing snapshot: the next run starts the same way

    seconds = timed(open_once)
    with Journal.open(path, read_only=True) as journal:
        snapshot = journal.latest_snapshot(VERSION)
        return seconds, journal.head[0], journal.head[0] - (snapshot.seq if snapshot else 0)


def append_rate(folder: Path, count: int, witness: bool = True) -> tuple[float, float]:
    """(events/s through Journal.append one at a time, events/s through the session's commands).
    `witness=False`: without the head witness's write and fdatasync, to show what it costs."""
    for name in ("rate.db", "rate-session.db"):
        for leftover in folder.glob(name + "*"):
            leftover.unlink()
    journal = Journal.open(folder / "rate.db")
    if not witness:
        journal._witness.record = lambda seq, digest, sync=True: None
    event = ResultRecorded(time=FakeClock().now(), spin=1, number=17, source=Source.SENSOR, ball="A",
                                 croupier="Ana", direction=Direction.CLOCKWISE, wheel_game=1)
    started = time.perf_counter()
    for _ in range(count):
        journal.append([event])
    raw = count / (time.perf_counter() - started)
    journal.close()
    if not witness:
        return raw, 0.0

    clock = FakeClock()
    session = TableSession.open(folder / "rate-session.db", clock)
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana",
                       sensor_only=True)
    first, started = session.seq, time.perf_counter()
    direction = Direction.CLOCKWISE
    while session.seq - first < count:
        clock.advance(seconds=30)
        session.launch(direction=direction, source=Source.SENSOR)
        session.sensor_result(number=session.seq % 37)
        direction = direction.opposite()
    through_session = (session.seq - first) / (time.perf_counter() - started)
    session.close()
    return raw, through_session


def hashing_cost(count: int = 200_000) -> tuple[float, float]:
    """Microseconds per event for the plain SHA-256 link and for the HMAC beside it."""
    body = b'{"kind":"result-recorded","number":17}' * 4
    started = time.perf_counter()
    for seq in range(count):
        event_hash("0" * 64, seq, "2025-01-01T00:00:00.000000+00:00", "result-recorded", body)
    plain = (time.perf_counter() - started) / count * 1e6
    started = time.perf_counter()
    for seq in range(count):
        event_mac(b"k" * 32, "0" * 64)
    keyed = (time.perf_counter() - started) / count * 1e6
    return plain, keyed


MEASURED = ("import resource, sys; from croupier.cli import main; code = main(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(code)")


def command_cost(*argv: str) -> tuple[float, float, int]:
    """(seconds, peak MiB, exit code) of one croupier command in a new process, imports included."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", MEASURED, *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    return seconds, int(done.stderr.strip().splitlines()[-1]) / 1024, done.returncode


def sensor_journal(folder: Path, spins: int) -> Path:
    """The journal of `spins` sensor spins in `folder`, written once."""
    path = folder / f"sensor-{spins}-spins.db"
    if not path.exists():
        print(f"writing {spins:,} spins ...", flush=True)
        started = time.perf_counter()
        table = BatchedTable(path, FakeClock())
        sensor_year(table, spins, lambda n: print(f"  {n:,} spins", flush=True))
        table.close(lambda: sensor_year(table, 1, print, opened=True, direction=table.state.last_direction.opposite()))
        print(f"  written in {time.perf_counter() - started:.0f} s, {path.stat().st_size / 2**20:.0f} MiB")
    return path


def verify_costs(path: Path, spins: int, plain: bool) -> None:
    """`croupier verify` with the key, first on a journal never checked (every event hashed and its
    signature checked, the fold from the newest signed snapshot), then as a pit boss runs it after an
    earlier check (from its signed mark); without the key (every event folded) if `plain`."""
    key = ["--key", str(path.with_name("table.key"))]
    path.with_name(path.name + ".verified").unlink(missing_ok=True)
    runs = [("--key, first check", key), ("--key, after an earlier check", key)]
    for label, extra in runs + ([("without the key (folds every event)", [])] if plain else []):
        seconds, peak, code = command_cost("verify", "--db", str(path), *extra)
        assert code == 0, f"verify said {code} on {path}"
        print(f"`croupier verify` {label}, {spins:,} spins: {seconds:.2f} s, {peak:.0f} MiB at most   "
              f"aim < 5 s, < 60 MB with the key")


def report_figures(path: Path, spins: int) -> None:
    """`croupier report --db PATH` (the text report) and `... --json` in a process of their own,
    time and peak memory: first with an empty cache directory (the whole journal folded, the fold
    saved), then as the next report of the same journal runs (the saved fold taken up)."""
    for form in ([], ["--json"]):
        with tempfile.TemporaryDirectory(prefix="bench-report-cache-") as cache:
            for label in ("first report (whole fold)", "next report (saved fold)"):
                started = time.perf_counter()
                with open(os.devnull, "wb") as sink:
                    child = subprocess.Popen([sys.executable, "-m", "croupier", "report", "--db", str(path), *form],
                                             stdout=sink, env={**os.environ, "XDG_CACHE_HOME": cache})
                    _, status, usage = os.wait4(child.pid, 0)
                seconds = time.perf_counter() - started
                assert status == 0, f"report failed on {path}"
                print(f"`croupier report{' --json' if form else ''}` over {spins:,} spins, {label}: {seconds:.2f} s, "
                      f"{usage.ru_maxrss / 1024:.0f} MiB at most   aim < 2 s (500,000 spins), < 3 s on a Pi 3 "
                      "(100,000)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, help="folder for the journals (default: a new one here)")
    parser.add_argument("--spins", type=int, default=500_000, help="spins in the long journal (500000)")
    parser.add_argument("--appends", type=int, default=2000, help="events for the append rate (2000)")
    parser.add_argument("--verify-spins", type=lambda text: [int(n) for n in text.split(",") if n],
                        default=[10_000, 100_000], help="smaller journals to verify too (10000,100000)")
    parser.add_argument("--keep", action="store_true", help="keep the journals for another run")
    parser.add_argument("--report-only", metavar="SPINS", help="only `croupier report` and `--json` over sensor journals of "
                        "these sizes, e.g. 10000,100000,500000 (built in DIR, or taken from it)")
    args = parser.parse_args()
    if args.report_only:
        folder = args.dir or Path(tempfile.mkdtemp(prefix="bench-journal-", dir="."))
        folder.mkdir(parents=True, exist_ok=True)
        for spins in (int(n) for n in args.report_only.split(",")):
            report_figures(sensor_journal(folder, spins), spins)
        return
    folder = args.dir or Path(tempfile.mkdtemp(prefix="bench-journal-", dir="."))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"journals in {folder} (snapshot every {session_module.SNAPSHOT_EVERY} events)")

    raw, through_session = append_rate(folder, args.appends)
    print(f"append, synchronous=FULL, one transaction per event: {raw:,.0f} events/s (Journal.append), "
          f"{through_session:,.0f} events/s (TableSession commands)   aim >= 200/s")
    unwitnessed, _ = append_rate(folder, args.appends, witness=False)
    plain, keyed = hashing_cost()
    print(f"  the same without the head witness's write and fdatasync: {unwitnessed:,.0f} events/s "
          f"(2 syncs per commit with it, 1 without); SHA-256 link {plain:.1f} us, HMAC {keyed:.1f} us per event")

    shift = folder / "shift-24h.db"
    if not shift.exists():
        table = BatchedTable(shift, FakeClock())
        shift_24h(table)
        table.close(lambda: attended_spin(table, 5))
    seconds, events, tail = startup(shift)
    print(f"start-up, 24-hour attended shift ({events:,} events, {tail} after the last snapshot): "
          f"{seconds * 1000:.0f} ms   aim < 500 ms")

    for spins in args.verify_spins:
        verify_costs(sensor_journal(folder, spins), spins, plain=spins <= 10_000)
    year = sensor_journal(folder, args.spins)
    verify_costs(year, args.spins, plain=False)
    seconds, events, tail = startup(year)
    print(f"start-up, {args.spins:,} spins ({events:,} events, {tail} after the last snapshot): "
          f"{seconds * 1000:.0f} ms   aim < 500 ms")
    opening = ("import sys; from croupier.session import TableSession; from croupier.table.clock import FakeClock; "
               "TableSession.open(sys.argv[1], FakeClock()).journal.close()")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", opening, str(year)], check=True)
    print(f"  the same in a new Python process, imports included: {(time.perf_counter() - started) * 1000:.0f} ms")

    def report_in_process():
        with Journal.open(year, read_only=True) as journal, open(os.devnull, "w") as sink:
            write_json(build_report(journal.events(REPORT_EVENTS), journal.head), sink)

    print(f"report over {args.spins:,} spins, built and encoded in process: {timed(report_in_process, 3):.2f} s")
    started = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        subprocess.run([sys.executable, "-m", "croupier", "report", "--db", str(year), "--json"], stdout=sink,
                       check=True)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"`croupier report --db ... --json` over {args.spins:,} spins: {seconds:.2f} s, {peak:.0f} MiB at most   "
          f"aim < 5 s")
    if not args.keep and args.dir is None:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
