"""`croupier staff unlock NAME`: set a locked or delayed PIN free, at the console, with the table's key."""
from __future__ import annotations

import argparse
import getpass
import sys

from croupier.commands import arguments

SUMMARY = "staff PINs at the console: unlock a PIN locked or delayed after wrong PINs (recorded in the journal)"


def _parser() -> argparse.ArgumentParser:
    from croupier.paths import CONFIG_LOOKUP

    parser = argparse.ArgumentParser(
        prog="croupier staff",
        description="Staff PINs at the console. `unlock NAME` sets free a PIN that wrong PINs locked or delayed, "
                    "and records who did it in the journal; it needs the table's key, so only the table's own "
                    "account can. Stop the table first: the journal has one writer.")
    commands = parser.add_subparsers(dest="command", required=True)
    unlock = commands.add_parser("unlock", help="set a locked or delayed PIN free")
    unlock.add_argument("name", type=arguments.name, help="the member of staff, as registered")
    unlock.add_argument("--config", metavar="PATH",
                        help=f"the table's configuration: its journal and key (default: {CONFIG_LOOKUP})")
    unlock.add_argument("--db", type=arguments.path, metavar="PATH", help="the journal, instead of the configuration's")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier.config import ConfigError, config_from_argument
    from croupier.journal.store import JournalBusy, JournalError
    from croupier.commands.table import open_session
    from croupier.table.refusal import Refused

    try:
        config = config_from_argument(args.config)
        path = args.db or config.journal_path
        if not path.is_file():  # opening would make a new journal
            raise JournalError(f"{path}: no such journal")
        # On the table's clock, as the table keeps it: never before the journal's last event (a Pi
        # restarted without a battery clock), a jump recorded with both readings.
        with open_session(path, config) as session:
            session.unlock_pin(name=args.name, operator=getpass.getuser())
    except JournalBusy:
        print(f"croupier staff: the table is running on {path}, and a journal has one writer: nothing was recorded. "
              "The lock ends on its own after [table] pin_lock_minutes, or when a pit boss clears its alarm at the "
              "table; to unlock it now, stop the table (systemctl stop croupier-table), run this again, then start "
              "the table", file=sys.stderr)
        return 2
    except (ConfigError, JournalError) as exc:
        print(f"croupier staff: {exc}", file=sys.stderr)
        return 2
    except Refused as refusal:
        print(f"croupier staff: {refusal}", file=sys.stderr)
        return 1
    print(f"the PIN of {args.name} is unlocked; recorded in {path}")
    return 0
