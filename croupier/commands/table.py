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
    from croupier.ui.app import TableApp

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
    """The table app on its first screen at once; the journal, the clock check and the devices once
    it is drawn (`opening`). A journal, floor link or pin that cannot be used ends it with one line."""
    from croupier import terminal
    from croupier.i18n import install
    from croupier.sdnotify import Notifier
    from croupier.ui.app import TableApp

    presentation = install(config.table.language, config.table.house)
    app = TableApp(None, config, notifier=Notifier(), presentation=presentation, opening=opening)
    try:
        status = terminal.run(app)
    finally:
        if app.opened:
            app.session.close()
    if app.not_started is not None:
        print(f"croupier table: {app.not_started.line}", file=sys.stderr)
    return status


def opening(app: TableApp) -> TableSession:
    """The table's session with the start's clock check recorded, and the app's devices. Raises
    NotStarted."""
    from croupier.journal.store import JournalError, JournalFault
    from croupier.ui.runtime import floor_link, matrix_keypad, wheel_link
    from croupier.ui.start_screen import NotStarted

    def stopped(exc: JournalError) -> NotStarted:
        # The unit does not restart on these: a full or read-only disk, a damaged journal or key
        # need someone to fix them, and a restart loop would only fill the log.
        return NotStarted(str(exc), EXIT_JOURNAL_FAULT if isinstance(exc, JournalFault) else EXIT_JOURNAL_UNUSABLE)

    config = app.config
    try:
        session = open_session(config.journal_path, config)
    except JournalError as exc:
        raise stopped(exc) from None
    try:
        record_clock(session, config)
        devices = app.devices
        if config.wheel is not None:
            devices.add(wheel_link(config))
        if config.floor.url:
            from croupier.floor.table_link import FloorLinkError

            try:
                devices.add(floor_link(config))
            except FloorLinkError as exc:
                raise NotStarted(f"[floor]: {exc}", 2) from None
        try:
            if config.keypad.kind == "gpio":
                devices.add(matrix_keypad(config))
            if config.display is not None:
                from croupier.board.gpio import GpioBoard

                board = GpioBoard(config.display)
                devices.add_running(board.close)
                app.board_output = board.show
        except Exception as exc:  # gpiozero's errors: no pin driver on this machine, a pin in use
            devices.stop()
            raise NotStarted(f"cannot use the GPIO pins ({type(exc).__name__}: {exc}). On a machine without "
                             "GPIO set GPIOZERO_PIN_FACTORY=mock, or set [display] enabled = false and [keypad] "
                             "kind = \"usb\"; `croupier doctor` checks the pins.", 1) from None
    except JournalError as exc:  # the clock check could not be recorded: a full or failing disk
        session.close()
        raise stopped(exc) from None
    except BaseException:
        session.close()
        raise
    return session
