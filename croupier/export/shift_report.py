"""The shift report on paper: what happened in one shift, headed by the journal's head hash so the
paper can later be matched to the journal (`croupier verify` prints the same head)."""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from datetime import datetime
from typing import BinaryIO

from croupier.export.pdf import LANDSCAPE_PAGE, NEW_PAGE, columns, write_pdf
from croupier.history.clock import clock, stamp, zone_label
from croupier.history.croupiers import croupier_figures, croupier_table
from croupier.history.ledger import colour_ledger, ledger_table, ledger_totals
from croupier.history.shift_results import foreign_chips_paid, shift_result_table, shift_results
from croupier.history.payouts import Overpayments
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
    """A table as fixed-width text: when it is wider than `width`, its widest columns are narrowed
    until it fits, and a cell longer than its column wraps onto the lines below, in its column."""
    rows = table.rows or [("none",) + ("",) * (len(table.columns) - 1)]
    widths = column_widths(table)
    while table_width(widths) > width and max(widths) > NARROWEST:
        widest = widths.index(max(widths))
        widths[widest] -= min(table_width(widths) - width, widths[widest] - NARROWEST) or 1

    def lines(cells) -> list[str]:
        pieces = [textwrap.wrap(str(text), room, break_long_words=True) or [""] for text, room in zip(cells, widths)]
        return [GAP.join((piece[at] if at < len(piece) else "").ljust(room) for piece, room in zip(pieces, widths))
                .rstrip() for at in range(max(len(piece) for piece in pieces))]

    out = [f"{table.title} ({len(table.rows)})", *lines(table.columns), *lines("-" * w for w in widths)]
    for row in rows:
        out += lines(row)
    return out + [""]


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


def overpayments_table(records: list[tuple[int, dict]], currency: str | None) -> Table:
    fold = Overpayments()
    for seq, record in records:
        if record["kind"] in Overpayments.KINDS:
            fold.add(seq, record)
    rows = [(str(o.spin), o.colour, str(o.paid_on), str(o.number), ", ".join(o.positions), str(o.chips),
             "" if o.money is None else f"{o.money:.2f}") for o in fold.found()]
    return Table("Overpayments to recover: payouts counted on a number later corrected",
                 ("spin", "colour", "paid on", "result", "positions", "chips", f"money ({currency or 'money'})"), rows)


@dataclass(frozen=True)
class Heading:
    """What the paper names besides the shift: the journal's head and where the table stands."""

    head: tuple[int, str]
    journal_name: str
    currency: str | None = None
    casino: str | None = None


def shift_report_lines(entries, shift, heading: Heading, printed: datetime) -> list[str]:
    """The report of one shift (`entries`: its decoded events; `shift`: its number, label, events
    and profile). Times are in the table's time zone, stated at the top."""
    records = list(records_of(entries))
    seq, digest = heading.head
    kinds = [record["kind"] for _, record in records]
    opened = [record for _, record in records if record["kind"] == "table-opened"]
    table_id = next((r["table_id"] for r in reversed(opened) if r.get("table_id")), None)
    times = [entry.event.time for entry in entries]
    span = f"{stamp(times[0])} to {stamp(times[-1])}" if times else "no events"
    lines = [
        "CROUPIER SHIFT REPORT",
        "",
        f"Casino:        {heading.casino or '_' * 40}",
        f"Table:         {table_id or 'not recorded in the journal (before table ids were recorded)'}"
        f"{f', {shift.profile}' if shift.profile else ''}",
        f"Shift:         {shift.number}, {span}",
        f"Time zone:     every time in this report is in {zone_label(times[0] if times else printed)}",
        f"Currency:      {heading.currency or 'not given: amounts are in the table currency (--config names it)'}",
        f"Journal:       {heading.journal_name}, events {shift.first_seq}-{shift.last_seq} of this shift",
        f"Journal head:  event {seq}",
        f"Head hash:     {digest}",
        f"Printed:       {stamp(printed)}",
        "",
        f"Counted spins {kinds.count('result-recorded')}, voids {kinds.count('spin-voided')}, "
        f"corrections {kinds.count('result-corrected')}, alarms {kinds.count('alarm-raised')}, "
        f"ball swaps {kinds.count('ball-swapped')}, reliefs {kinds.count('staff-relieved')}",
        "",
    ]
    # Tables that fit a portrait line stay in the report's order; the wider ones follow on landscape pages.
    statements = colour_ledger(records)
    tables = [spins_table(records), *procedure_tables(records, clock), ledger_table(statements, clock),
              shift_result_table(results := shift_results(records), clock),
              overpayments_table(records, heading.currency), croupier_table(croupier_figures(records))]
    wide = [table for table in tables if table_width(column_widths(table)) > columns()]
    for table in tables:
        if table not in wide:
            lines += table_lines(table, columns())
    if wide:
        lines.append(LANDSCAPE_PAGE)
        for table in wide:
            lines += table_lines(table, columns(landscape=True))
    money = ledger_totals(statements)
    _settled, foreign = foreign_chips_paid(results)  # FR: another table's colour chips paid here
    lines += [f"Colours: bought {money['bought']:.2f}, cashed out {money['cashed_out']:.2f}, late chips "
              f"{money['late']:.2f}, foreign chips paid {foreign:.2f}; the table's result over the colours cashed "
              f"out {-money['players_result'] - foreign:+.2f} ({money['in_play']} still in play)", ""]
    lines += [NEW_PAGE, "WHEEL-INTEGRITY STATISTICS", ""]
    lines += statistics_text(entries_spins(entries), numbering_of(shift.profile), shift.label,
                             ascii=True).splitlines()
    lines += ["", f"Head hash: {digest}", "", "",
              "Pit boss:  name ______________________  signature ______________________  date ____________", "", "",
              "Inspector: name ______________________  signature ______________________  date ____________"]
    return lines


def write_shift_report(entries, shift, heading: Heading, out: BinaryIO, printed: datetime) -> int:
    """The shift report as PDF; returns the number of pages."""
    return write_pdf(shift_report_lines(entries, shift, heading, printed), out, f"Shift report - {shift.label}")
