"""Numbers in the plain-words texts, with the noun agreeing: "1 spin", "2,400 spins", in the
language installed (croupier.i18n)."""
from __future__ import annotations

from croupier.i18n import formats


def grouped(number: int) -> str:
    """`number` with the thousands grouped as the table's language writes them (2,400; 2 400; 2.400)."""
    return formats.number(number)


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """`number` with thousands separators and `singular`, or `plural` (default: singular + "s")
    for any number but one. The nouns are English: a text in the table's language words its count
    with ngettext and `grouped`."""
    noun = singular if number == 1 else plural or singular + "s"
    return f"{number:,} {noun}"
