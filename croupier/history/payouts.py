"""Payouts recorded on a number that a correction later replaced: what was paid on positions that
do not win on the number that stands is an overpayment, the amount to recover from the player.

A position that wins on both numbers (a split 16/17 when 17 is corrected to 16) is not overpaid.
A bet name the layout does not know is left out and named, never guessed.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from croupier.history.words import bet_words, chips_words, colour_words
from croupier.i18n import _, formats

from croupier.history.money import chips_money, owner_values
from croupier.rules.layout import parse_position


@dataclass(frozen=True)
class Overpayment:
    spin: int
    colour: str
    paid_on: int  # the number the payouts were counted for
    number: int  # the number that stands
    chips: Fraction  # paid on positions that lose on `number`
    money: Decimal | None  # at the colour's chip value, when known
    positions: tuple[str, ...]  # the positions overpaid

    def words(self, currency: str = "") -> str:
        money = f" = {formats.money(self.money, currency or None)}" if self.money is not None else ""
        chips = chips_words(self.chips) + money
        return _("spin {spin}: {colour} was paid {chips} on {positions} for {paid_on}; the result is {number}: "
                 "{chips} to recover").format(spin=self.spin, colour=colour_words(self.colour), chips=chips,
                                              positions=", ".join(map(bet_words, self.positions)), paid_on=self.paid_on,
                                              number=self.number)


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


class Overpayments:
    """Folds payouts-recorded, result-corrected and colour-assigned records; `found()` lists the
    overpayments against the numbers that stand at the end."""

    KINDS = ("colour-assigned", "payouts-recorded", "result-corrected")

    def __init__(self) -> None:
        self._values: dict[str, Decimal] = owner_values()
        self._paid: list[tuple[int, int, str, tuple[tuple[str, int], ...], Decimal | None]] = []
        self._standing: dict[int, int] = {}

    def add(self, seq: int, record: Mapping) -> None:
        kind = record["kind"]
        if kind == "colour-assigned":
            self._values[record["colour"]] = Decimal(record["chip_value"])
        elif kind == "payouts-recorded":
            for colour, stakes in record["stakes"].items():
                self._paid.append((record["spin"], record["number"], colour,
                                   tuple((s["bet"], s["chips"]) for s in stakes), self._values.get(colour)))
        elif kind == "result-corrected":
            self._standing[record["spin"]] = record["number"]

    def found(self) -> list[Overpayment]:
        out = []
        for spin, paid_on, colour, stakes, value in self._paid:
            number = self._standing.get(spin, paid_on)
            count, positions = overpaid(stakes, paid_on, number)
            if count:
                out.append(Overpayment(spin, colour, paid_on, number, count,
                                       None if value is None else chips_money(count, value), positions))
        return out
