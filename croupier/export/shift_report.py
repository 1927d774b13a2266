"""The shift report on paper: what happened in one shift, headed by the journal's head hash so the
paper can later be matched to the journal (`croupier verify` prints the same head)."""
from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import BinaryIO

from croupier.export.pdf import LANDSCAPE_PAGE, NEW_PAGE, columns, write_pdf
from croupier.history.clock import clock, stamp, zone_label
from croupier.history.croupiers import croupier_table
from croupier.history.ledger import colour_rule, ledger_table
from croupier.history.shift_results import currency_split_words, shift_result_table
from croupier.history.payouts import Overpayment
from croupier.history.procedures import Table, procedure_tables
from croupier.history.records import numbered
from croupier.history.spins import standing_results
from croupier.history.statistics import entries_spins, statistics_text
from croupier.history.words import bet_words, colour_words, direction_words, pocket_words, source_words
from croupier.i18n import Presentation, _, current, formats, showing
from croupier.reports.shift import build_report
from croupier.rules.profiles import numbering_of
from croupier.rules.wheel import colour
from croupier.table.events import (AlarmRaised, BallLaunched, BallSwapped, Event, ResultCorrected, ResultRecorded,
                                   SpinVoided, StaffRelieved, TableOpened)


GAP = "  "
NARROWEST = 8  # a column trimmed to fit is never cut below this


def column_widths(table: Table) -> list[int]:
    """Each column as wide as its widest cell."""
    rows = table.rows or [(_("none"),) + ("",) * (len(table.columns) - 1)]
    return [max(len(str(cell)) for cell in column) for column in zip(table.columns, *rows)]


def table_width(widths: list[int]) -> int:
    return sum(widths) + len(GAP) * (len(widths) - 1)


def table_lines(table: Table, width: int) -> list[str]:
    """A table as fixed-width text: when it is wider than `width`, its widest columns are narrowed
    until it fits, and a cell longer than its column wraps onto the lines below, in its column."""
    rows = table.rows or [(_("none"),) + ("",) * (len(table.columns) - 1)]
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


def spins_table(events: list[tuple[int, Event]]) -> Table:
    rows = []
    for _seq, result, corrected in standing_results(
            ((seq, e) for seq, e in events if isinstance(e, ResultRecorded)),
            ((seq, e) for seq, e in events if isinstance(e, ResultCorrected))):
        number = corrected.number if corrected else result.number
        rows.append((str(result.spin), clock(result.time), str(number), pocket_words(colour(number)),
                     source_words(result.source.value) + (_(" (corrected from {number})").format(number=result.number)
                                                          if corrected else ""),
                     result.croupier, direction_words(result.direction.value) if result.direction
                     else _("not reported"), result.ball))
    return Table(_("Counted spins"), (_("spin"), _("time"), _("number"), _("colour"), _("source"), _("croupier"),
                                      _("direction"), _("ball")), rows)


def overpayments_table(overpayments: Iterable[Overpayment], currency: str | None) -> Table:
    rows = [(str(o.spin), colour_words(o.colour), str(o.paid_on), str(o.number), ", ".join(map(bet_words, o.positions)),
             o.amount_words(currency or "")) for o in overpayments]
    return Table(_("To recover after corrected results: payouts and stakes kept on a number later corrected"),
                 (_("spin"), _("colour"), _("paid on"), _("result"), _("positions"), _("to recover")), rows)


@dataclass(frozen=True)
class Heading:
    """What the paper names besides the shift: the journal's head and where the table stands."""

    head: tuple[int, str]
    journal_name: str
    currency: str | None = None
    casino: str | None = None
    shifts: str | None = None  # a paper of several shifts: which ("shifts 2-5")
    croupier: str | None = None  # a croupier's own paper: their spins, procedures and figures
    currency_changes: tuple[tuple[datetime, str | None], ...] = ()  # the currencies that took force within


def dealt_by(events: list[tuple[int, Event]], name: str) -> list[tuple[int, Event]]:
    """What a croupier's paper holds: every event of the spins they launched or dealt, and what they
    did or were relieved in."""
    spins = {e.spin for _seq, e in events if isinstance(e, (BallLaunched, ResultRecorded)) and e.croupier == name}
    return [(seq, e) for seq, e in events
            if getattr(e, "spin", None) in spins
            or name in (getattr(e, "by", None), getattr(e, "incoming", None), getattr(e, "outgoing", None))]


def shift_report_lines(entries, shift, heading: Heading, printed: datetime) -> list[str]:
    """The report of one shift (`entries`: its decoded events; `shift`: its number, label, events
    and profile), or of several (`heading.shifts`), or a croupier's part of them (`heading.croupier`:
    their spins and procedures and their line of the croupiers' figures; the colours are the
    table's, not theirs, and are left out). Times are in the table's time zone, stated at the top."""
    everything = list(numbered(entries))
    records = dealt_by(everything, heading.croupier) if heading.croupier else everything
    seq, digest = heading.head
    kinds = Counter(type(event) for _seq, event in records)
    opened = [event for _seq, event in records if isinstance(event, TableOpened)]
    table_id = next((e.table_id for e in reversed(opened) if e.table_id), None)
    times = [entry.event.time for entry in entries]
    # The shift runs from its opening (what came before it, such as staff registration, is not the
    # shift's time) to its closing, or to its last event while it is open.
    first, last = shift.opened or (times[0] if times else None), shift.closed or (times[-1] if times else None)
    span = _("{first} to {last}").format(first=stamp(first), last=stamp(last)) if first and last else _("no events")
    currency = heading.currency or _("money")  # every amount is printed with it
    labels = [_("Casino:"), _("Table:"), _("Shifts:") if heading.shifts else _("Shift:"), _("Time zone:"),
              _("Currency:"), _("Journal:"), _("Journal head:"), _("Head hash:"), _("Printed:")]
    room = max(len(label) for label in labels) + 2  # the values start in one column, in every language
    fields = [
        heading.casino or "_" * 40,
        (table_id or _("not recorded in the journal (before table ids were recorded)"))
        + (f", {shift.profile}" if shift.profile else ""),
        f"{heading.shifts or shift.number}, {span}",
        _("every time in this report is in {zone}").format(zone=zone_label(times[0] if times else printed)),
        "; ".join([heading.currency or _("not given: amounts are in the table currency (--config names it)")]
                  + [_("{currency} from {time}").format(currency=currency or "-", time=stamp(since))
                     for since, currency in heading.currency_changes]),
        _("{journal}, events {first}-{last} of this shift").format(journal=heading.journal_name,
                                                                    first=shift.first_seq, last=shift.last_seq),
        _("event {seq}").format(seq=seq),
        digest,
        stamp(printed),
    ]
    if heading.croupier:
        labels.append(_("Croupier:"))
        fields.append(heading.croupier)
    lines = [
        _("CROUPIER SHIFT REPORT"),
        "",
        *(label.ljust(room) + value for label, value in zip(labels, fields)),
        "",
        _("Counted spins {spins}, voids {voids}, corrections {corrections}, alarms {alarms}, ball swaps {swaps}, "
          "reliefs {reliefs}").format(spins=kinds[ResultRecorded], voids=kinds[SpinVoided],
                                      corrections=kinds[ResultCorrected], alarms=kinds[AlarmRaised],
                                      swaps=kinds[BallSwapped], reliefs=kinds[StaffRelieved]),
        "",
    ]
    # Tables that fit a portrait line stay in the report's order; the wider ones follow on landscape pages.
    # The figures as the report composes them (croupier.reports), once, over the whole of what the
    # paper covers: the paper renders that model, a croupier's paper their part of it.
    report = build_report(everything, heading.head, heading.currency)
    spins = {getattr(e, "spin", None) for _seq, e in records}
    figures = [f for f in report.croupiers if f.name == heading.croupier or not heading.croupier]
    overpayments = [o for o in report.overpayments if not heading.croupier or o.spin in spins]
    rule = colour_rule(records, shift.profile)  # the table's own regulation's, none where it states none
    several = len(report.money) > 1  # each amount names its own currency; totals per currency
    colours = [] if heading.croupier else [ledger_table(report.colour_ledger, clock, rule, several),
                                           shift_result_table(report.shift_results, clock, several)]
    tables = [spins_table(records), *procedure_tables(records, clock), *colours,
              overpayments_table(overpayments, heading.currency), croupier_table(figures)]
    wide = [table for table in tables if table_width(column_widths(table)) > columns()]
    if several:
        lines += [_("Amounts in {currencies}: each with its own shift's currency; totals per currency, never added "
                    "together").format(currencies=", ".join(code or _("money") for code in report.currencies)), ""]
    for mixed in report.mixed_shifts:
        if mixed.changed_to is not None:
            lines += [currency_split_words(mixed, stamp) or "", ""]
    for table in tables:
        if table not in wide:
            lines += table_lines(table, columns())
    if wide:
        lines.append(LANDSCAPE_PAGE)
        for table in wide:
            lines += table_lines(table, columns(landscape=True))
    for totals in [] if heading.croupier else report.money:
        unit = totals.currency or currency
        lines += [(_("Totals in {currency}:").format(currency=unit) + " " if several else "")
                  + _("Colours: bought {bought} {currency}, cashed out {cashed_out} {currency}, late chips {late} "
                "{currency}, foreign chips paid {foreign} {currency}; the table's result over the colours cashed out "
                "{result} {currency} ({in_play} still in play)").format(
            bought=formats.money(totals.bought_money), cashed_out=formats.money(totals.cashed_out_money),
            late=formats.money(totals.late_chips_money), foreign=formats.money(totals.foreign_chips_money),
            result=formats.signed_money(totals.table_result_money), in_play=totals.colours_in_play,
            currency=unit), ""]
    lines += [NEW_PAGE, _("WHEEL-INTEGRITY STATISTICS"), ""]
    lines += statistics_text(entries_spins(e for e in entries if not heading.croupier
                                           or getattr(e.event, "spin", None) in spins), numbering_of(shift.profile), shift.label, ascii=True).splitlines()
    signatories = [_("Pit boss:"), _("Inspector:")]
    room = max(len(who) for who in signatories) + 1
    blanks = _("name {line}  signature {line}  date {date}").format(line="_" * 22, date="_" * 12)
    lines += ["", f"{_('Head hash:')} {digest}", "", "",
              signatories[0].ljust(room) + blanks, "", "",
              signatories[1].ljust(room) + blanks]
    return lines


def write_shift_report(entries, shift, heading: Heading, out: BinaryIO, printed: datetime,
                       presentation: Presentation | None = None) -> int:
    """The shift report as PDF, in `presentation`'s language and time zones (the one shown without);
    returns the number of pages."""
    with showing(presentation or current()):
        return write_pdf(shift_report_lines(entries, shift, heading, printed), out,
                         _("Shift report - {shift}").format(shift=shift.label))
