"""The pages as pit bosses open them: a unit's textual-serve command started as systemd starts it
(on a free port, the paths a test's), and Debian's Chromium driven by Playwright to read the screen
and type keys. Playwright's own browser download is never used: it needs a CDN the floor does not reach."""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from croupier.floor.broker import free_port

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "systemd"
INSTALLED_BIN = "/opt/croupier/venv/bin/"
# xterm.js paints its rows on a canvas where WebGL or 2D canvas acceleration exists; without the 3D
# APIs it keeps them as text in `.xterm-rows` (its DOM renderer), which the tests read as a pit boss's eye would.
CHROMIUM_ARGS = ("--disable-3d-apis",)
CHROMIUM_NAMES = ("chromium", "chromium-browser")


def chromium() -> str:
    """The system's Chromium, or the test skipped saying what is missing (one line)."""
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install '.[browser-test]' "
                                                      "(no 32-bit ARM wheel)")
    pytest.importorskip("textual_serve", reason="textual-serve is not installed: pip install '.[web]'")
    found = os.environ.get("CROUPIER_CHROMIUM") or next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)
    if not found:
        pytest.skip("no Chromium on this machine: apt install chromium (or set CROUPIER_CHROMIUM to one)")
    return found


def unit_command(unit: str, port: int, *, replace: dict[str, str] | None = None) -> list[str]:
    """The unit's ExecStart, run from this checkout's environment on `port`, with `replace`'s paths."""
    lines = [line for line in (UNITS / unit).read_text().splitlines() if line.startswith("ExecStart=")]
    (line,) = lines
    argv = shlex.split(line.removeprefix("ExecStart="))
    bin_dir = str(Path(sys.executable).parent) + "/"
    served = []
    for arg in argv:
        for old, new in (replace or {}).items():
            arg = arg.replace(old, new)
        arg = arg.replace(INSTALLED_BIN, bin_dir)
        for default in ("8080", "8081"):
            arg = arg.replace(f"port={default}", f"port={port}").replace(f"localhost:{default}", f"localhost:{port}")
        served.append(arg)
    return served


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server ended with {process.returncode} before it listened on {port}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listened on {port} within {timeout} s")


def descendants(pid: int) -> list[int]:
    """The processes under `pid` (its app processes and their shells), read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


@contextmanager
def served(unit: str, folder: Path, *, replace: dict[str, str] | None = None,
           env: dict[str, str] | None = None) -> Iterator[tuple[str, subprocess.Popen]]:
    """The unit's server on a free port, in `folder`: its URL as the unit names it, and its process.
    Stopped, with every app process it started, however the test ends."""
    pytest.importorskip("textual_serve", reason="textual-serve is not installed: pip install '.[web]'")
    port = free_port()
    log = (folder / f"{unit}.log").open("w")
    process = subprocess.Popen(unit_command(unit, port, replace=replace), cwd=folder, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **(env or {})})
    try:
        wait_for_port(port, process)
        yield f"http://localhost:{port}/", process
    finally:
        left = descendants(process.pid)
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for pid in left:  # an app the server failed to stop: never left running after the test
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        log.close()


def wait_until(condition, timeout: float = 20, every: float = 0.2, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not hold within {timeout} s")
        time.sleep(every)


def screen(page) -> str:
    """What the page's terminal shows now, row by row."""
    rows = page.locator(".xterm-rows")
    return rows.inner_text().replace("\xa0", " ") if rows.count() else ""


def shows(page, *texts: str, timeout: float = 30) -> str:
    """The screen once it shows every one of `texts`, read across the lines a long one wraps onto
    (else the test fails with what it showed)."""
    deadline = time.monotonic() + timeout
    while True:
        text = screen(page)
        words = " ".join(text.split())
        missing = [t for t in texts if t not in text and " ".join(t.split()) not in words]
        if not missing:
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never showed {missing}; it showed:\n{text}")
        time.sleep(0.2)


def listening_addresses(port: int) -> set[str]:
    """The local addresses a socket listens on at `port`, read from /proc/net/tcp and tcp6."""
    import ipaddress

    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state != "0A" or int(hex_port, 16) != port:  # 0A: LISTEN
                continue
            raw = bytes.fromhex(address)
            # The kernel writes each 32-bit word in the host's order (little-endian here).
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4)) if sys.byteorder == "little" else raw
            found.add(str(ipaddress.ip_address(raw)))
    return found
