"""`croupier verify --db PATH [--key FILE] [--public-key FILE]`: check a journal, read-only, and name the
first bad event. `croupier verify --store URL --table ID --public-key FILE`: the same for the floor's copy.
The public key is all an inspector needs: it proves the table signed each event, and forges none."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from croupier.commands import arguments

SUMMARY = "check a journal's hash chain, key, head witness and snapshots; name the first bad event"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier verify",
        description="Check every event of a journal against the hash chain, the table's key and the head witness, "
                    "and the snapshots against the events. Exits 0 when intact, 1 naming the first bad event, 2 "
                    "when the file cannot be read.",
    )
    parser.add_argument("--db", type=arguments.path, help="the journal file")
    parser.add_argument("--store", help="instead of --db: the floor's store (PostgreSQL URL or SQLite file) holding "
                                        "the copy of --table")
    parser.add_argument("--table", help="with --store: the table whose copy is checked")
    parser.add_argument("--public-key", type=arguments.path, metavar="FILE",
                        help="the table's public key (table-signing.pub): every event must carry its signature; "
                             "no secret needed")
    parser.add_argument("--key", type=arguments.path, metavar="FILE",
                        help="the table's key (table.key beside the journal, or [journal] key): proves the table "
                             "wrote every event; without it only the plain SHA-256 chain is checked")
    parser.add_argument("--full", action="store_true",
                        help="check every event from the first: no earlier check's mark, no signed snapshot to start "
                             "the fold from")
    return parser


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    from croupier.journal.key import KeyFileError, read_key
    from croupier.journal.signing import SigningKeyError, read_public_key
    from croupier.journal.store import Journal, JournalError
    from croupier.journal.verify import verify
    from croupier.journal.witness import signed_mark, verified_path, witness_path, write_mark

    if (args.db is None) == (args.store is None) or (args.store is not None) != (args.table is not None):
        parser.error("give --db JOURNAL, or --store URL with --table ID")
    try:
        public_key = read_public_key(args.public_key) if args.public_key else None
    except SigningKeyError as exc:
        print(f"croupier verify: {exc}", file=sys.stderr)
        return 2
    if args.store is not None:
        if public_key is None:
            parser.error("--store needs --public-key: the floor holds no secret of the table")
        return _verify_floor_copy(args.store, args.table, public_key)

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
    signed = None
    if public_key is not None and verdict.intact:
        from croupier.journal.signing import check_signatures

        with Journal.open(args.db, read_only=True) as journal:
            signed = check_signatures(((row.seq, row.hash, row.sig) for row in journal.rows()), public_key)
            count, bad, problem = signed
            if bad is not None:
                verdict = replace(verdict, problem=problem, bad_event=bad, events=count,
                                  head=(bad - 1, journal.hash_at(bad - 1) or ""))
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
    if signed is not None:
        print(f"signed: all {signed[0]} events carry the signature of the table's public key {args.public_key}")
    if key is not None:  # the check ran with the table's key (verdict.keyed)
        print("keyed: every event, snapshot and the head witness carry the table's signature")
        if verdict.since:
            print(f"events 1-{verdict.since} were checked by an earlier `verify --key` ({mark.name}, signed); "
                  "--full checks them all again")
        try:  # where the next check starts (if the event still has that hash); none when the folder is not writable
            write_mark(mark, key, *verdict.head)
        except OSError:
            pass
    elif signed is None:
        print("keyed check NOT done: without --key or --public-key the chain proves no row was changed without "
              "recomputing it, not that the table wrote it")
    print(f"head witness: event {verdict.witness}" if verdict.witness is not None else
          "head witness: none beside the journal (events lost from its end could not be detected)")
    if verdict.folded_from:
        print(f"state folded from the table's signed snapshot after event {verdict.folded_from} (--full folds all)")
    return 0


def _verify_floor_copy(url: str, table_id: str, public_key) -> int:
    """The floor's copy of a table: its chain whole from the first event, every event signed by the table."""
    from croupier.floor.chain import check_links
    from croupier.floor.store import StoreError, open_store
    from croupier.journal.signing import check_signatures
    from croupier.journal.store import GENESIS

    try:
        with open_store(url, read_only=True) as store:
            links = list(store.links(table_id))
            seq_of_hash = {link.hash: link.seq for link in links}.get
    except StoreError as exc:
        print(f"croupier verify: {exc}", file=sys.stderr)
        return 2
    name = f"the floor's copy of table {table_id}"
    if not links:
        print(f"{name}: no events", file=sys.stderr)
        return 1
    good, damaged = check_links(table_id, (0, GENESIS), links, seq_of_hash)
    checked, bad, problem = check_signatures(((link.seq, link.hash, link.sig) for link in good), public_key)
    if problem is None and damaged is not None:
        problem = damaged.verdict.problem
    if problem is not None:
        print(f"{name}: NOT intact: {problem}", file=sys.stderr)
        print(f"the {checked} events before it check", file=sys.stderr)
        return 1
    print(f"{name}: intact: {checked} events, every one signed by the table's key; head: event {good[-1].seq}, "
          f"sha256 {good[-1].hash}")
    return 0

