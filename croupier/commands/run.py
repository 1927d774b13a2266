"""`croupier run --headless`: the table driven by the wheel sensor alone, recorded to the journal.

What the wheel reports is recorded as it comes, without confirmation: launches (with the rotor
direction, `PT-A 21`), no more bets, results, and the voids the sensor detects. SIGTERM (or Ctrl-C)
stops it cleanly: the wheel is no longer read, and what was already decoded is recorded before it
exits; started again on the same journal it continues where it stopped, and a game the
journal already holds is never recorded twice (the wheel's game counter is checked).
"""
from __future__ import annotations

import argparse
import logging
import queue
import signal
import sys
import threading
import time

from croupier.commands import arguments

SUMMARY = "run the table from the wheel sensor alone (--headless), recording every game to the journal"
TICK_S = 5.0  # how often the alarms that fell due are recorded, and systemd is told all is well
UNATTENDED = "unattended"  # the croupier recorded at a table nobody operates

log = logging.getLogger("croupier.run")


def _wheel(text: str) -> tuple[str, str]:
    protocol, colon, device = text.partition(":")
    if not colon or not protocol or not device:
        raise argparse.ArgumentTypeError(f"{text!r} is not PROTOCOL:DEVICE (e.g. cammegh-ss2:/dev/ttyUSB0)")
    return protocol, device


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="croupier run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--headless", action="store_true",
                        help="no screen: the wheel sensor alone drives the table "
                             "(the table screen is `croupier table`)")
    parser.add_argument("--db", required=True, type=arguments.path, help="the journal file (created if absent)")
    parser.add_argument("--profile", required=True, help="the regulation profile, e.g. pt-americana")
    parser.add_argument("--wheel", required=True, type=_wheel, metavar="PROTOCOL:DEVICE",
                        help="the wheel protocol and its serial device, e.g. cammegh-ss2:/dev/croupier-wheel")
    parser.add_argument("--config", help="configuration file (table minimum, balls, baud rate); default as "
                                         "`croupier doctor` finds it")
    parser.add_argument("--croupier", default=UNATTENDED, type=arguments.name, help=f"the name recorded with each spin ({UNATTENDED})")
    parser.add_argument("--floor", metavar="URL", help="publish the journal to the casino floor's NATS server "
                                                       "(default: [floor] url of the configuration)")
    parser.add_argument("--table-id", help="the table's id on the floor (default: [table] id of the configuration)")
    parser.add_argument("--floor-key", type=arguments.path, metavar="FILE",
                        help="the floor's public key: receipts it signed are recorded (default: [floor] floor_key)")
    parser.add_argument("--floor-credentials", type=arguments.path, metavar="FILE",
                        help="the table's NATS login, a file of mode 0600 (default: [floor] credentials)")
    parser.add_argument("--floor-ca", type=arguments.path, metavar="FILE",
                        help="the casino's CA for the broker's TLS certificate (default: [floor] ca)")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    if not args.headless:
        print("croupier run: add --headless to run from the wheel sensor alone; the table screen is "
              "`croupier table`", file=sys.stderr)
        return 2

    from croupier.commands.table import EXIT_JOURNAL_FAULT, EXIT_JOURNAL_UNUSABLE, open_session, record_clock
    from croupier.config import ConfigError, config_from_argument
    from croupier.journal.store import JournalError, JournalFault
    from croupier.rules.profiles import ProfileError, load_profile
    from croupier.sdnotify import Notifier
    from croupier.sensor_table import SensorTable
    from croupier.table.events import Ball
    from croupier.table.refusal import Refused
    from croupier.table.state import Phase
    from croupier.wheel.link import WheelLink
    from croupier.wheel.protocols import UnknownProtocol, make_decoder

    protocol, device = args.wheel
    try:
        profile = load_profile(args.profile)
        config = config_from_argument(args.config)
        decoder = make_decoder(protocol, profile.min_ball_revolutions)
    except (ProfileError, ConfigError, UnknownProtocol) as exc:
        print(f"croupier run: {exc}", file=sys.stderr)
        return 2
    floor_settings = _floor_settings(args, config)  # checked before the journal is touched
    try:
        session = open_session(args.db, config)
    except JournalError as exc:
        print(f"croupier run: {exc}", file=sys.stderr)
        return EXIT_JOURNAL_FAULT if isinstance(exc, JournalFault) else EXIT_JOURNAL_UNUSABLE

    with session:
        state = session.state
        if state.phase is Phase.CLOSED:
            session.open_table(profile=profile.id, minimum=config.table.minimum, colours=config.colours,
                               balls=tuple(Ball(id=b.id, diameter_mm=b.diameter_mm) for b in config.balls),
                               croupier=args.croupier, sensor_only=True, by=args.croupier, table_id=config.table.id,
                               currency=config.table.currency, time_zone=config.table.time_zone,
                               casino=config.table.casino)
            log.info("table opened on %s under %s", args.db, profile.id)
        elif state.profile != profile.id or not state.sensor_only:
            what = (f"plays {state.profile}, not {profile.id}: run it with --profile {state.profile}"
                    if state.profile != profile.id else "is an attended table: it runs with `croupier table`")
            print(f"croupier run: the table in {args.db} {what}, or use another journal", file=sys.stderr)
            return 2
        else:
            log.info("continuing %s at event %d, spin %d", args.db, session.seq, state.spin)
        record_clock(session, config)
        last = state.last_result
        if last is not None and last.wheel_game is not None:
            decoder.mark_reported(last.wheel_game, last.number)

        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        link = WheelLink(device, decoder, baudrate=config.wheel.baud if config.wheel else 9600)
        table = SensorTable(session, respins_in_play=decoder.respin_clears_voids)
        notifier = Notifier()
        floor = _floor_link(session, args.db, floor_settings)  # None without a floor URL
        link.start()
        notifier.ready(f"recording {protocol} on {device} to {args.db}")
        next_tick = 0.0

        def record(event) -> None:
            try:
                for recorded in table.handle(event):
                    log.info("recorded %s", recorded.kind)
            except Refused as exc:
                log.warning("not recorded: %s", exc)

        try:
            while not stop.is_set():
                try:
                    record(link.events.get(timeout=0.5))
                except queue.Empty:
                    pass
                if floor is not None:
                    floor.drain()  # the floor's anchor receipts, recorded by this thread
                if time.monotonic() >= next_tick:
                    try:
                        session.tick()
                    except Refused as exc:
                        log.warning("not recorded: %s", exc)
                    notifier.ping()
                    next_tick = time.monotonic() + TICK_S
            link.stop()  # nothing more is read; what was decoded is recorded before stopping
            decoded = link.drain()
            for event in decoded:
                record(event)
            log.info("stopping: %d wheel events read before the stop were recorded", len(decoded))
        except JournalError as exc:  # the journal cannot take more: stop rather than lose results silently
            print(f"croupier run: {exc}", file=sys.stderr)
            return EXIT_JOURNAL_FAULT if isinstance(exc, JournalFault) else EXIT_JOURNAL_UNUSABLE
        finally:
            link.stop()
            if floor is not None:
                floor.stop()
            notifier.stopping("stopped")
            log.info("stopped at event %d", session.seq)
    return 0


def _floor_settings(args, config) -> dict | None:
    """What the floor link is started with, when the table publishes to a floor; exits naming a bad one."""
    url = args.floor or config.floor.url
    if not url:
        return None
    from croupier.floor.table_link import FloorLinkError, check_floor_link, floor_access, floor_public_key

    try:
        if "@" in url:
            raise FloorLinkError("a URL holding a login is refused: name the credentials file in [floor] credentials")
        floor_key = args.floor_key or config.floor.floor_key
        floor_public_key(floor_key)
        credentials, ca = args.floor_credentials or config.floor.credentials, args.floor_ca or config.floor.ca
        floor_access(credentials, ca)
        return {"url": url, "table_id": check_floor_link(args.table_id or config.table.id), "floor_key": floor_key,
                "credentials": credentials, "ca": ca}
    except FloorLinkError as exc:
        print(f"croupier run: --floor: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _floor_link(session, db, settings):
    """The publisher of the journal to the casino floor, started beside the table."""
    if settings is None:
        return None
    from croupier.floor.table_link import FloorLink

    return FloorLink(session, db, **settings)
