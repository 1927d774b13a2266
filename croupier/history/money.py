"""Chips and money as the projections count them: chips are exact fractions (halves happen), money
is a Decimal at a colour's chip value."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

from croupier.rules.names import VALUE_CHIPS


def chips(value: str | int | Fraction) -> Fraction:
    """Chips as recorded ("35", "1/2", 3) as an exact fraction."""
    return Fraction(value)


def chips_money(count: Fraction | int, chip_value: Decimal) -> Decimal:
    """Chips at a chip value, in money."""
    count = Fraction(count)
    return Decimal(count.numerator) * chip_value / count.denominator


def json_number(count: Fraction | int) -> int | float:
    """Chips as a JSON number: whole, or an exact binary fraction (halves)."""
    count = Fraction(count)
    return count.numerator if count.denominator == 1 else count.numerator / count.denominator


def owner_values() -> dict[str, Decimal]:
    """Chip values by owner as the projections start: value chips (PT-A 16, PT-B 15b) are recorded
    as their amount in money, so one counts 1; a colour's value comes with its assignment."""
    return {VALUE_CHIPS: Decimal(1)}


def amounts_words(amounts: Mapping[str | None, Decimal]) -> str:
    """Money in several currencies, each with its own, never added together: "255.00 EUR; 3,000.00
    RUB" (one amount with no currency recorded: the number alone)."""
    from croupier.i18n import formats

    if not amounts:
        return formats.money(Decimal(0))
    return "; ".join(formats.money(amount, currency) for currency, amount in amounts.items())
