"""What to recover after a paid spin's result was corrected, per colour: the figure the correction
recorded (`croupier.table.recovery`: payouts handed on the number replaced and stakes kept on bets
the corrected number makes losers, less what it now owes), with the positions concerned named.

A correction recorded before it carried that figure is counted as it was then: the payouts on
positions the standing number does not win, their stakes added (the players kept them).
A bet name the layout does not know is left out and named, never guessed.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction

from croupier.history.words import bet_words, chips_words, colour_words, plural_of
from croupier.i18n import _, formats, ngettext

from croupier.history.money import chips_money, owner_values
from croupier.history.projection import Projection, reads
from croupier.rules.layout import parse_position
from croupier.rules.record import Record
from croupier.table.events import ColourAssigned, ContextChanged, PayoutsRecorded, ResultCorrected, TableOpened


def amount_words(won: Fraction, kept: Fraction, money: Decimal | None, currency: str = "") -> str:
    """What a correction leaves to recover, as the table screen and every paper write it:
    "36 chips = 180.00 EUR to recover (35 paid, 1 stake kept)", or what the player is owed."""
    chips = won + kept
    amount = chips_words(abs(chips)) + (f" = {formats.money(abs(money), currency or None)}" if money is not None else "")
    if chips < 0:
        return _("{amount} owed to the player").format(amount=amount)
    return ngettext("{amount} to recover ({won} paid, {kept} stake kept)",
                    "{amount} to recover ({won} paid, {kept} stakes kept)", plural_of(kept)
                    ).format(amount=amount, won=formats.chips(won), kept=formats.chips(kept))


class Overpayment(Record, kw_only=False):
    """A payout made on a number later corrected: what was paid on it."""
    spin: int
    colour: str
    paid_on: int  # the number the payouts were counted for
    number: int  # the number that stands
    won: Fraction  # payouts handed that `number` does not pay
    kept: Fraction  # stakes left with the player that `number` takes
    money: Decimal | None  # the whole at the colour's chip value, when known
    positions: tuple[str, ...]  # the positions counted at the payouts that `number` does not win
    currency: str | None = None  # the one the colour was given in (None: the journal records none)

    @classmethod
    def from_entry(cls, entry: Mapping) -> Overpayment:
        """One of the shift report's `overpayments` entries, read back."""
        return cls(entry["spin"], entry["colour"], entry["paid_on"], entry["number"], Fraction(entry["won"]),
                   Fraction(entry["kept"]), None if entry["money"] is None else Decimal(entry["money"]),
                   tuple(entry["positions"]), entry.get("currency"))

    @property
    def chips(self) -> Fraction:
        """What to recover (negative: what the colour is owed)."""
        return self.won + self.kept

    def amount_words(self, currency: str = "") -> str:
        """`currency`: the reader's, for an overpayment whose own the journal does not record."""
        return amount_words(self.won, self.kept, self.money, self.currency or currency)

    def words(self, currency: str = "") -> str:
        positions = ", ".join(map(bet_words, self.positions)) or "-"
        return _("spin {spin}: {colour} paid on {positions} for {paid_on}; the result is {number}: {amount}").format(
            spin=self.spin, colour=colour_words(self.colour), positions=positions, paid_on=self.paid_on,
            number=self.number, amount=self.amount_words(currency))


def overpaid(stakes: Iterable[tuple[str, int]], paid_on: int, number: int) -> tuple[Fraction, tuple[str, ...]]:
    """Chips paid on `stakes` (bet name, chips) counted for `paid_on` that `number` does not win,
    and the positions concerned."""
    total, positions = Fraction(0), []
    if paid_on == number:
        return total, ()
    for bet, count in stakes:
        try:
            position = parse_position(bet)
        except ValueError:
            continue
        if paid_on in position.numbers and number not in position.numbers:
            total += count * position.pays
            positions.append(bet)
    return total, tuple(positions)


class Overpayments(Projection):
    """Folds the payouts, corrections and colour assignments; `found()` lists per corrected spin and
    colour what to recover against the numbers that stand at the end."""

    def __init__(self, chip_values: dict[str, Decimal] | None = None) -> None:
        self._values: dict[str, Decimal] = {**owner_values(), **(chip_values or {})}
        self._paid: list[tuple[int, int, str, tuple[tuple[str, int], ...], Decimal | None]] = []
        self._standing: dict[int, int] = {}
        self._first: dict[int, int] = {}  # spin -> the number its first correction replaced
        # (spin, colour) -> payouts, stakes kept and money the corrections recorded to recover
        self._recover: dict[tuple[int, str], list] = {}
        self._counted: set[int] = set()  # spins whose corrections recorded the figure
        self._currency: str | None = None  # in force (the opening's, then the pit boss's changes)
        self._currencies: dict[str, str | None] = {}  # each colour: the currency it was given in

    @reads(TableOpened)
    def _opened(self, seq: int, e: TableOpened) -> None:
        self._currency = e.currency or None

    @reads(ContextChanged)
    def _context(self, seq: int, e: ContextChanged) -> None:
        self._currency = e.currency or self._currency

    @reads(ColourAssigned)
    def _assigned(self, seq: int, e: ColourAssigned) -> None:
        self._values[e.colour] = e.chip_value
        self._currencies[e.colour] = self._currency

    def _currency_of(self, colour: str) -> str | None:
        return self._currencies.get(colour, self._currency)

    @reads(PayoutsRecorded)
    def _payouts(self, seq: int, e: PayoutsRecorded) -> None:
        for colour, stakes in e.stakes.items():
            self._paid.append((e.spin, e.number, colour, tuple((s.bet, s.chips) for s in stakes),
                               self._values.get(colour)))

    @reads(ResultCorrected)
    def _corrected(self, seq: int, e: ResultCorrected) -> None:
        spin = e.spin
        self._standing[spin] = e.number
        self._first.setdefault(spin, e.previous)
        if e.recover:
            self._counted.add(spin)
        for item in e.recover:
            figure = self._recover.setdefault((spin, item.colour), [Fraction(0), Fraction(0), Decimal(0)])
            figure[0] += item.won
            figure[1] += item.kept
            figure[2] = (None if item.chip_value is None or figure[2] is None
                         else figure[2] + chips_money(item.won + item.kept, item.chip_value))

    def found(self) -> list[Overpayment]:
        positions: dict[tuple[int, str], tuple[str, ...]] = {}
        legacy: list[Overpayment] = []
        for spin, paid_on, colour, stakes, value in self._paid:
            number = self._standing.get(spin, paid_on)
            count, named = overpaid(stakes, paid_on, number)
            positions[spin, colour] = positions.get((spin, colour), ()) + named
            if count and spin not in self._counted:
                kept = Fraction(sum(chips for bet, chips in stakes if bet in named))
                legacy.append(Overpayment(spin, colour, paid_on, number, count, kept,
                                          None if value is None else chips_money(count + kept, value), named,
                                          self._currency_of(colour)))
        found = [Overpayment(spin, colour, self._first[spin], self._standing[spin], won, kept, money,
                             positions.get((spin, colour), ()), self._currency_of(colour))
                 for (spin, colour), (won, kept, money) in self._recover.items() if won or kept]
        return sorted(found + legacy, key=lambda o: o.spin)
