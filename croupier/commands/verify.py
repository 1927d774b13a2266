"""`croupier verify --db PATH [--key FILE]`: check a journal, read-only, and name the first bad event."""
from __future__ import annotations

import argparse
from dataclasses import replace
import sys

from croupier.commands import arguments

SUMMARY = "check a journal's hash chain, key, head witness and snapshots; name the first bad event"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier verify",
        description="Check every event of a journal against the hash chain, the table's key and the head witness, "
                    "and the snapshots against the events. Exits 0 when intact, 1 naming the first bad event, 2 "
                    "when the file cannot be read.",
    )
    parser.add_argument("--db", required=True, type=arguments.path, help="the journal file")
    parser.add_argument("--key", type=arguments.path, metavar="FILE",
                        help="the table's key (table.key beside the journal, or [journal] key): proves the table "
                             "wrote every event; without it only the plain SHA-256 chain is checked")
    parser.add_argument("--full", action="store_true",
                        help="check every event from the first: no earlier check's mark, no signed snapshot to start "
                             "the fold from")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier.journal.key import KeyFileError, read_key
    from croupier.journal.store import Journal, JournalError
    from croupier.journal.verify import verify
    from croupier.journal.witness import signed_mark, verified_path, witness_path, write_mark

    mark = verified_path(args.db)
    try:
        key = read_key(args.key) if args.key else None
        with Journal.open(args.db, read_only=True, key=key) as journal:
            found = signed_mark(mark, key) if key and not args.full else None
            verdict = verify(journal, key, full=args.full, verified=(found.seq, found.hash) if found else None)
            rolled_back = journal.rolled_back() if verdict.intact else None
            if rolled_back:  # every event checks, but the journal once reached further: nothing is marked
                verdict = replace(verdict, problem=rolled_back, bad_event=journal.head[0] + 1)
    except (JournalError, KeyFileError) as exc:
        print(f"croupier verify: {exc}", file=sys.stderr)
        return 2
    seq, digest = verdict.head
    unwitnessed = verdict.intact and verdict.witness is None and seq > 0
    if unwitnessed and key is not None:  # the table keeps one beside every journal it writes
        verdict = replace(verdict, problem=f"its head witness {witness_path(args.db)} is missing: events lost from "
                                           "its end cannot be detected", events=seq)
    if not verdict.intact:
        print(f"{args.db}: NOT intact: {verdict.problem}", file=sys.stderr)
        print(f"the {verdict.events} events before it check (last good: event {seq}, sha256 {digest})",
              file=sys.stderr)
        return 1
    print(f"{args.db}: intact: {verdict.events} events, {verdict.snapshots} snapshots checked"
          + ("; but its head witness is MISSING: events lost from its end cannot be detected" if unwitnessed else ""))
    print(f"head: event {seq}, sha256 {digest}  (compare with the last shift report)")
    if verdict.keyed:
        print("keyed: every event, snapshot and the head witness carry the table's signature")
        if verdict.since:
            print(f"events 1-{verdict.since} were checked by an earlier `verify --key` ({mark.name}, signed); "
                  "--full checks them all again")
        try:  # where the next check starts (if the event still has that hash); none when the folder is not writable
            write_mark(mark, key, *verdict.head)
        except OSError:
            pass
    else:
        print("keyed check NOT done: without --key the chain proves no row was changed without recomputing it, "
              "not that the table wrote it")
    print(f"head witness: event {verdict.witness}" if verdict.witness is not None else
          "head witness: none beside the journal (events lost from its end could not be detected)")
    if verdict.folded_from:
        print(f"state folded from the table's signed snapshot after event {verdict.folded_from} (--full folds all)")
    return 0
