"""`croupier billboard`: the players' monitor, read-only over the table's journal."""
from __future__ import annotations

import argparse
import sys

from croupier.commands import arguments

SUMMARY = "the players' monitor: last numbers, statistics, limits, colour values (read-only)"


def _parser() -> argparse.ArgumentParser:
    from croupier.paths import CONFIG_LOOKUP

    parser = argparse.ArgumentParser(
        prog="croupier billboard",
        description=SUMMARY[0].upper() + SUMMARY[1:] + ". It reads the table's journal as the table writes "
        "it, and never writes to it or touches the hardware. Ctrl+Q quits.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--db", type=arguments.path, metavar="PATH", help="the journal to show")
    source.add_argument("--config", metavar="PATH", help=f"the table's configuration: its journal, name, currency "
                        f"and language (default: {CONFIG_LOOKUP}, else the built-in defaults)")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier import terminal
    from croupier.billboard.app import BillboardApp
    from croupier.config import ConfigError, config_from_argument
    from croupier.i18n import install
    from croupier.journal.store import JournalError

    try:
        config = config_from_argument(args.config)
    except ConfigError as exc:
        print(f"croupier billboard: {exc}", file=sys.stderr)
        return 2
    path = args.db or config.journal_path
    if path.exists():  # a missing journal is waited for (the table creates it); a bad one is an error now
        from croupier.billboard.feed import JournalFeed

        try:
            feed = JournalFeed(path)
        except JournalError as exc:
            print(f"croupier billboard: {exc}", file=sys.stderr)
            return 1
        feed.close()
        install(config.table.language, config.table.house)
        from croupier.history.context import configuration_disagrees

        for line in configuration_disagrees(feed.board.state, config.table):
            print(f"croupier billboard: {line}", file=sys.stderr)
    presentation = install(config.table.language, config.table.house)
    return terminal.run(BillboardApp(path, table_name=config.table.name, currency=config.table.currency,
                                     presentation=presentation))
