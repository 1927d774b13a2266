"""`croupier table`: the croupier's screen at the live table, with the wheel sensor, the keypad and
the display board the configuration names."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from croupier.config import Config
    from croupier.session import TableSession

SUMMARY = "the croupier's table screen: wheel sensor, keypad, display board, journal"
EXIT_JOURNAL_UNUSABLE = 2  # damaged, of another format or table, its key or witness missing
EXIT_JOURNAL_FAULT = 3  # the disk is full, read-only or failing (systemd: RestartPreventExitStatus)


def _parser() -> argparse.ArgumentParser:
    from croupier.paths import CONFIG_LOOKUP

    parser = argparse.ArgumentParser(prog="croupier table", description=SUMMARY[0].upper() + SUMMARY[1:] + ".")
    parser.add_argument("--config", metavar="PATH",
                        help=f"configuration file (default: {CONFIG_LOOKUP}, else the built-in defaults)")
    return parser


def main(argv: list[str]) -> int:
    from croupier.startup import collect_later

    collect_later()  # until the first frame (TableApp)
    args = _parser().parse_args(argv)
    from croupier.config import ConfigError, config_from_argument
    from croupier.ui.runtime import logging_to

    try:
        config = config_from_argument(args.config)
    except ConfigError as exc:
        print(f"croupier table: {exc}", file=sys.stderr)
        return 2
    with logging_to(config.logging):
        return run(config)


def open_session(path: Path, config: Config) -> TableSession:
    """The table's session on its journal, on a clock checked against the monotonic clock. Raises
    JournalError."""
    from datetime import timedelta

    from croupier.session import TableSession
    from croupier.table.clock import GuardedClock

    clock = GuardedClock(timedelta(seconds=config.table.clock_tolerance_seconds))
    return TableSession.open(path, clock, key=config.journal_key, pin_lock_minutes=config.table.pin_lock_minutes)


def record_clock(session: TableSession, config: Config) -> None:
    """Record what the table's clock rests on (time server, battery clock) as it starts."""
    from croupier.timesync import standing

    found = standing()
    session.check_clock(synchronised=found.synchronised, told_by=found.told_by, rtc=found.rtc,
                        tolerance_seconds=config.table.clock_tolerance_seconds)


def run(config: Config) -> int:
    from croupier import terminal
    from croupier.i18n import install
    from croupier.journal.store import JournalError, JournalFault
    from croupier.sdnotify import Notifier
    from croupier.ui.app import TableApp
    from croupier.ui.runtime import Devices, floor_link, matrix_keypad, wheel_link

    presentation = install(config.table.language, config.table.house)
    try:
        session = open_session(config.journal_path, config)
    except JournalError as exc:
        print(f"croupier table: {exc}", file=sys.stderr)
        # The unit does not restart on these: a full or read-only disk, a damaged journal or key
        # need someone to fix them, and a restart loop would only fill the log.
        return EXIT_JOURNAL_FAULT if isinstance(exc, JournalFault) else EXIT_JOURNAL_UNUSABLE
    with session:
        record_clock(session, config)
        devices = Devices()
        if config.wheel is not None:
            devices.add(wheel_link(config))
        if config.floor.url:
            from croupier.floor.table_link import FloorLinkError

            try:
                devices.add(floor_link(config))
            except FloorLinkError as exc:
                print(f"croupier table: [floor]: {exc}", file=sys.stderr)
                return 2
        board = None
        try:
            if config.keypad.kind == "gpio":
                devices.add(matrix_keypad(config))
            if config.display is not None:
                from croupier.board.gpio import GpioBoard

                board = GpioBoard(config.display)
                devices.add_running(board.close)
        except Exception as exc:  # gpiozero's errors: no pin driver on this machine, a pin in use
            devices.stop()
            print(f"croupier table: cannot use the GPIO pins ({type(exc).__name__}: {exc}). On a machine without "
                  "GPIO set GPIOZERO_PIN_FACTORY=mock, or set [display] enabled = false and [keypad] kind = \"usb\"; "
                  "`croupier doctor` checks the pins.", file=sys.stderr)
            return 1
        app = TableApp(session, config, devices=devices, board_output=board.show if board else None,
                       notifier=Notifier(), presentation=presentation)
        return terminal.run(app)
