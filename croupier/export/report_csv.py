"""The report's figures as CSV, rendered from the one report model (`croupier.reports`): one row per
figure, in machine form (ISO times, plain decimal numbers with '.'), never chips of different
values added together: a croupier's payouts are one row per chip value, then their money.

Columns: section (shift, colour-ledger, croupier, totals), shift (the opening's ISO time, empty
outside a shift), name (a colour, a croupier, or "table"), figure, chip_value, chips, amount,
currency. As the other CSV exports (`csv_files`): the header row is in the table's language, the
column names above with `machine=True`; the values are always in machine form."""
from __future__ import annotations

import csv
from decimal import Decimal
from fractions import Fraction
from typing import TextIO

from croupier.history.croupiers import UNKNOWN_VALUE
from croupier.export.csv_files import header
from croupier.history.money import chips_money, json_number
from croupier.i18n import N_, Presentation, current, showing
from croupier.reports.model import ShiftReport

COLUMNS = (N_("section"), N_("shift"), N_("name"), N_("figure"), N_("chip_value"), N_("chips"), N_("amount"),
           N_("currency"))


def _chips(count: Fraction | int | None) -> str:
    return "" if count is None else str(json_number(count))


def _money(amount: Decimal | None) -> str:
    return "" if amount is None else format(amount, "f")


def write_report_csv(report: ShiftReport, out: TextIO, machine: bool = False,
                     presentation: Presentation | None = None) -> int:
    """Write the report's money figures, the header in `presentation`'s language (the one shown
    without) or the column names (`machine`); returns the rows."""
    with showing(presentation or current()):
        titles = header(COLUMNS, machine)
    writer = csv.writer(out)
    writer.writerow(titles)
    rows = 0

    def row(section: str, shift: str | None, name: str, figure: str, chip_value: Decimal | None,
            chips: Fraction | int | None, amount: Decimal | None, currency: str | None) -> None:
        """One figure, in its own currency (its shift's, its colour's): never summed with another's."""
        nonlocal rows
        writer.writerow((section, shift or "", name, figure, _money(chip_value), _chips(chips), _money(amount),
                         currency or ""))
        rows += 1

    for shift in report.shift_results:
        for c in shift.colours:
            for figure, chips, amount in (("sold", c.sold, c.sold_money), ("cashed_out", c.cashed_out, c.cashed_out_money),
                                          ("late_chips", c.late, c.late_money), ("paid", c.paid, c.paid_money)):
                row("shift", shift.opened, c.colour, figure, c.chip_value, chips, amount, shift.currency)
        for figure, amount in (("sold", shift.sold_money), ("cashed_out", shift.cashed_out_money),
                               ("late_chips", shift.late_money), ("paid", shift.paid_money),
                               ("foreign_chips", shift.foreign_money),
                               ("provisional_result" if shift.provisional else "result", shift.table_result_money)):
            row("shift", shift.opened, "table", figure, None, None, amount, shift.currency)
        if shift.mixed:  # a currency changed with money moved: the shift is split there, each part its currency
            change = shift.changed_to or shift.changed_from
            row("shift", shift.opened, "table", "currency_changed_to" if shift.changed_to else "currency_changed_from",
                None, None, None, change[1] if change else None)
    for s in report.colour_ledger:
        figures: tuple[tuple[str, Fraction | int | None, Decimal | None], ...] = (
                ("bought", s.bought, s.bought_money), ("staked", s.staked, chips_money(s.staked, s.chip_value)),
                ("paid", s.paid, chips_money(s.paid, s.chip_value)),
                ("collected", s.collected, chips_money(s.collected, s.chip_value)),
                ("returned", s.returned, chips_money(s.returned, s.chip_value)),
                ("cashed_out", s.cashed_out["chips"] if s.cashed_out else None, s.cashed_out_money),
                ("late_chips", sum(late["chips"] for late in s.late_chips), s.late_money),
                ("result", None, s.result))
        for figure, count, money in figures:
            row("colour-ledger", None, s.colour, figure, s.chip_value, count, money, s.currency)
        if s.currency_changed:  # in play across a change of currency: in neither currency's totals
            row("colour-ledger", None, s.colour, "currency_changed_in_play", None, None, None, s.currency_changed)
    for person in report.croupiers:
        for currency, paid in (person.paid_in or {report.currency: {}}).items():
            for value, chips in paid.items():  # one row per currency and chip value
                known = None if value == UNKNOWN_VALUE else Decimal(value)
                row("croupier", None, person.name, "paid", known, chips,
                    None if known is None else chips_money(chips, known), currency)
            row("croupier", None, person.name, "paid_money", None, None, person.money_in.get(currency, Decimal(0)),
                currency)
    for totals in report.money:  # per currency, never one sum across them
        for figure, amount in (("bought", totals.bought_money), ("cashed_out", totals.cashed_out_money),
                               ("late_chips", totals.late_chips_money), ("foreign_chips", totals.foreign_chips_money),
                               ("table_result", totals.table_result_money), ("to_recover", totals.overpaid_money),
                               ("owed_to_players", totals.owed_money)):
            row("totals", None, "table", figure, None, None, amount, totals.currency)
    return rows
