"""The shift report on paper: what happened in one shift, headed by the journal's head hash so the
paper can later be matched to the journal (`croupier verify` prints the same head)."""
from __future__ import annotations

from datetime import datetime
from typing import BinaryIO

from croupier.export.pdf import LANDSCAPE_PAGE, NEW_PAGE, columns, write_pdf
from croupier.history.clock import clock
from croupier.history.croupiers import croupier_figures, croupier_table
from croupier.history.ledger import colour_ledger, ledger_table
from croupier.history.procedures import Table, procedure_tables
from croupier.history.records import records_of
from croupier.history.spins import standing_results
from croupier.history.statistics import entries_spins, statistics_text
from croupier.rules.profiles import numbering_of
from croupier.rules.wheel import colour


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


def spins_table(records: list[tuple[int, dict]]) -> Table:
    rows = []
    for _seq, record, corrected in standing_results(
            ((seq, r) for seq, r in records if r["kind"] == "result-recorded"),
            ((seq, r) for seq, r in records if r["kind"] == "result-corrected")):
        number = corrected["number"] if corrected else record["number"]
        rows.append((str(record["spin"]), clock(datetime.fromisoformat(record["time"])), str(number), colour(number),
                     record["source"] + (f" (corrected from {record['number']})" if corrected else ""),
                     record["croupier"], record["direction"] or "not reported", record["ball"]))
    return Table("Counted spins", ("spin", "time", "number", "colour", "source", "croupier", "direction", "ball"), rows)


def shift_report_lines(entries, shift, head: tuple[int, str], journal_name: str, printed: datetime) -> list[str]:
    """The report of one shift (`entries`: its decoded events; `shift`: its number, label, events
    and profile), headed by the journal's head."""
    records = list(records_of(entries))
    seq, digest = head
    kinds = [record["kind"] for _, record in records]
    lines = [
        "CROUPIER SHIFT REPORT",
        "",
        f"Journal:       {journal_name}",
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
    tables = [spins_table(records), *procedure_tables(records, clock), ledger_table(colour_ledger(records), clock),
              croupier_table(croupier_figures(records))]
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


def write_shift_report(entries, shift, head: tuple[int, str], journal_name: str, out: BinaryIO,
                       printed: datetime) -> int:
    """The shift report as PDF; returns the number of pages."""
    return write_pdf(shift_report_lines(entries, shift, head, journal_name, printed), out,
                     f"Shift report - {shift.label}")
