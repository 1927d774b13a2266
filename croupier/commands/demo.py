"""`croupier demo`: the table screen on any machine, with a simulated wheel on a pseudo-terminal,
mock GPIO (the display board drawn on screen) and a temporary journal."""
from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

from typing import TYPE_CHECKING

from croupier.commands import arguments

if TYPE_CHECKING:
    from croupier.config import Config

SUMMARY = "the table screen with a simulated wheel, mock GPIO and a temporary journal"
SPEED = 2.0  # a 40 s game in 20 s
BETTING_WINDOW_S = 15.0  # at least, from the payouts recorded to the next launch


def _between(least: float, most: float, unit: str = ""):
    """An argument type: a number from `least` to `most`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number{unit and ' of ' + unit}: {text!r}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"{text} is not between {least:g} and {most:g}{unit and ' ' + unit}")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    from croupier.wheel.registry import PROTOCOL_NAMES as WHEEL_PROTOCOLS
    from croupier.i18n import languages

    parser = argparse.ArgumentParser(prog="croupier demo", description=SUMMARY[0].upper() + SUMMARY[1:] + ". "
                                     "The demo PINs are shown on screen; Ctrl+Q quits.")
    parser.add_argument("--language", choices=languages(), help="the screen's language (default: the configuration's)")
    parser.add_argument("--protocol", choices=WHEEL_PROTOCOLS, help="the simulated wheel's protocol "
                        "(default: the configuration's)")
    parser.add_argument("--speed", type=_between(0.1, 50), default=SPEED, help=f"how much faster than a real wheel (default {SPEED:g})")
    parser.add_argument("--betting-window", type=_between(0, 600, "seconds"), default=BETTING_WINDOW_S, metavar="SECONDS",
                        help=f"how long bets stay open before the wheel launches (default {BETTING_WINDOW_S:g} s)")
    parser.add_argument("--db", type=arguments.path, metavar="PATH", help="keep the journal in this file, to look at it "
                        "afterwards (croupier billboard --db PATH, croupier review --db PATH); default: a "
                        "temporary file, deleted at the end. Only a new file or a journal an earlier demo made: "
                        "a demo never writes to a table's journal, and a table never opens a demo's")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")  # before gpiozero loads: no pin is touched
    from croupier.ui.demo import demo_config
    from croupier.ui.runtime import logging_to

    folder = Path(tempfile.mkdtemp(prefix="croupier-demo-"))
    config = demo_config(folder, args.language, args.protocol)  # its journal and log in the folder
    errors = _ErrorCount()
    failed = True
    try:
        with logging_to(config.logging):
            logging.getLogger("croupier").addHandler(errors)
            try:
                status = run(args, config)
                failed = False
            finally:
                logging.getLogger("croupier").removeHandler(errors)
    finally:
        if not failed and not errors.count:  # a clean end, or a refusal said on the terminal
            shutil.rmtree(folder, ignore_errors=True)
        else:  # what happened is worth keeping: the journal says what was recorded, the log why
            print(f"croupier demo: the journal and the log are kept in {folder}", file=sys.stderr)
    return status


class _ErrorCount(logging.Handler):
    """Counts the errors logged while the demo runs (a screen bug survived is one)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def run(args: argparse.Namespace, config: Config) -> int:
    from croupier import terminal
    from croupier.board.gpio import GpioBoard, use_mock_pins
    from croupier.i18n import install
    from croupier.journal.store import DEMO, JournalError
    from croupier.session import TableSession
    from croupier.table.clock import SystemClock
    from croupier.table.refusal import Refused
    from croupier.ui import demo
    from croupier.ui.app import TableApp
    from croupier.ui.runtime import Devices, wheel_link
    from croupier.wheel.simulator import WheelSimulator

    presentation = install(config.table.language, config.table.house)
    path = args.db or config.journal_path
    try:
        session = TableSession.open(path, SystemClock(), purpose=DEMO,  # its key beside it, never the table's
                                    pin_lock_minutes=config.table.pin_lock_minutes)
    except JournalError as exc:
        print(f"croupier demo: {exc}", file=sys.stderr)
        return 1
    with session:
        try:
            pins = demo.prepare(session, config)
        except Refused as exc:
            print(f"croupier demo: {path} holds a table the demo cannot use: {exc}", file=sys.stderr)
            return 1
        gate = demo.PayoutGate(session, args.betting_window)
        assert config.wheel is not None, "demo_config names the simulated wheel"
        simulator = WheelSimulator(config.wheel.protocol, speed=args.speed, faults=demo.FAULTS,
                                   fault_every=demo.FAULT_EVERY, on_game=gate)
        devices = Devices()

        def start_wheel(app):
            device = simulator.start()
            # The wheel pauses between games while payouts are made: silence is not a fault here.
            stop_link = wheel_link(config, device, clock=simulator.clock, silence_timeout=None)(app)

            def stop() -> None:
                stop_link()
                gate.stopping.set()
                simulator.stop()

            return stop

        devices.add(start_wheel)
        if os.environ.get("GPIOZERO_PIN_FACTORY") == "mock":
            use_mock_pins()  # gpiozero's own mock pins would record every change
        board = GpioBoard(config.display) if config.display else None
        if board is not None:
            devices.add_running(board.close)
        app = TableApp(session, config, wheel=True, show_board=True, devices=devices,
                       board_output=board.show if board else None, banner=demo.banner(pins, config),
                       presentation=presentation)
        return terminal.run(app)
