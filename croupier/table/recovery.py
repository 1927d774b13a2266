"""What to recover after a paid spin's result is corrected: per colour, what the players were handed
on the number replaced (payouts, and stakes left on winning bets) less what the corrected number
gives them, the bets recorded before the spin and the winners counted at the payouts alike.

A bet that wins on both numbers changes nothing; one that wins only on the number replaced is taken
back whole, its payout and its stake; one recorded before the spin that wins only on the corrected
number is owed (a negative figure). Losing bets counted on no sheet are not known to the table.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction

from croupier.table.events import ColourOutcome, Recovery


def recovery(before: Iterable[ColourOutcome], after: Iterable[ColourOutcome],
             chip_values: Mapping[str, Decimal | None]) -> tuple[Recovery, ...]:
    """Per colour (in the order the colours first appear), what `before` handed that `after` does
    not; colours left even are left out."""
    handed: dict[str, list[Fraction]] = {}
    for sign, outcomes in ((1, before), (-1, after)):
        for outcome in outcomes:
            won, kept = handed.setdefault(outcome.colour, [Fraction(0), Fraction(0)])
            handed[outcome.colour] = [won + sign * outcome.won, kept + sign * outcome.returned]
    return tuple(Recovery(colour=colour, won=won, kept=kept, chip_value=chip_values.get(colour))
                 for colour, (won, kept) in handed.items() if won or kept)


def merged(earlier: Iterable[Recovery], later: Iterable[Recovery]) -> tuple[Recovery, ...]:
    """Two corrections of one spin: each figure counts from the number it replaced, so they add up."""
    out: dict[str, Recovery] = {}
    for item in (*earlier, *later):
        known = out.get(item.colour)
        out[item.colour] = item if known is None else Recovery(
            colour=item.colour, won=known.won + item.won, kept=known.kept + item.kept, chip_value=known.chip_value)
    return tuple(item for item in out.values() if item.won or item.kept)
