"""The shift report on paper: what happened in one shift, headed by the journal's head hash so the
paper can later be matched to the journal (`croupier verify` prints the same head)."""
from __future__ import annotations

from datetime import datetime
from typing import BinaryIO

from croupier.export.pdf import LANDSCAPE_PAGE, NEW_PAGE, columns, write_pdf
from croupier.journal.store import Journal
from croupier.review.croupiers import croupier_figures, croupier_table
from croupier.review.ledger import colour_ledger, ledger_table
from croupier.review.procedures import Table, procedure_tables
from croupier.rules.profiles import numbering_of
from croupier.review.shift_statistics import entries_spins, statistics_text
from croupier.review.shifts import Shift, load_entries
from croupier.rules.wheel import colour
from croupier.table import events as ev


GAP = "  "
NARROWEST = 8  # a column trimmed to fit is never cut below this


def column_widths(table: Table) -> list[int]:
    """Each column as wide as its widest cell."""
    rows = table.rows or [("none",) + ("",) * (len(table.columns) - 1)]
    return [max(len(str(cell)) for cell in column) for column in zip(table.columns, *rows)]


def table_width(widths: list[int]) -> int:
    return sum(widths) + len(GAP) * (len(widths) - 1)


def table_lines(table: Table, width: int) -> list[str]:
    """A table as fixed-width text, one line a row: when it is wider than `width`, its widest
    columns are trimmed (a cut cell ends in "...") until it fits."""
    rows = table.rows or [("none",) + ("",) * (len(table.columns) - 1)]
    widths = column_widths(table)
    while table_width(widths) > width and max(widths) > NARROWEST:
        widest = widths.index(max(widths))
        widths[widest] -= min(table_width(widths) - width, widths[widest] - NARROWEST) or 1

    def cell(text: str, room: int) -> str:
        return text.ljust(room) if len(text) <= room else text[:room - 3] + "..."

    line = lambda cells: GAP.join(cell(str(text), room) for text, room in zip(cells, widths)).rstrip()
    return [f"{table.title} ({len(table.rows)})", line(table.columns), line("-" * w for w in widths),
            *(line(row) for row in rows), ""]


def spins_table(entries) -> Table:
    standing: dict[int, ev.ResultCorrected] = {}
    for entry in entries:
        if isinstance(entry.event, ev.ResultCorrected):
            standing[entry.event.spin] = entry.event
    rows = []
    for entry in entries:
        event = entry.event
        if isinstance(event, ev.ResultRecorded):
            corrected = standing.get(event.spin)
            number = corrected.number if corrected else event.number
            rows.append((str(event.spin), event.time.astimezone().strftime("%H:%M:%S"), str(number), colour(number),
                         event.source.value + (f" (corrected from {event.number})" if corrected else ""),
                         event.croupier, event.direction.value, event.ball))
    return Table("Counted spins", ("spin", "time", "number", "colour", "source", "croupier", "direction", "ball"), rows)


def shift_report_lines(journal: Journal, shift: Shift, printed: datetime) -> list[str]:
    entries = load_entries(journal, shift)
    seq, digest = journal.head
    kinds = [entry.event.kind for entry in entries]
    lines = [
        "CROUPIER SHIFT REPORT",
        "",
        f"Journal:       {journal.path.name}",
        f"Journal head:  event {seq}",
        f"Head hash:     {digest}",
        f"Shift:         {shift.label}, events {shift.first_seq}-{shift.last_seq}",
        f"Printed:       {printed.astimezone():%Y-%m-%d %H:%M %Z}",
        "",
        f"Counted spins {kinds.count('result-recorded')}, voids {kinds.count('spin-voided')}, "
        f"corrections {kinds.count('result-corrected')}, alarms {kinds.count('alarm-raised')}, "
        f"ball swaps {kinds.count('ball-swapped')}, reliefs {kinds.count('staff-relieved')}",
        "",
    ]
    # Tables that fit a portrait line stay in the report's order; the wider ones follow on landscape
    # pages, so that every row is one line on paper.
    tables = [spins_table(entries), *procedure_tables(entries), ledger_table(colour_ledger(entries)),
              croupier_table(croupier_figures(entries))]
    wide = [table for table in tables if table_width(column_widths(table)) > columns()]
    for table in tables:
        if table not in wide:
            lines += table_lines(table, columns())
    if wide:
        lines.append(LANDSCAPE_PAGE)
        for table in wide:
            lines += table_lines(table, columns(landscape=True))
    lines += [NEW_PAGE, "WHEEL-INTEGRITY STATISTICS", ""]
    lines += statistics_text(entries_spins(entries), numbering_of(shift.profile), shift.label,
                             ascii=True).splitlines()
    lines += ["", f"Head hash: {digest}"]
    return lines


def write_shift_report(journal: Journal, shift: Shift, out: BinaryIO, printed: datetime) -> int:
    """The shift report as PDF; returns the number of pages."""
    return write_pdf(shift_report_lines(journal, shift, printed), out, f"Shift report - {shift.label}")
