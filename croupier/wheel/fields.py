"""Strict parsing of the fields the wheel protocols share. Every function raises FieldError, whose
message names the field and the bad text, or returns a checked value."""
from __future__ import annotations

from typing import overload

from croupier.rules.spin import Direction

POCKETS = range(0, 37)  # a single-zero wheel (PT-A 2); the double zero "00" is refused


class FieldError(ValueError):
    pass


@overload
def pocket(text: str, field: str, *, empty: None, zero_padded: bool = False) -> int: ...
@overload
def pocket(text: str, field: str, *, empty: str = "  ", zero_padded: bool = False) -> int | None: ...


def pocket(text: str, field: str, *, empty: str | None = "  ", zero_padded: bool = False) -> int | None:
    """A two-character pocket number: "32", " 5", " 0". `empty` is the text meaning "no number yet"
    (two spaces in the status lines). `zero_padded` also accepts "05" (the M360 guide only says
    "ASCII characters 0-9"); "00" is always the double-zero pocket and refused."""
    if empty is not None and text == empty:
        return None
    if len(text) != 2:
        raise FieldError(f"{field} must be two characters, got {text!r}")
    if text == "00":
        raise FieldError(f"{field} is 00, the double-zero pocket: this table has a single zero")
    if text[0] == " " and text[1].isdigit() and text[1].isascii():
        return int(text[1])
    if text.isascii() and text.isdigit() and (text[0] != "0" or zero_padded):
        value = int(text)
        if value in POCKETS:
            return value
        raise FieldError(f"{field} {text!r} is not a pocket (0-36)")
    raise FieldError(f"{field} {text!r} is not a pocket number (two characters, a space before 0-9)")


def decimal(text: str, field: str, width: int, allowed: range) -> int:
    if len(text) != width or not (text.isascii() and text.isdigit()):
        raise FieldError(f"{field} must be {width} decimal digits, got {text!r}")
    value = int(text)
    if value not in allowed:
        raise FieldError(f"{field} {value} is outside {allowed.start}-{allowed.stop - 1}")
    return value


def hexadecimal(text: str, field: str, width: int, maximum: int | None = None) -> int:
    # The guides print hex digits in capitals ("8+2 = A", "Value 4 or C").
    if len(text) != width or any(c not in "0123456789ABCDEF" for c in text):
        raise FieldError(f"{field} must be {width} hex digit(s) 0-9 A-F, got {text!r}")
    value = int(text, 16)
    if maximum is not None and value > maximum:
        raise FieldError(f"{field} {text} has bits set that the protocol never uses")
    return value


def direction(text: str, field: str) -> Direction:
    # Both guides: 0 = clockwise, 1 = counter/anti-clockwise.
    if text == "0":
        return Direction.CLOCKWISE
    if text == "1":
        return Direction.ANTICLOCKWISE
    raise FieldError(f"{field} must be 0 (clockwise) or 1 (anticlockwise), got {text!r}")
