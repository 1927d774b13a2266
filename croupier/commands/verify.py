"""`croupier verify --db PATH`: check a journal, read-only, and name the first bad event."""
from __future__ import annotations

import argparse
import sys

from croupier.commands import arguments

SUMMARY = "check a journal's hash chain and snapshots; name the first bad event"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier verify",
        description="Check every event of a journal against the hash chain, and every snapshot against the "
                    "events. Exits 0 when intact, 1 naming the first bad event, 2 when the file cannot be read.",
    )
    parser.add_argument("--db", required=True, type=arguments.path, help="the journal file")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier.journal.store import Journal, JournalError
    from croupier.journal.verify import verify

    try:
        with Journal.open(args.db, read_only=True) as journal:
            verdict = verify(journal)
    except JournalError as exc:
        print(f"croupier verify: {exc}", file=sys.stderr)
        return 2
    seq, digest = verdict.head
    if verdict.intact:
        print(f"{args.db}: intact: {verdict.events} events, {verdict.snapshots} snapshots checked")
        print(f"head: event {seq}, sha256 {digest}  (compare with the last shift report)")
        return 0
    print(f"{args.db}: NOT intact: {verdict.problem}", file=sys.stderr)
    print(f"the {verdict.events} events before it check (last good: event {seq}, sha256 {digest})", file=sys.stderr)
    return 1
