"""`croupier review --db PATH`: the pit boss's read-only review of a journal, and its exports."""
from __future__ import annotations

import argparse
from dataclasses import replace
import os
import sys
import tempfile
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from croupier.commands import arguments

if TYPE_CHECKING:
    from datetime import date

    from croupier.review.shifts import Shift

SUMMARY = "pit boss review of a journal (read-only), CSV and PDF exports"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="croupier review",
        description="Review a journal read-only: the shift timeline, spins in dispute, procedures, colour "
                    "ledger, croupiers and wheel statistics. With an export option, write the file(s) and exit.",
    )
    p.add_argument("--db", required=True, type=arguments.path, help="the journal file (opened read-only)")
    p.add_argument("--csv-spins", type=arguments.path, metavar="FILE", help="write every counted spin as CSV and exit")
    p.add_argument("--csv-events", type=arguments.path, metavar="FILE", help="write every event as CSV and exit")
    p.add_argument("--csv-report", type=arguments.path, metavar="FILE",
                   help="write the report's money figures as CSV (per shift and colour, colour ledger, per croupier "
                        "and chip value, totals; --from/--to: those days) and exit")
    p.add_argument("--pdf", type=arguments.path, metavar="FILE", help="write the shift report as PDF and exit")
    p.add_argument("--shift", metavar="N",
                   help="one shift, for the PDF report (default: the last) and the report CSV (default: all): its "
                        "number (1 is the oldest) or 'last'")
    p.add_argument("--from", dest="since", metavar="DAY", type=arguments.day,
                   help="a PDF of every shift opened from this day (YYYY-MM-DD, the table's time zone) ...")
    p.add_argument("--to", dest="until", metavar="DAY", type=arguments.day, help="... to this day, included")
    p.add_argument("--croupier", metavar="NAME", type=arguments.name,
                   help="a PDF of this croupier's part of the shift(s): the spins they dealt, their procedures "
                        "and their figures")
    p.add_argument("--config", metavar="PATH",
                   help="the table's configuration: its time zone, and the currency and casino the PDF names "
                        "(default: as `croupier report`)")
    p.add_argument("--casino", metavar="NAME",
                   help="the casino the PDF names (default: the configuration's [table] casino, else a line to write it on)")
    p.add_argument("--language", metavar="LANG",
                   help="the language of the review, the PDF and the CSV headers (default: the configuration's "
                        "[table] language, else English); one of the catalogs: en, pt, ru, it, or the house's")
    p.add_argument("--machine-headers", action="store_true",
                   help="CSV header rows with the fixed column names (spin, time, recorded_number...) in any "
                        "language, for programs; the values are as recorded either way")
    return p


def _umask() -> int:
    """The process's umask, read without changing it where Linux shows it (another thread may be
    creating a file meanwhile); elsewhere set and put back at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


@contextmanager
def replaced_atomically(target: Path, mode: str):
    """Write to a temporary file beside `target` and move it into place only when complete, so a
    failed export never leaves a half-written file (or clobbers a good one). The file gets the mode
    any new file gets under the user's umask (the temporary one is made 0600 while it is written)."""
    if target.is_dir():
        raise OSError(f"{target} is a folder; give a file name")
    folder = target.parent if str(target.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
    os.fchmod(handle, 0o666 & ~_umask())
    try:
        # CSV as UTF-8 with its byte order mark: spreadsheets then read names in any alphabet right.
        with (os.fdopen(handle, mode) if "b" in mode
              else os.fdopen(handle, mode, newline="", encoding="utf-8-sig")) as out:
            yield out
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def shifts_between(shifts: list[Shift], since: date | None, until: date | None) -> list[Shift]:
    """The shifts opened from day `since` to day `until` (both included; None: no bound), in the
    table's time zone; what came before any opening is no shift's."""
    from croupier.history.clock import local

    return [shift for shift in shifts if shift.opened is not None
            and (since is None or local(shift.opened).date() >= since)
            and (until is None or local(shift.opened).date() <= until)]


def span_of(chosen: list[Shift]) -> Shift:
    """One span from the first chosen shift's opening to the last one's end."""
    first, last = chosen[0], chosen[-1]
    return replace(first, last_seq=last.last_seq, closed=last.closed, profile=last.profile, last_number=last.number)


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if arguments.backwards("review", args.since, args.until):
        return 2
    if args.shift is not None and (args.since or args.until):
        print("croupier review: --shift chooses one shift, --from/--to a range of days: give one of them",
              file=sys.stderr)
        return 2
    if args.shift is not None and not (args.pdf or args.csv_report):
        print("croupier review: --shift chooses the shift of the --pdf report or the --csv-report figures: give one",
              file=sys.stderr)
        return 2
    if (args.since or args.until or args.croupier) and not args.pdf:
        print("croupier review: --from, --to and --croupier choose what the --pdf report covers: give --pdf FILE",
              file=sys.stderr)
        return 2
    from croupier.commands.report import configured_table
    from croupier.config import ConfigError
    from croupier.i18n import SOURCE_LANGUAGE, CatalogError, current, install
    from croupier.journal.store import JournalError
    from croupier.review.shifts import list_shifts, open_read_only, pick_shift

    try:
        table = configured_table(args.config)  # its time zone, currency and casino
    except ConfigError as error:
        print(f"croupier review: {error}", file=sys.stderr)
        return 2
    # The table's language, or the one asked for: the screens, the PDF and the CSV headers speak it.
    language = args.language or (table.language if table else SOURCE_LANGUAGE)
    try:
        install(language, table.house if table else None)
    except CatalogError as error:
        print(f"croupier review: --language {language[:20]!r}: {error}", file=sys.stderr)
        return 2
    try:
        journal = open_read_only(args.db)
    except JournalError as error:
        print(f"croupier review: {error}", file=sys.stderr)
        return 1
    with journal:
        from croupier.commands.report import recorded_context

        context = recorded_context(journal, table, lambda text: print(f"croupier review: {text}", file=sys.stderr))
        currency = context.currency or (table.currency if table else None)
        presentation = current()  # the language asked for, each time in the journal's zone in force then
        exports = [path for path in (args.csv_spins, args.csv_events, args.csv_report, args.pdf) if path is not None]
        if not exports:
            from croupier.review.app import ReviewApp

            from croupier import terminal

            return terminal.run(ReviewApp(journal, currency, presentation))
        try:
            from croupier.journal.verify import ChainCheck

            ChainCheck(journal).run()  # a damaged journal stops every export, naming the first bad event
            if args.csv_spins:
                from croupier.export.csv_files import write_spins_csv

                with replaced_atomically(args.csv_spins, "w") as out:
                    rows = write_spins_csv(journal, out, args.machine_headers, presentation)
                print(f"{args.csv_spins}: {rows} spins")
            if args.csv_events:
                from croupier.export.csv_files import write_events_csv

                with replaced_atomically(args.csv_events, "w") as out:
                    rows = write_events_csv(journal, out, args.machine_headers, presentation)
                print(f"{args.csv_events}: {rows} events")
            if args.csv_report:
                from croupier.commands.report import in_range, in_shift
                from croupier.export.report_csv import write_report_csv
                from croupier.reports.model import Range
                from croupier.reports.shift import REPORT_EVENTS, build_report

                chosen = None
                if args.shift is not None:  # one shift's figures
                    try:
                        chosen = pick_shift(list_shifts(journal), args.shift)
                    except ValueError as error:
                        print(f"croupier review: {error}", file=sys.stderr)
                        return 2
                report = build_report(in_shift(in_range(journal.events(REPORT_EVENTS), args.since, args.until),
                                               chosen), journal.head, currency,
                                      range=Range(args.since, args.until, chosen.number if chosen else None))
                with replaced_atomically(args.csv_report, "w") as out:
                    rows = write_report_csv(report, out, args.machine_headers, presentation)
                print(f"{args.csv_report}: {rows} figures")
            if args.pdf:
                from croupier.export.shift_report import Heading, write_shift_report
                from croupier.review.shifts import load_entries

                heading = Heading(journal.head, journal.path.name, currency,
                                  args.casino or context.casino or (table.casino if table else None) or None)
                shifts = list_shifts(journal)
                if not shifts:
                    print(f"croupier review: {args.db} holds no events: no shift to report", file=sys.stderr)
                    return 1
                if args.since or args.until:
                    opened = shifts_between(shifts, args.since, args.until)
                    if not opened:
                        print(f"croupier review: no shift opened from {args.since or 'the first day'} to "
                              f"{args.until or 'the last day'}", file=sys.stderr)
                        return 2
                    shift = span_of(opened)
                    heading = replace(heading, shifts=f"{opened[0].number}-{opened[-1].number}")
                else:
                    try:
                        shift = pick_shift(shifts, args.shift or "last")
                    except ValueError as error:
                        print(f"croupier review: {error}", file=sys.stderr)
                        return 2
                if context.currencies and shift.opened:  # the currency in force when the span opened, and its changes
                    heading = replace(heading, currency=context.currency_at(shift.opened) or heading.currency,
                                      currency_changes=tuple(context.currency_changes(shift.opened, shift.closed)))
                entries = load_entries(journal, shift)
                if args.croupier:
                    if not any(getattr(entry.event, "croupier", None) == args.croupier for entry in entries):
                        print(f"croupier review: {args.croupier!r} dealt no spin in {shift.label}", file=sys.stderr)
                        return 2
                    heading = replace(heading, croupier=args.croupier)
                with replaced_atomically(args.pdf, "wb") as out:
                    pages = write_shift_report(entries, shift, heading, out, datetime.now(timezone.utc), presentation)
                print(f"{args.pdf}: {shift.label}, {pages} pages, head hash {journal.head[1]}")
        except JournalError as error:
            print(f"croupier review: {error}", file=sys.stderr)
            return 1
        except OSError as error:
            print(f"croupier review: cannot write the export: {error}", file=sys.stderr)
            return 1
    return 0
