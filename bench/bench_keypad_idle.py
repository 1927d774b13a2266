"""The matrix keypad's idle cost: CPU seconds it uses while no key is pressed. Run by hand on a Pi 3
(or on a Pi 3's budget, as the README's Benchmarks say):

    .venv/bin/python bench/bench_keypad_idle.py [--seconds 60]

It claims the keypad on gpiozero's mock pins (no Pi needed), idles for SECONDS and prints the
process's user and system CPU seconds for the idle part alone. Mock pins have no edge-detection
thread of their own; on a Pi the pin library waits for edges in the kernel, which costs nothing idle.
"""
from __future__ import annotations

import argparse
import resource
import time

from gpiozero.pins.mock import MockFactory

from croupier.keypad.matrix import MatrixKeypad

ROWS = (5, 6, 13, 19)
COLUMNS = (12, 16, 20, 21)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    factory = MockFactory()
    with MatrixKeypad(ROWS, COLUMNS, lambda key: None, pin_factory=factory):
        before, started = cpu_seconds(), time.monotonic()
        time.sleep(args.seconds)
        used, elapsed = cpu_seconds() - before, time.monotonic() - started
    print(f"keypad idle: {used:.3f} CPU s in {elapsed:.1f} s ({100 * used / elapsed:.2f} % of a core)")


if __name__ == "__main__":
    main()
