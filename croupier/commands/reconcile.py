"""`croupier reconcile`: the journal's results against the wheel's own record of them."""
from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone

SUMMARY = "compare the journal's results with the wheel's own record and name every difference"


def _parser() -> argparse.ArgumentParser:
    from croupier.wheel.registry import PROTOCOL_NAMES

    parser = argparse.ArgumentParser(
        prog="croupier reconcile",
        description="Compare the results the journal counts with the wheel's own record: the Slingshot's "
                    "winning-number log, read from the wheel (*s t, *s r; at rest, state 6), or an exported "
                    "log of the wheel's lines (a capture; the Mercury 360's record). Every difference is named. "
                    "Exit 0: none; 1: differences; 2: the journal or the wheel could not be read.")
    parser.add_argument("--db", required=True, help="the table's journal (opened read-only)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--wheel", metavar="cammegh-ss2:DEVICE", help="read the Slingshot's log from its serial port")
    source.add_argument("--wheel-log", metavar="FILE", help="the wheel's exported log (its lines, as captured)")
    parser.add_argument("--protocol", choices=PROTOCOL_NAMES, help="the protocol of --wheel-log's lines")
    parser.add_argument("--json", action="store_true", help="the differences as JSON")
    parser.add_argument("--config", metavar="PATH", help="the table's configuration: its language (as `croupier "
                                                          "report` finds it); times are in the journal's time zone")
    parser.add_argument("--language", metavar="LANG", help="the language of the text (en, pt, ru, it, ...)")
    return parser


def journal_results(path: str) -> list:
    """The journal's counted results in order, with the number that stands after a correction."""
    from croupier.history.spins import SPIN_EVENTS
    from croupier.journal.store import Journal
    from croupier.table.codec import to_plain
    from croupier.table.events import ResultCorrected, ResultRecorded
    from croupier.wheel.history import JournalResult

    found: dict[int, JournalResult] = {}
    with Journal.open(path, read_only=True, create=False) as journal:
        for seq, event in journal.events(SPIN_EVENTS):
            if isinstance(event, ResultRecorded):
                found[event.spin] = JournalResult(event.spin, event.number, event.number, event.source.value,
                                                  event.wheel_game, to_plain(event.time))
            elif isinstance(event, ResultCorrected) and (spin := event.spin) in found:
                old = found[spin]
                found[spin] = JournalResult(spin, event.number, old.recorded, old.source, old.wheel_game, old.time)
    return list(found.values())


def logged_results(path: str, protocol: str) -> list:
    """The results the wheel's own lines give, decoded as the table decodes them."""
    from croupier.wheel.events import WheelResult
    from croupier.wheel.history import WheelRecord
    from croupier.wheel.replay import replay_file

    return [WheelRecord(event.number, event.game,
                        datetime.fromtimestamp(event.time, timezone.utc).isoformat(timespec="seconds"))
            for event in replay_file(path, protocol) if isinstance(event, WheelResult)]


def read_wheel_log(device: str) -> list:
    """The Slingshot's winning-number log, page by page (guide 2.7); misfires are left out."""
    from croupier.wheel.history import LogError, WheelRecord, decode_page
    from croupier.wheel.link import QueryPort

    link = QueryPort(device)
    try:
        pages = link.ask("*s t", "*s t ").split()[2]
        if not pages.isdigit():
            raise LogError(f"the wheel's page count is {pages!r}")
        entries = []
        for page in range(int(pages)):
            reply = link.ask(f"*s r {page}", f"*s r {page} ")
            if reply.split()[3:4] in (["FAIL"], ["BUSY"]):
                raise LogError("the wheel gives its log only at rest (state 6): close the table on the wheel and "
                               "reconcile again")
            entries += decode_page(reply, page)
    finally:
        link.close()
    return [WheelRecord(entry.number) for entry in entries if not entry.misfire]


def _where(result) -> str:
    from croupier.history.clock import stamp
    from croupier.i18n import _

    if result.wheel_game is None:
        return _("spin {spin} ({time})").format(spin=result.spin, time=stamp(result.time))
    return _("spin {spin} ({time}, wheel game {game})").format(spin=result.spin, time=stamp(result.time),
                                                               game=result.wheel_game)


def _record(record, position) -> str:
    from croupier.history.clock import stamp
    from croupier.i18n import _

    if record.game is None and record.time is None:
        return _("the wheel's result {position}").format(position=position)
    return _("the wheel's result {position} (game {game}, {time})").format(
        position=position, game="-" if record.game is None else record.game,
        time=stamp(record.time) if record.time else "-")


def describe(difference) -> str:
    """A difference in one sentence, in the language installed."""
    from croupier.history.words import source_words
    from croupier.i18n import _

    journal, wheel = difference.journal, difference.wheel
    if difference.kind == "number":
        how = source_words(journal.source) + ("; " + _("corrected from {number}").format(number=journal.recorded)
                                              if journal.recorded != journal.number else "")
        return _("{spin}: the journal counts {number} ({how}); {record} is {wheel}").format(
            spin=_where(journal), number=journal.number, how=how, record=_record(wheel, difference.position),
            wheel=wheel.number)
    if difference.kind == "journal-only":
        return _("{spin}: {number} in the journal ({source}); the wheel has no such result").format(
            spin=_where(journal), number=journal.number, source=source_words(journal.source))
    return _("{record}: {number}, not in the journal").format(record=_record(wheel, difference.position),
                                                             number=wheel.number)


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier.commands.report import configured, recorded_context, speak
    from croupier.config import ConfigError
    from croupier.i18n import CatalogError, _, ngettext
    from croupier.journal.store import Journal, JournalError
    from croupier.wheel.capture import CaptureFormatError
    from croupier.wheel.history import LogError, compare
    from croupier.wheel.registry import PROTOCOLS

    try:
        config = configured(args.config)
        table = config.table if config else None
        speak(args.language, table, args.json)
    except (ConfigError, CatalogError) as exc:
        print(f"croupier reconcile: {exc}", file=sys.stderr)
        return 2
    try:
        with Journal.open(args.db, read_only=True, create=False) as reader:  # its time zone, before any time
            recorded_context(reader, table, lambda text: print(f"croupier reconcile: {text}", file=sys.stderr))
        if args.wheel_log is not None:
            if args.protocol is None:
                raise ValueError("--wheel-log needs --protocol: the protocol its lines are in")
            wheel = logged_results(args.wheel_log, args.protocol)
        else:
            protocol, _colon, device = args.wheel.partition(":")
            if not device or protocol not in PROTOCOLS or not PROTOCOLS[protocol].log_queries:
                raise ValueError("--wheel reads the Slingshot's log only (cammegh-ss2:DEVICE); for another wheel "
                                 "give its exported log with --wheel-log")
            wheel = read_wheel_log(device)
        journal = journal_results(args.db)
    except (JournalError, LogError, CaptureFormatError, OSError, ValueError) as exc:
        print(f"croupier reconcile: {exc}", file=sys.stderr)
        return 2
    differences = compare(journal, wheel)
    if args.json:
        print(json.dumps({"journal_results": len(journal), "wheel_results": len(wheel), "differences": [
            {"kind": d.kind, "spin": d.journal.spin if d.journal else None,
             "journal_number": d.journal.number if d.journal else None,
             "recorded_number": d.journal.recorded if d.journal else None,
             "wheel_game": d.journal.wheel_game if d.journal else d.wheel.game if d.wheel else None,
             "wheel_number": d.wheel.number if d.wheel else None, "wheel_position": d.position,
             "text": describe(d)} for d in differences]}, ensure_ascii=False))
    else:
        for difference in differences:
            print(describe(difference))
        print(_("{journal} results in the journal, {wheel} in the wheel's record: {differences}").format(
            journal=len(journal), wheel=len(wheel), differences=ngettext(
                "{count} difference", "{count} differences", len(differences)).format(count=len(differences))))
    return 1 if differences else 0
