"""`croupier floor`: the casino floor's central copy of every table's journal.

    croupier floor serve --nats URL --store URL      ingest every table's stream into the store
    croupier floor status --store URL [--json]       per table: last seq, head, chain, anchor, lag
    croupier floor check --table ID --db JOURNAL --store URL   a journal against the floor's copy
    croupier floor acknowledge --table ID --event N --by NAME --store URL   a pit boss takes an alarm
    croupier floor resume --table ID --by NAME --store URL   a quarantined table is read again from the stream
    croupier floor view --store URL                  the floor view (read-only)
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

from croupier.commands import arguments

SUMMARY = "the casino floor: ingest every table's journal from NATS JetStream, status, check, view, demo"
DEFAULT_STORE = os.environ.get("CROUPIER_FLOOR_STORE") or "floor.db"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="croupier floor", description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True)
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
    acknowledge.add_argument("--table", required=True)
    acknowledge.add_argument("--event", required=True, type=int, help="the event the alarm names")
    acknowledge.add_argument("--by", required=True, help="who acknowledges it")
    acknowledge.add_argument("--store", default=DEFAULT_STORE)
    resume = verbs.add_parser("resume", help="end a table's quarantine: the ingester reads it again from the stream")
    resume.add_argument("--table", required=True)
    resume.add_argument("--by", required=True, type=arguments.name, help="who resumes it (kept on the alarm)")
    resume.add_argument("--store", default=DEFAULT_STORE)
    view = verbs.add_parser("view", help="the floor view: a tile per table, alarms, wheel statistics (read-only)")
    view.add_argument("--store", default=DEFAULT_STORE)
    view.add_argument("--language", metavar="LANG", default="en",
                      help="the view's language: en (default), pt, ru, it, or a house's catalog")
    demo = verbs.add_parser("demo", help="one machine: nats-server, four simulated tables, the ingester, the view")
    demo.add_argument("--tables", type=int, default=4)
    demo.add_argument("--speed", type=float, default=20.0, help="wheel simulator speed (20)")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier.floor.store import StoreError

    try:
        return VERBS[args.verb](args)
    except StoreError as exc:
        print(f"croupier floor: {exc}", file=sys.stderr)
        return 1


def _serve(args) -> int:
    import asyncio

    from croupier.floor.ingester import Ingester
    from croupier.floor.store import open_store

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("nats").setLevel(logging.CRITICAL)  # the ingester says itself when the broker is away
    store = open_store(args.store)
    servers = [s.strip() for s in args.nats.split(",") if s.strip()]
    ingester = Ingester(store, servers, anchor_every_s=args.anchor_every, replicas=args.replicas,
                        stream_keep_s=args.stream_keep * 3600, purge_every_s=min(3600.0, max(1.0, args.stream_keep * 360)),
                        stream_max_bytes=int(args.stream_max_gib * 2**30) if args.stream_max_gib else -1)

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
        install(args.language)
    except CatalogError as error:
        print(f"croupier floor view: --language {args.language[:20]!r}: {error}", file=sys.stderr)
        return 2
    return run_view(args.store)


def _demo(args) -> int:
    from croupier.floor.demo import run_demo

    return run_demo(tables=args.tables, speed=args.speed)


VERBS = {"serve": _serve, "status": _status, "check": _check, "acknowledge": _acknowledge, "resume": _resume,
         "view": _view, "demo": _demo}
