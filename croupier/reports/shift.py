"""The shift report: one typed model (`croupier.reports.model`) of what the journal's projections
(`croupier.history`) compute, for `croupier report` (text, `--json`, CSV), the PDF and the review.

It reads only the events its projections fold (`REPORT_EVENTS`, `Journal.events`), in one pass
that feeds every projection. Money is written as decimal strings, chips as numbers (halves are
exact), times as recorded (ISO 8601, UTC). `build_report` is the one place the
report is put together: a new section is one more field of ShiftReport.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from decimal import Decimal
from typing import Any, TextIO

from croupier.history.croupiers import Croupiers
from croupier.history.ledger import Ledger, by_currency, ledger_totals
from croupier.history.payouts import Overpayments
from croupier.history.procedures import Procedures
from croupier.history.projection import Projection, events_of
from croupier.history.shift_results import ShiftResults, foreign_chips_paid
from croupier.history.spins import SpinList
from croupier.reports.model import Head, MoneyTotals, ShiftReport, Totals
from croupier.rules.profiles import numbering_of
from croupier.stats import summary
from croupier.table.events import Event


class ReportFold:
    """Every projection the report presents, folded over the REPORT_EVENTS in journal order. Plain
    data all through: a fold can be saved at an event and taken up again from it
    (`croupier.journal.report_cache`)."""

    def __init__(self) -> None:
        self.spins = SpinList()
        self.procedures, self.ledger, self.croupiers = Procedures(), Ledger(), Croupiers()
        self.overpayments, self.shifts = Overpayments(), ShiftResults()

    def projections(self) -> tuple[Projection, ...]:
        return self.spins, self.procedures, self.ledger, self.croupiers, self.overpayments, self.shifts

    def add_all(self, events: Iterable[tuple[int, Event]]) -> None:
        routes: dict[type[Event], list] = {}  # each event class to the handlers that read it
        for projection in self.projections():
            for event_class in projection.EVENTS:
                routes.setdefault(event_class, []).append(projection.handler(event_class))
        # A croupier's stint still running is counted up to the last event the report reads, of
        # whatever kind: a shift's paper and the whole journal's report count the same time.
        for handlers in routes.values():
            if self.croupiers.add not in handlers:
                handlers.append(self.croupiers.add)
        for seq, event in events:
            for add in routes.get(type(event), ()):
                add(seq, event)


REPORT_EVENTS = events_of(SpinList, Procedures, Ledger, Croupiers, Overpayments, ShiftResults)


def build_report(events: Iterable[tuple[int, Event]], head: tuple[int, str], currency: str | None = None,
                 fold: ReportFold | None = None, watched: Callable[[bytes], tuple | None] | None = None,
                 **scope: Any) -> ShiftReport:
    """The report of the journal whose REPORT_EVENTS are given, in order (after those already in
    `fold`, when given). `currency`: the journal's, else the configuration's, None when unknown.
    `watched`: given the spins' numbers, the watch's charts after the first of them to go on from
    (a checkpoint's), or None. `scope`: what the report covers (`range`, `checked_before`,
    `checkpoint`, as ShiftReport names them)."""
    fold = fold or ReportFold()
    fold.add_all(events)
    spins, procedures, ledger = fold.spins, fold.procedures, fold.ledger
    # Each figure in the currency it was taken in: the journal's (the configuration's `currency`
    # where the journal recorded none).
    statements = tuple(s if s.currency else replace(s, currency=currency) for s in ledger.statements)
    results = tuple(s if s.currency else replace(s, currency=currency) for s in fold.shifts.result())
    found = tuple(o if o.currency else replace(o, currency=currency) for o in fold.overpayments.found())
    figures = tuple(fold.croupiers.result())
    for figure in figures:
        if None in figure.paid_in and currency:
            figure.paid_in = {currency if c is None else c: paid for c, paid in figure.paid_in.items()}
            figure.money_in = {currency if c is None else c: paid for c, paid in figure.money_in.items()}
    foreign, _paid = foreign_chips_paid(results)  # FR: another table's colour chips settled here
    money = per_currency(statements, results, found, currency)
    one = money[0] if len(money) == 1 else None  # a report in one currency: its totals are the report's
    alarms = procedures.alarms
    columns = spins.columns()
    repeats = procedures.direction_repeats
    return ShiftReport(
        head=Head(*head), table_id=procedures.table_id,
        currency=one.currency if one else currency if not money else None, table=tuple(procedures.tables),
        limits=tuple(procedures.limits), spins=spins, voids=tuple(procedures.voids),
        corrections=tuple(procedures.corrections), overpayments=found, ball_swaps=tuple(procedures.swaps),
        ball_replacements=tuple(procedures.replacements), reliefs=tuple(procedures.reliefs),
        breaches=tuple(procedures.breaches), direction_repeats=tuple(repeats), alarms=tuple(alarms),
        colour_ledger=statements, late_chips=tuple(procedures.late_chips), croupiers=figures,
        shift_results=results, foreign_chips=tuple(foreign), winning_bets_rebuilt=tuple(procedures.rebuilt),
        # The same wheel-integrity summary the review app shows, over every counted spin.
        statistics=summary(columns, numbering_of(procedures.profile),
                           watched=watched(columns.numbers) if watched else None),
        totals=Totals(
            spins=len(spins), voids=len(procedures.voids), corrections=len(procedures.corrections),
            direction_repeats=len(repeats), ball_swaps=len(procedures.swaps), reliefs=len(procedures.reliefs),
            overdue_reliefs=sum(1 for r in procedures.reliefs if r.overdue), breaches=len(procedures.breaches),
            alarms_open=sum(1 for a in alarms if a.cleared_by is None),
            bought_money=one.bought_money if one else None, cashed_out_money=one.cashed_out_money if one else None,
            late_chips_money=one.late_chips_money if one else None, players_result_money=one.players_result_money if one else None,
            foreign_chips_money=one.foreign_chips_money if one else None, table_result_money=one.table_result_money if one else None,
            colours_in_play=sum(m.colours_in_play for m in money) + sum(1 for s in statements if s.currency_changed
                                                                        and s.cashed_out is None),
            overpaid_money=one.overpaid_money if one else None, owed_money=one.owed_money if one else None),
        raised=dict(procedures.raised), money=money, **scope)


def per_currency(statements, results, found, currency: str | None) -> tuple[MoneyTotals, ...]:
    """The table's money per currency, never one sum across them. A colour in play across a change
    of currency (a journal from before that was refused) is counted in none: the report names it."""
    parted, _mixed = by_currency(statements)
    currencies = list(dict.fromkeys([s.currency for s in results] + list(parted) + [o.currency for o in found])) or [currency]
    totals = []
    for code in currencies:
        money = ledger_totals(parted.get(code, ()))
        foreign = sum((s.foreign_money for s in results if s.currency == code), Decimal(0))
        recovered = [o.money for o in found if o.currency == code and o.money is not None]
        if not (parted.get(code) or foreign or recovered or any(s.currency == code and s.colours for s in results)):
            if len(currencies) > 1:
                continue  # a currency nothing was taken in (the one before an early change) has no totals
        totals.append(MoneyTotals(
            currency=code, bought_money=money["bought"], cashed_out_money=money["cashed_out"],
            late_chips_money=money["late"], players_result_money=money["players_result"],
            foreign_chips_money=foreign, table_result_money=-money["players_result"] - foreign,
            colours_in_play=money["in_play"], overpaid_money=sum((m for m in recovered if m > 0), Decimal(0)),
            owed_money=-sum((m for m in recovered if m < 0), Decimal(0))))
    return tuple(totals)


def write_json(report: ShiftReport, out: TextIO, chunk: int = 10_000) -> None:
    """The report as one JSON object, the spins encoded a chunk at a time so the whole text of a
    year of spins is never in memory at once."""
    rest = json.dumps(report.entry(), ensure_ascii=False, separators=(",", ":"))
    out.write(rest[:-1] + ',"spins":[')
    for at, text in enumerate(report.spins.json_chunks(chunk)):
        out.write(("," if at else "") + text)
    out.write("]}\n")
