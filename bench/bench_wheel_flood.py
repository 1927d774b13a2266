"""A flood of malformed lines into `croupier run --headless`, run by hand:

    .venv/bin/python bench/bench_wheel_flood.py [--seconds 20]

A pseudo-terminal wheel writes malformed status lines as fast as the reader takes them (with a
valid status line now and then); prints the runner's resident memory and the size of its log every
few seconds, and their growth per second. Both should stay flat.
"""
from __future__ import annotations

import argparse
import os
import pty
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    master, slave = pty.openpty()
    tty.setraw(slave)
    stop = threading.Event()
    written = [0]

    def flood() -> None:
        chunk = b"*X;9;garbage;line\r\n" * 500 + b"*X;2;001;  ;0;170;0\r\n"
        while not stop.is_set():
            try:
                written[0] += os.write(master, chunk)
            except OSError:
                return

    with tempfile.TemporaryDirectory() as folder:
        log_path = Path(folder) / "run.log"
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "croupier", "run", "--headless", "--db", str(Path(folder) / "j.db"),
                 "--profile", "pt-americana", "--wheel", f"cammegh-ss2:{os.ttyname(slave)}"],
                stdout=log, stderr=log)
        time.sleep(3.0)  # started, table opened
        writer = threading.Thread(target=flood, daemon=True)
        writer.start()
        start, rss0, log0 = time.monotonic(), rss_kib(proc.pid), log_path.stat().st_size
        print(f"{'s':>5} {'RSS MiB':>8} {'log MiB':>8} {'flood MiB':>9}")
        while time.monotonic() - start < args.seconds:
            time.sleep(args.seconds / 5)
            print(f"{time.monotonic() - start:5.1f} {rss_kib(proc.pid) / 1024:8.1f} "
                  f"{log_path.stat().st_size / 2**20:8.2f} {written[0] / 2**20:9.1f}")
        elapsed = time.monotonic() - start
        rss1, log1 = rss_kib(proc.pid), log_path.stat().st_size
        stop.set()
        proc.terminate()
        proc.wait(10)
        os.close(master)
        os.close(slave)
        print(f"growth: memory {(rss1 - rss0) / 1024 / elapsed:.2f} MiB/s, log {(log1 - log0) / 2**20 / elapsed * 60:.1f} "
              f"MiB/min, over {elapsed:.0f} s of {written[0] / 2**20 / elapsed:.1f} MiB/s of malformed lines")


if __name__ == "__main__":
    main()
