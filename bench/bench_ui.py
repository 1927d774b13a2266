"""The table screen as the croupier meets it, measured end to end. Run by hand:

    .venv/bin/python bench/bench_ui.py [--spins N] [--idle-seconds S] [--size 80x24]

The table app runs in a child process on a pseudo-terminal of its own (TERM=linux), its wheel link
on another pseudo-terminal whose other end this script writes, as a Cammegh SS2 would. It prints:

- start-up: from starting the process to a usable screen (the key legend drawn);
- sensor to screen: from writing the winning-number line to the payout sheet for that number
  drawn on the terminal (reader thread, journal commit with synchronous=FULL, redraw), per spin;
- bytes per result: what the table writes to its terminal from the winning-number line until it
  has been quiet for half a second (one payout sheet is about 2.8 KB at 80x24; on a Pi's framebuffer
  console every byte is drawn);
- idle CPU of the running table (bets open, nothing happening), in % of one core;
- memory: the child's peak resident set.

Aims (issue 5): sensor to screen under 100 ms, idle CPU under 3 %, memory under 120 MB.

`--under "../shared/tools/pi3 --"` runs the table app alone under that command (a Pi 3's budget):
this script, the wheel and the terminal it reads stay outside; CPU and memory are the app's own.
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import random
import re
import shlex
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tty
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class Terminal:
    """The child's terminal: everything it draws, as plain text with the time it arrived."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.text = bytearray()
        self.written = 0  # bytes, escape sequences included
        self.last_write = time.monotonic()
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self.changed:
                self.written += len(data)
                self.last_write = time.monotonic()
                self.text += ANSI.sub(b"", data)
                self.changed.notify_all()

    def mark(self) -> int:
        with self.changed:
            return len(self.text)

    def wait_for(self, pattern: bytes, since: int, timeout: float = 10.0) -> float:
        """The time the regular expression `pattern` matches what was drawn after offset `since`."""
        deadline = time.monotonic() + timeout
        found = re.compile(pattern)
        with self.changed:
            while not found.search(self.text, since):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{pattern!r} never appeared on the table's screen")
                self.changed.wait(left)
            return time.monotonic()

    def bytes_until_quiet(self, since: int, quiet: float = 0.5) -> int:
        """The bytes written from the count `since` until nothing came for `quiet` seconds."""
        while True:
            with self.changed:
                left = self.last_write + quiet - time.monotonic()
                if left <= 0:
                    return self.written - since
            time.sleep(left)

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())


def ss2_game(wheel, number: int) -> tuple[list[bytes], list[bytes]]:
    """The lines of one SS2 game: everything up to the winning-number line, and from it on."""
    game = wheel.play(number)
    lines = [e.data for e in game.emissions]
    at = next(i for i, line in enumerate(lines) if not line.startswith(b"*"))
    return lines[:at], lines[at:]


def prepare(folder: Path) -> Path:
    """The demo's table (what `croupier demo` does before its screen starts), timed."""
    from croupier.session import TableSession
    from croupier.table.clock import SystemClock
    from croupier.ui import demo

    config = demo.demo_config(folder)
    started = time.perf_counter()
    with TableSession.open(config.journal_path, SystemClock()) as session:
        demo.prepare(session, config)
    print(f"demo preparation ({len(config.staff)} staff PINs hashed with scrypt, table opened): "
          f"{1000 * (time.perf_counter() - started):.0f} ms")
    return config.journal_path


def child(journal: str, device: str) -> None:
    """The table app, as `croupier table` runs it, on the wheel pseudo-terminal `device`."""
    from croupier.session import TableSession
    from croupier.table.clock import SystemClock
    from croupier.ui import demo
    from croupier.ui.app import TableApp
    from croupier.ui.runtime import Devices, wheel_link

    config = demo.demo_config(Path(journal).parent)
    with TableSession.open(journal, SystemClock()) as session:
        devices = Devices()
        devices.add(wheel_link(config, device, silence_timeout=None))
        TableApp(session, config, wheel=True, devices=devices).run()


def result_to_sheet(screen: Terminal, wheel_master: int, wheel, number: int) -> tuple[float, int]:
    """One SS2 game of `number` written to the wheel's line: seconds from its winning-number line to
    the payout sheet for that number drawn, and the bytes the screen had written before that line."""
    before, result = ss2_game(wheel, number)
    for line in before:
        os.write(wheel_master, line)
    time.sleep(0.3)  # launched, no more bets: recorded and drawn
    since, bytes_before = screen.mark(), screen.written
    sent = time.monotonic()
    for line in result:
        os.write(wheel_master, line)
    # the payout sheet's title with the number ("Payouts · 17 black"), not "Payouts recorded"
    shown = screen.wait_for(rb"Payouts \xc2\xb7 +%d " % number, since, timeout=60)
    return shown - sent, bytes_before


@contextlib.contextmanager
def table_on_pty(journal: Path, child_argv: list[str], rows: int = 24, columns: int = 80
                 ) -> Iterator[tuple[subprocess.Popen, Terminal, int]]:
    """The table app started by `child_argv` (given the journal and the wheel's device after it) on
    a pseudo-terminal of its own, its wheel link on another: the process, its screen, and the
    wheel's end this script writes. Ctrl+Q when done."""
    wheel_master, wheel_slave = os.openpty()
    tty.setraw(wheel_slave)
    screen_master, screen_slave = os.openpty()
    fcntl.ioctl(screen_slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {**os.environ, "TERM": "linux", "GPIOZERO_PIN_FACTORY": "mock"}
    process = subprocess.Popen([*child_argv, str(journal), os.ttyname(wheel_slave)], stdin=screen_slave,
                               stdout=screen_slave, stderr=screen_slave, env=env, cwd=ROOT, start_new_session=True)
    os.close(screen_slave)
    screen = Terminal(screen_master)
    try:
        yield process, screen, wheel_master
    finally:
        quit_app(process, screen)
        for fd in (wheel_master, wheel_slave, screen_master):
            os.close(fd)


def quit_app(process: subprocess.Popen, screen: Terminal) -> None:
    """Ctrl+Q to the app on `screen`, then a bounded wait: killed if it does not end."""
    screen.type("\x11")
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def table_pid(pid: int) -> int:
    """The table app's own process: `pid`, or the one it runs the app in (a wrapper's child)."""
    while True:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if len(children) != 1:
            return pid
        pid = int(children[0])


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=20)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--under", default="", metavar="COMMAND",
                        help='run the table app under COMMAND, e.g. "../shared/tools/pi3 --"')
    parser.add_argument("--child", nargs=2, metavar=("JOURNAL", "DEVICE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    columns, rows = (int(n) for n in args.size.split("x"))

    from croupier.wheel.games import SimulatedWheel

    with tempfile.TemporaryDirectory(prefix="bench-ui-") as folder:
        journal = prepare(Path(folder))
        started = time.monotonic()
        child_argv = [*shlex.split(args.under), sys.executable, __file__, "--child"]
        with table_on_pty(journal, child_argv, rows, columns) as (process, screen, wheel_master):
            ready = screen.wait_for(b"menu", 0, timeout=60)
            print(f"start-up to a usable screen: {1000 * (ready - started):.0f} ms")
            time.sleep(1.0)  # the wheel link opens

            wheel = SimulatedWheel("cammegh-ss2", random.Random(5))
            latencies, written = [], []
            for _ in range(args.spins):
                number = random.randrange(37)
                latency, bytes_before = result_to_sheet(screen, wheel_master, wheel, number)
                latencies.append(1000 * latency)
                written.append(screen.bytes_until_quiet(bytes_before))
                since = screen.mark()
                screen.type("d")  # payouts done: on an untouched sheet, asked once more
                screen.wait_for(b"Nothing is counted", since)
                screen.type("d")
                screen.wait_for(b"Payouts recorded", since)
            print(f"sensor to screen over {len(latencies)} spins: median {statistics.median(latencies):.1f} ms, "
                  f"worst {max(latencies):.1f} ms, best {min(latencies):.1f} ms (aim < 100 ms)")
            print(f"bytes to the terminal per result: median {statistics.median(written):.0f}, "
                  f"most {max(written)}, least {min(written)}")

            time.sleep(2.0)
            app = table_pid(process.pid)
            cpu_before, wall_before = cpu_seconds(app), time.monotonic()
            time.sleep(args.idle_seconds)
            cpu = cpu_seconds(app) - cpu_before
            wall = time.monotonic() - wall_before
            print(f"idle CPU: {100 * cpu / wall:.2f} % of one core over {wall:.0f} s (aim < 3 %)")
            print(f"memory: peak resident {peak_rss_mb(app):.1f} MB (aim < 120 MB)")


if __name__ == "__main__":
    main()
