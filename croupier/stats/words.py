"""Numbers in the plain-words texts, with the noun agreeing: "1 spin", "2,400 spins"."""
from __future__ import annotations


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """`number` with thousands separators and `singular`, or `plural` (default: singular + "s")
    for any number but one."""
    noun = singular if number == 1 else plural or singular + "s"
    return f"{number:,} {noun}"
