"""Wheel sensor performance, run by hand:  .venv/bin/python bench/bench_wheel.py [--games N]

1. Decoder throughput (lines/s, MB/s) for every protocol on simulated games, and for the SS2 on the
   production capture when ../shared/captures is there.
2. Latency from the last byte of the first state-5 line (which confirms the winning-number line)
   written on a pseudo-terminal to the result event delivered by the serial link (p50, p99, max).
   The aim is p99 under 5 ms.
"""
from __future__ import annotations

import argparse
import os
import pty
import random
import statistics
import threading
import time
import tty
from pathlib import Path

from croupier.wheel.capture import wheel_lines
from croupier.wheel.events import WheelResult
from croupier.wheel.games import SimulatedWheel
from croupier.wheel.link import WheelLink
from croupier.wheel.protocols import PROTOCOL_NAMES, make_decoder

CAPTURE = Path(__file__).resolve().parents[1] / ".." / "shared" / "captures" / "ss2-production-185-games.log"


def simulated_stream(protocol: str, games: int) -> list[tuple[float, bytes]]:
    rng = random.Random(1)
    wheel = SimulatedWheel(protocol, rng)
    timed, now = [], 0.0
    for _ in range(games):
        for emission in wheel.play(fault="garbage" if rng.random() < 0.1 else None).emissions:
            now += emission.delay
            timed.append((now, emission.data))
    return timed


def throughput(name: str, protocol: str, timed: list[tuple[float, bytes]], chunk: int | None) -> None:
    """Feed the stream as it arrived (chunk None: one write per line) or cut into `chunk` bytes."""
    if chunk is not None:
        data = b"".join(d for _, d in timed)
        timed = [(i / 1000, data[i : i + chunk]) for i in range(0, len(data), chunk)]
    size = sum(len(d) for _, d in timed)
    lines = sum(d.count(b"\n") for _, d in timed)
    decoder = make_decoder(protocol, min_ball_revolutions=5)
    start = time.perf_counter()
    events = 0
    for at, data in timed:
        events += len(decoder.feed(data, at))
    elapsed = time.perf_counter() - start
    how = "per line" if chunk is None else f"{chunk:>3} B chunks"
    print(
        f"  {name:<34} {how:<13} {lines:>7} lines {size / 1e6:6.2f} MB  "
        f"{lines / elapsed:>10,.0f} lines/s  {size / elapsed / 1e6:6.2f} MB/s  ({events} events)"
    )


def latency(samples: int) -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    arrived: dict[int, float] = {}
    done = threading.Event()

    def on_event(event) -> None:
        if isinstance(event, WheelResult):
            arrived[event.game] = time.perf_counter()
            done.set()

    link = WheelLink(os.ttyname(slave), make_decoder("cammegh-ss2"), on_event=on_event)
    link.start()
    while not link.online:
        time.sleep(0.01)
    delays = []
    try:
        for i in range(samples):
            spin = i % 256 + 1
            os.write(master, f"*X;2;{spin:03d};12;0;170;0\r\n*X;4;{spin:03d};12;0;170;0\r\n".encode())
            time.sleep(0.003)  # the number line comes on its own, as it does from the wheel
            done.clear()
            os.write(master, b"25\r\n")
            time.sleep(0.002)
            os.write(master, f"*X;5;{spin:03d};25;0;170;0\r\n".encode())  # it counts once state 5 agrees
            written = time.perf_counter()
            if not done.wait(1.0):
                raise SystemExit(f"no result for game {spin}")
            delays.append((arrived[spin] - written) * 1000)
            time.sleep(0.002)
    finally:
        link.stop()
        os.close(master)
        os.close(slave)
    delays.sort()
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
    print(
        f"  {samples} results: p50 {statistics.median(delays):.3f} ms  p99 {p99:.3f} ms  "
        f"max {delays[-1]:.3f} ms  (aim: p99 < 5 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="simulated games per protocol (300)")
    parser.add_argument("--samples", type=int, default=1000, help="winning-number lines for the latency (1000)")
    args = parser.parse_args()

    print("Decoder throughput")
    for protocol in PROTOCOL_NAMES:
        timed = simulated_stream(protocol, args.games)
        throughput(f"{protocol} ({args.games} simulated games)", protocol, timed, None)
        throughput(f"{protocol} ({args.games} simulated games)", protocol, timed, 64)
    if CAPTURE.is_file():
        with open(CAPTURE, "rb") as capture:
            timed = list(wheel_lines(capture))
        throughput("cammegh-ss2 (production capture)", "cammegh-ss2", timed, None)
        throughput("cammegh-ss2 (production capture)", "cammegh-ss2", timed, 1)
    print("Latency: state-5 line confirming the number written on a pty -> WheelResult from the link")
    latency(args.samples)


if __name__ == "__main__":
    main()
