"""The table's result per shift: chips sold and cashed out per colour, late chips, chips paid on the
layout (settled with the result and counted at the payouts, as the colour ledger counts them),
foreign colour chips settled (`FR`), and what the table won or lost, from one table-opened to its
table-closed.

The table's result of a shift is the money of the chips it sold minus the money it paid out at
cash-outs, for late chips and for another table's colour chips that won here (`FR`), in that shift.
A colour still in play when the shift ends holds chips the table has sold but not yet taken back:
the figure is then no result (the table won nothing yet), and is shown as counted so far.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from croupier.history.money import chips_money, json_number
from croupier.history.procedures import Table
from croupier.history.projection import Projection, reads
from croupier.history.words import colour_words
from croupier.i18n import _, formats
from croupier.table.codec import to_plain
from croupier.table.events import (ChipsIssued, ColourAssigned, ColourCashedOut, ColourOutcome, ContextChanged,
                                   Event, ForeignChipsSettled, LateChipsExchanged, PayoutsRecorded, ResultCorrected,
                                   ResultRecorded, TableClosed, TableOpened)


@dataclass
class ColourInShift:
    colour: str
    chip_value: Decimal
    sold: int = 0
    cashed_out: int = 0
    cashed_out_money: Decimal = Decimal(0)
    late: int = 0
    late_money: Decimal = Decimal(0)
    paid: Fraction = Fraction(0)  # chips paid on the layout, the stake not included: as the colour ledger counts them

    @property
    def sold_money(self) -> Decimal:
        return chips_money(self.sold, self.chip_value)

    @property
    def paid_money(self) -> Decimal:
        return chips_money(self.paid, self.chip_value)

    def entry(self) -> dict:
        return {"colour": self.colour, "chip_value": str(self.chip_value), "sold": self.sold,
                "sold_money": str(self.sold_money), "cashed_out": self.cashed_out,
                "cashed_out_money": str(self.cashed_out_money), "late_chips": self.late,
                "late_money": str(self.late_money), "paid": json_number(self.paid), "paid_money": str(self.paid_money)}


@dataclass
class Shift:
    opened: str | None  # ISO time of the table-opened; None for events before any opening
    closed: str | None = None
    colours: dict[str, ColourInShift] = field(default_factory=dict)
    in_play_at_end: list[str] = field(default_factory=list)
    foreign: list[dict] = field(default_factory=list)  # FR: another table's colour chips settled here
    currency: str | None = None  # the one its figures are in (None: the journal records none)
    # A journal from before a shift's currency was fixed may change it with money already moved:
    # the shift is split there, each part in its own currency (ISO time of the change, the other currency).
    changed_to: tuple[str, str | None] | None = None  # this part ends at a change of currency
    changed_from: tuple[str, str | None] | None = None  # this part starts at one
    carried: list[str] = field(default_factory=list)  # colours in play across that change: they mix currencies

    @property
    def foreign_money(self) -> Decimal:
        return sum((Decimal(f["amount"]) for f in self.foreign), Decimal(0))

    @property
    def money_moved(self) -> bool:
        return bool(self.colours or self.foreign)

    def snapshot(self, in_play: list[str]) -> ShiftResult:
        """The shift's figures as they stand, on copies: the fold can go on."""
        return ShiftResult(self.opened, self.closed, tuple(replace(c) for c in self.colours.values()),
                           tuple(dict(f) for f in self.foreign), tuple(in_play), self.currency,
                           self.changed_to, self.changed_from, tuple(self.carried))


@dataclass(frozen=True)
class ShiftResult:
    """One shift's figures, as every reader of the report takes them."""

    opened: str | None  # ISO time of the table-opened; None for events before any opening
    closed: str | None
    colours: tuple[ColourInShift, ...]
    foreign: tuple[dict, ...]  # FR: another table's colour chips settled here, as recorded
    in_play_at_end: tuple[str, ...]
    currency: str | None = None  # every amount of the shift is in it
    changed_to: tuple[str, str | None] | None = None  # (ISO time, currency): the currency changed here, money moved
    changed_from: tuple[str, str | None] | None = None  # (ISO time, the currency before): this part follows one
    carried: tuple[str, ...] = ()  # colours in play across that change: their figures mix both currencies

    @property
    def mixed(self) -> bool:
        """Part of a shift whose currency changed with money already moved (a journal from before
        the change was refused): colours in play across the change mix both currencies."""
        return self.changed_to is not None or self.changed_from is not None

    @property
    def sold_money(self) -> Decimal:
        return sum((c.sold_money for c in self.colours), Decimal(0))

    @property
    def cashed_out_money(self) -> Decimal:
        return sum((c.cashed_out_money for c in self.colours), Decimal(0))

    @property
    def late_money(self) -> Decimal:
        return sum((c.late_money for c in self.colours), Decimal(0))

    @property
    def paid_money(self) -> Decimal:
        return sum((c.paid_money for c in self.colours), Decimal(0))

    @property
    def foreign_money(self) -> Decimal:
        return sum((Decimal(f["amount"]) for f in self.foreign), Decimal(0))

    @property
    def table_result_money(self) -> Decimal:
        return self.sold_money - self.cashed_out_money - self.late_money - self.foreign_money

    @property
    def provisional(self) -> bool:
        """Colours still in play at its end (or in play across a change of currency into it): chips
        sold to them are not won, or not in this currency, and the figure is no result."""
        return bool(self.in_play_at_end or self.carried)

    def entry(self) -> dict:
        return {"opened": self.opened, "closed": self.closed, "colours": [c.entry() for c in self.colours],
                "sold_money": str(self.sold_money), "cashed_out_money": str(self.cashed_out_money),
                "late_money": str(self.late_money), "paid_money": str(self.paid_money),
                "foreign_chips": list(self.foreign), "foreign_money": str(self.foreign_money),
                "table_result_money": str(self.table_result_money),
                "colours_in_play_at_end": list(self.in_play_at_end), "provisional": self.provisional,
                "currency": self.currency, "mixed_currencies": self.mixed,
                "colours_across_currency_change": list(self.carried),
                "currency_changed_to": _change(self.changed_to), "currency_changed_from": _change(self.changed_from)}


def _change(change: tuple[str, str | None] | None) -> dict | None:
    return None if change is None else {"time": change[0], "currency": change[1]}


FOREIGN_FIELDS = ("time", "colour", "table", "chips", "chip_value", "table_minimum", "won", "amount", "spin",
                  "by")


class ShiftResults(Projection):
    """Folds the openings, closings and colour money, in journal order."""

    def __init__(self) -> None:
        self.shifts: list[Shift] = []
        self._values: dict[str, Decimal] = {}  # each colour in play: its chip value
        self._open = False
        self._settled: dict[int, tuple[ColourOutcome, ...]] = {}  # spin -> its result's outcomes, for a correction
        self._currency: str | None = None  # in force (the opening's, then the pit boss's changes)

    def _current(self) -> Shift:
        if not self.shifts:
            self.shifts.append(Shift(None, currency=self._currency))
        return self.shifts[-1]

    def _colour(self, colour: str, chip_value: Decimal | None = None) -> ColourInShift:
        shift = self._current()
        if colour not in shift.colours:
            value = chip_value if chip_value is not None else self._values.get(colour, Decimal(0))
            shift.colours[colour] = ColourInShift(colour, value)
        return shift.colours[colour]

    @reads(TableOpened)
    def _opened(self, seq: int, e: TableOpened) -> None:
        if self._open:
            self._end(to_plain(e.time))  # an opening without its closing ends the shift before it
        self._currency = e.currency or None
        self.shifts.append(Shift(to_plain(e.time), currency=self._currency))
        self._open = True

    @reads(ContextChanged)
    def _context(self, seq: int, e: ContextChanged) -> None:
        if not e.currency or e.currency == self._currency:
            return
        previous, self._currency = self._currency, e.currency
        shift = self._current()
        if not (self._open and shift.money_moved):
            shift.currency = e.currency  # nothing taken yet: the shift's one currency is the new one
            return
        # Money moved in the old currency: the figures up to here stay in it, the rest go to a new
        # part in the new one; colours in play across the change are in play at the split.
        at = to_plain(e.time)
        shift.changed_to = (at, e.currency)
        self._end(at)
        self.shifts.append(Shift(at, currency=e.currency, changed_from=(at, previous), carried=sorted(self._values)))
        self._open = True

    @reads(TableClosed)
    def _closed(self, seq: int, e: TableClosed) -> None:
        self._end(to_plain(e.time))

    @reads(ColourAssigned)
    def _assigned(self, seq: int, e: ColourAssigned) -> None:
        self._values[e.colour] = e.chip_value
        self._colour(e.colour, e.chip_value).sold += e.chips

    @reads(ChipsIssued)
    def _issued(self, seq: int, e: ChipsIssued) -> None:
        if e.colour in self._values:
            self._colour(e.colour).sold += e.chips

    @reads(ColourCashedOut)
    def _cashed_out(self, seq: int, e: ColourCashedOut) -> None:
        if e.colour in self._values:
            row = self._colour(e.colour)
            row.cashed_out += e.chips
            row.cashed_out_money += e.amount
            del self._values[e.colour]

    @reads(LateChipsExchanged)
    def _late(self, seq: int, e: LateChipsExchanged) -> None:
        row = self._colour(e.colour, e.chip_value)
        row.late += e.chips
        row.late_money += e.amount

    @reads(ForeignChipsSettled)
    def _foreign(self, seq: int, e: ForeignChipsSettled) -> None:  # FR: what the table paid for another table's chips
        self._current().foreign.append({name: to_plain(getattr(e, name)) for name in FOREIGN_FIELDS})

    @reads(ResultRecorded)
    def _result(self, seq: int, e: ResultRecorded) -> None:
        if e.outcomes:  # bets recorded before the spin (announced bets among them), settled with the result
            self._settled[e.spin] = e.outcomes
            self._pay(e.outcomes, 1)

    @reads(PayoutsRecorded)
    def _payouts(self, seq: int, e: PayoutsRecorded) -> None:
        self._pay(e.outcomes, 1)

    @reads(ResultCorrected)
    def _corrected(self, seq: int, e: ResultCorrected) -> None:
        # As the colour ledger counts it: the bets recorded before the spin settled again on the
        # corrected number; payouts counted on the wrong number were paid and stay.
        self._pay(self._settled.get(e.spin, ()), -1)
        self._settled[e.spin] = e.outcomes
        self._pay(e.outcomes, 1)

    def _pay(self, outcomes: Iterable[ColourOutcome], sign: int) -> None:
        for outcome in outcomes:
            if outcome.colour in self._values:
                self._colour(outcome.colour).paid += sign * outcome.won

    def _end(self, time: str) -> None:
        shift = self._current()
        shift.closed = time
        shift.in_play_at_end = sorted(self._values)
        self._open = False

    def result(self) -> list[ShiftResult]:
        last = len(self.shifts) - 1  # a shift still open has in play what is in play now
        return [shift.snapshot(sorted(self._values) if at == last and shift.closed is None else shift.in_play_at_end)
                for at, shift in enumerate(self.shifts)]


def shift_results(events: Iterable[tuple[int, Event]]) -> list[ShiftResult]:
    """The table's result of each shift among (seq, event) pairs, in journal order."""
    fold = ShiftResults()
    fold.add_all(events)
    return fold.result()


def foreign_chips_paid(results: Iterable[ShiftResult]) -> tuple[list[dict], Decimal]:
    """`FR`: every settlement of another table's colour chips over the shifts, and what the table paid."""
    found = [f for shift in results for f in shift.foreign]
    return found, sum((Decimal(f["amount"]) for f in found), Decimal(0))


def _counted_in(chips, money, currency: str | None = None) -> str:
    """Chips and what they are worth, as the table's language writes both: 1 250 = 6 250,00."""
    return f"{formats.chips(Fraction(str(chips)))} = {formats.money(money, currency)}"


def shift_result_table(results: Iterable[ShiftResult], clock=lambda moment: moment.strftime("%H:%M"),
                       several: bool = False) -> Table:
    """Per shift, each colour's chips and money, then the table's result (as the review and PDF show
    it). `several`: the shifts are in more than one currency, and each amount names its own."""
    rows = []
    for shift in results:
        code = shift.currency if several else None

        def _counted(chips, money) -> str:
            return _counted_in(chips, money, code)

        def money(amount) -> str:
            return formats.money(amount, code)
        opened = clock(datetime.fromisoformat(shift.opened)) if shift.opened else "-"
        for c in shift.colours:
            rows.append((opened, colour_words(c.colour), _counted(c.sold, c.sold_money),
                         _counted(c.cashed_out, c.cashed_out_money), _counted(c.late, c.late_money),
                         _counted(c.paid, c.paid_money), ""))
        for f in shift.foreign:
            paid_at = (money(f["chip_value"]) if f["chip_value"] else
                       _("{minimum} (their table's minimum)").format(minimum=money(f["table_minimum"] or 0)))
            settled = (_("paid {chips} x {paid_at} = {amount}").format(
                chips=formats.chips(f["chips"]), paid_at=paid_at,
                amount=money(f["amount"])) if f["won"]
                else _("lost: {chips} taken").format(chips=formats.chips(f["chips"])))
            foreign = _("foreign {colour} ({table})").format(colour=colour_words(f["colour"]), table=f["table"])
            rows.append((opened, foreign, "", "", "", "", settled))
        result = shift.table_result_money
        verdict = (_("{amount} counted, not a result: it mixes currencies").format(
            amount=formats.signed_money(result, code)) if shift.carried and not shift.in_play_at_end else
                   _("{amount} counted so far, not a result: colours in play").format(
            amount=formats.signed_money(result, code))
                   if shift.provisional else  # chips sold to a colour still in play are not won
                   (_("won {amount}") if result >= 0 else _("lost {amount}")).format(amount=money(abs(result))))
        foreign = ("; " + _("foreign chips paid {amount}").format(amount=money(shift.foreign_money))
                   if shift.foreign else "")
        split = currency_split_words(shift, clock)
        rows.append((opened, _("table"), money(shift.sold_money), money(shift.cashed_out_money),
                     money(shift.late_money), money(shift.paid_money),
                     verdict + foreign + (f"; {split}" if split else "")))
    return Table(_("The table's result per shift: sold - cashed out - late chips - foreign chips paid (FR)"),
                 (_("opened"), _("colour"), _("sold"), _("cashed out"), _("late chips"), _("payouts recorded"),
                  _("the table")), rows)


def currency_split_words(shift: ShiftResult, clock=lambda moment: moment.strftime("%H:%M")) -> str | None:
    """What every paper says of part of a shift whose currency changed with money already moved (a
    journal from before that was refused): where it was split, and that colours in play across the
    change mix both currencies. None for a shift in one currency."""
    if shift.changed_to is not None:
        at, to = shift.changed_to
        words = _("the currency changed to {to} at {time} with money already taken in {currency}: this shift's "
                  "figures are split there, these up to {time} are in {currency}").format(
            to=to or "-", time=clock(datetime.fromisoformat(at)), currency=shift.currency or "-")
    elif shift.changed_from is not None:
        at, previous = shift.changed_from
        words = _("the same shift after its currency changed from {previous} at {time}: these figures are in "
                  "{currency}").format(previous=previous or "-", time=clock(datetime.fromisoformat(at)),
                                       currency=shift.currency or "-")
    else:
        return None
    across = shift.in_play_at_end if shift.changed_to is not None else shift.carried
    if across:
        words += "; " + _("{colours} in play across the change: their chips were sold in one currency and are "
                          "cashed out in the other, so their figures mix currencies").format(
            colours=", ".join(map(colour_words, across)))
    return _("MIXED CURRENCIES: {words}").format(words=words)
