"""`croupier wheel-sim`: a simulated wheel on a pseudo-terminal."""
from __future__ import annotations

import argparse
import math
import signal
import sys
import threading
import time

SUMMARY = "play simulated wheel games on a pseudo-terminal (prints its device path)"


def _csv(kind: str, choices: tuple[str, ...] | None = None):
    def parse(text: str) -> list:
        items = [item.strip() for item in text.split(",") if item.strip()]
        if choices is not None:
            bad = [item for item in items if item not in choices]
            if bad:
                raise argparse.ArgumentTypeError(f"unknown {kind} {bad[0]!r}; use one of: {', '.join(choices)}")
            return items
        try:
            numbers = [int(item) for item in items]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind} must be numbers separated by commas, got {text!r}") from None
        bad_numbers = [n for n in numbers if n not in range(37)]
        if bad_numbers:
            raise argparse.ArgumentTypeError(f"{bad_numbers[0]} is not a pocket (0-36)")
        return numbers

    return parse


def _positive(kind: type):
    def parse(text: str):
        try:
            value = kind(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
        if not 0 < value < math.inf:
            raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    from croupier.wheel.registry import FAULTS, PROTOCOL_NAMES

    parser = argparse.ArgumentParser(
        prog="croupier wheel-sim",
        description=(
            "Open a pseudo-terminal, print its device path on the first line, and play realistic "
            "games on it (a status line every 500 ms, state durations as on a production wheel) "
            "until interrupted. Point the table at the path printed (--wheel PROTOCOL:PATH)."
        ),
    )
    parser.add_argument("--protocol", required=True, choices=PROTOCOL_NAMES, help="the protocol to send")
    parser.add_argument(
        "--faults",
        type=_csv("fault", FAULTS),
        default=[],
        metavar="F[,F...]",
        help=f"faults to play in turn: {', '.join(FAULTS)}",
    )
    parser.add_argument("--fault-every", type=_positive(int), default=2, metavar="N", help="a fault every N games (2)")
    parser.add_argument("--speed", type=_positive(float), default=1.0,
                        help="time factor: 10 plays ten times faster, but a fault the table times (flag 1 over "
                             "5 s, flag 8 past 3 s) is held in real time, so a reader on its own clock sees it")
    parser.add_argument("--seed", type=int, help="random seed, for the same games every time")
    parser.add_argument("--games", type=_positive(int), metavar="N", help="stop after N games")
    parser.add_argument("--rest", action="store_true",
                        help="after the games, rest in state 6 answering the Slingshot's log queries (*s t, *s r, *W) "
                             "until stopped")
    parser.add_argument("--results", type=_csv("results"), default=[], metavar="N[,N...]", help="the first games' numbers")
    parser.add_argument("--link", metavar="PATH", help="also make PATH a symlink to the pseudo-terminal")
    return parser


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    from croupier.wheel.games import faults_shown
    from croupier.wheel.simulator import WheelSimulator

    hidden = [fault for fault in args.faults if fault not in faults_shown(args.protocol)]
    if hidden:
        parser.error(f"{args.protocol} cannot show {hidden[0]}: its lines carry no warning flags "
                     f"(it can show: {', '.join(faults_shown(args.protocol))})")
    finished = threading.Event()
    device_shown = threading.Event()  # the device path is always the first line

    def report(game) -> None:
        device_shown.wait()
        fault = f"  fault: {game.fault}" if game.fault else ""
        label = "" if game.game is None else f" {game.game}"
        print(f"game{label}: {game.number} ({game.direction.value}){fault}", flush=True)

    sim = WheelSimulator(
        args.protocol,
        faults=args.faults,
        fault_every=args.fault_every,
        speed=args.speed,
        seed=args.seed,
        games=args.games,
        results=args.results,
        link_path=args.link,
        on_game=report,
        rest=args.rest,
    )
    try:
        device = sim.start()
    except OSError as e:
        print(f"croupier wheel-sim: cannot set up the simulated wheel: {e}", file=sys.stderr)
        return 1
    print(device, flush=True)
    device_shown.set()
    # The handler only sets the flag, which this thread only reads: a handler that ran inside a
    # wait on the event would take the lock the wait holds, and hang for ever.
    previous = signal.signal(signal.SIGTERM, lambda *_: finished.set())
    try:
        while sim.running and not finished.is_set():
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sim.stop()
    return 0
