"""The `croupier` command: one subcommand per module in croupier.commands.

Only the chosen subcommand's module is imported, so `croupier payout` never loads the UI or any
hardware library. Each module has `main(argv: list[str]) -> int` and a one-line `SUMMARY`.
"""
from __future__ import annotations

import importlib
import os
import sys

# name -> (module, summary). The summary lives here so `croupier --help` imports nothing.
COMMANDS: dict[str, tuple[str, str]] = {
    # Each subcommand registers here, in the order a user meets them.
    "demo": ("croupier.commands.demo", "the table screen with a simulated wheel, mock GPIO and a temporary journal"),
    "table": ("croupier.commands.table", "the croupier's table screen: wheel sensor, keypad, display board, journal"),
    "billboard": ("croupier.commands.billboard", "the players' monitor: last numbers, statistics, limits, colour values (read-only)"),
    "payout": ("croupier.commands.payout", "what to collect and pay for a winning number, in the order the regulation says"),
    "doctor": ("croupier.commands.doctor", "check this machine can run the table, and how to fix what cannot"),
    "wheel-sim": ("croupier.commands.wheel_sim", "play simulated wheel games on a pseudo-terminal (prints its device path)"),
    "wheel-replay": ("croupier.commands.wheel_replay", "decode a wheel capture (timestamped log or raw lines) and print its events"),
    "run": ("croupier.commands.run", "run the table from the wheel sensor alone (--headless), recording every game to the journal"),
    "report": ("croupier.commands.report", "the shift report of a journal (--json for the machine-readable form)"),
    "staff": ("croupier.commands.staff", "staff PINs at the console: unlock a PIN locked or delayed after wrong PINs"),
    "reconcile": ("croupier.commands.reconcile", "compare the journal's results with the wheel's own record and name every difference"),
    "verify": ("croupier.commands.verify", "check a journal's hash chain and snapshots; name the first bad event"),
    "review": ("croupier.commands.review", "pit boss review of a journal (read-only), CSV and PDF exports"),
    "floor": ("croupier.commands.floor", "the casino floor: ingest every table's journal from NATS JetStream, status, check, view, demo"),
}


def usage() -> str:
    width = max(map(len, COMMANDS), default=0)
    lines = ["usage: croupier COMMAND [ARGS...]   (croupier COMMAND --help for its options)", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {summary}" for name, (_, summary) in COMMANDS.items()]
    return "\n".join(lines)


def _reader_left() -> None:
    """`croupier report | head`: the reader has gone; say nothing more, not even at exit."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in {"-h", "--help", "help"}:
        try:
            print(usage(), flush=True)
        except BrokenPipeError:
            _reader_left()
        return 0 if argv else 2
    if argv[0] == "--version":
        from croupier import __version__

        print(f"croupier {__version__}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"croupier: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    from croupier.service_user import become_service_user

    as_user = become_service_user(name, rest)
    if as_user:
        print(f"croupier {name}: run as the {as_user} user, so the table's files stay its own", file=sys.stderr)
    module = importlib.import_module(COMMANDS[name][0])
    try:
        return module.main(rest)
    except BrokenPipeError:
        _reader_left()
        return 1
    except OSError as error:  # a file the system refuses: say which and why, never a traceback
        where = "" if error.filename is None else f": {str(error.filename)[:200]}"
        hint = f" (it runs as the {as_user} user: name a file that user can write)" if as_user else ""
        print(f"croupier {name}: {error.strerror or error}{where}{hint}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
