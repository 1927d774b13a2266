"""A pseudo-terminal wheel driving a real `croupier run --headless` process, and what its journal
holds afterwards (read with plain sqlite3, not through croupier)."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
import tty
from pathlib import Path


def pocket(number: int | None) -> str:
    return "  " if number is None else f"{number:>2}"


def ss2(state: int, spin: int, last: int | None, flags: int = 0, direction: int = 0) -> bytes:
    return f"*X;{state};{spin:03d};{pocket(last)};{flags:X};170;{direction}\r\n".encode()


def number(n: int) -> bytes:
    return pocket(n).encode() + b"\r\n"


def game(spin: int, last: int | None, result: int, number_line: int | None = -1, stray: int | None = None,
         first_five: int | None = None) -> bytes:
    """One SS2 game: states 2, 3 (a stray number line there if asked), 4, the number line
    (`number_line`, default the result; None: lost), state 5 (its first line damaged into
    `first_five` if asked)."""
    direction = spin % 2
    lines = [ss2(2, spin, last, direction=direction), ss2(3, spin, last, direction=direction)]
    if stray is not None:
        lines.append(number(stray))
    lines += [ss2(3, spin, last, direction=direction), ss2(4, spin, last, direction=direction)]
    if number_line is not None:
        lines.append(number(result if number_line == -1 else number_line))
    lines += [ss2(5, spin, result, direction=direction)] * 2
    if first_five is not None:
        lines[-2] = ss2(5, spin, first_five, direction=direction)
    return b"".join(lines)


class HeadlessTable:
    def __init__(self, folder: Path, protocol: str = "cammegh-ss2"):
        self.db = folder / "journal.db"
        self.log = folder / "run.log"
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.device = os.ttyname(self.slave)
        self.protocol = protocol
        self.proc: subprocess.Popen | None = None

    def start(self) -> "HeadlessTable":
        started = self.log_text().count("wheel link up")
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "croupier", "run", "--headless", "--db", str(self.db),
                 "--profile", "pt-americana", "--wheel", f"{self.protocol}:{self.device}"],
                stdout=log, stderr=log)
        self.wait_for_log("wheel link up", count=started + 1)  # bytes written before the port opens are dropped
        return self

    def wait_for_log(self, text: str, timeout: float = 30.0, count: int = 1) -> None:
        deadline = time.monotonic() + timeout
        while self.log_text().count(text) < count:
            if time.monotonic() > deadline or (self.proc is not None and self.proc.poll() is not None):
                raise AssertionError(f"{text!r} not in the log:\n{self.log_text()[-3000:]}")
            time.sleep(0.05)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view[:4096]):]

    def unread(self) -> int:
        """Bytes written that the runner has not read yet."""
        return struct.unpack("i", fcntl.ioctl(self.slave, termios.FIONREAD, b"\0\0\0\0"))[0]

    def wait_read(self, timeout: float = 60.0, settled: float = 0.3) -> None:
        """Until the runner has read every byte: the kernel hands bytes written on the master to
        the terminal a little later, so nothing must be left for `settled` seconds in a row."""
        deadline = time.monotonic() + timeout
        empty_since = None
        while empty_since is None or time.monotonic() - empty_since < settled:
            assert time.monotonic() < deadline, "the runner stopped reading the wheel"
            if self.unread():
                empty_since = None
            elif empty_since is None:
                empty_since = time.monotonic()
            time.sleep(0.01)

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60.0) -> int:
        self.proc.send_signal(sig)
        return self.proc.wait(timeout)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    # -- the journal, read plainly -----------------------------------------------------------------

    def rows(self, kind: str) -> list[dict]:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            return [json.loads(body) for (body,) in db.execute("SELECT body FROM events WHERE kind = ? ORDER BY seq",
                                                                 (kind,))]

    def results(self) -> list[tuple[int, int]]:
        return [(row.get("wheel_game"), row["number"]) for row in self.rows("result-recorded")]
