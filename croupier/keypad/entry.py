"""The keys the croupier presses, and the rule for typing a winning number. Pure.

The same `Key` values come from the 4x4 GPIO matrix (matrix.py, labels 0-9 A-D * #) and from a USB
numeric keypad or keyboard (keyboard.py):

    matrix  USB keypad / keyboard   Key       at the table
    0-9     0-9                     digits    the winning number
    #       Enter                   ENTER     confirm (a typed number is only taken when confirmed)
    *       * or Esc                CANCEL    abandon the entry
    C       . Backspace Delete c    CLEAR     clear what was typed, start again
    A       - a                     VOID      golpe nulo (PT-A 22): propose voiding the spin
    B       + b                     PAYOUTS   show what to pay for the last result
    D       / d                     MENU      the menu (ball swap, relief, ...)

Typing a number: no pocket number starts with 0 or 4-9 and has two digits, so those complete at once;
1-3 wait for a second digit (10-36) or for Enter (1, 2, 3). The number typed is then proposed, and
only Enter confirms it; a digit instead starts the number again.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Key(str, Enum):
    D0 = "0"
    D1 = "1"
    D2 = "2"
    D3 = "3"
    D4 = "4"
    D5 = "5"
    D6 = "6"
    D7 = "7"
    D8 = "8"
    D9 = "9"
    ENTER = "enter"
    CANCEL = "cancel"
    CLEAR = "clear"
    VOID = "void"
    PAYOUTS = "payouts"
    MENU = "menu"

    @property
    def digit(self) -> int | None:
        return int(self.value) if self.value.isdigit() else None

    @classmethod
    def for_digit(cls, digit: int) -> "Key":
        return cls(str(digit))


# The 4x4 matrix keypad as printed on it, row by row (rows driven, columns read).
MATRIX_LAYOUT: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "A"),
    ("4", "5", "6", "B"),
    ("7", "8", "9", "C"),
    ("*", "0", "#", "D"),
)

KEY_FOR_LABEL: dict[str, Key] = {
    **{str(d): Key.for_digit(d) for d in range(10)},
    "#": Key.ENTER,
    "*": Key.CANCEL,
    "A": Key.VOID,
    "B": Key.PAYOUTS,
    "C": Key.CLEAR,
    "D": Key.MENU,
}


class Step(str, Enum):
    TYPING = "typing"  # waiting for more digits (or nothing typed yet)
    PROPOSED = "proposed"  # a number is on show, waiting for Enter
    CONFIRMED = "confirmed"  # Enter on a proposed number: this is the result
    CANCELLED = "cancelled"
    REJECTED = "rejected"  # a key that makes no pocket; what was typed stays
    NOT_ENTRY = "not-entry"  # not a key for typing numbers (VOID, PAYOUTS, MENU): the screen's


@dataclass(frozen=True)
class Entry:
    """What a key press did: the step reached, the digits on show, and the number proposed or
    confirmed. `message` says why a key was rejected."""

    step: Step
    typed: str = ""
    number: int | None = None
    message: str = ""


class NumberEntry:
    """Typing and confirming one winning number."""

    def __init__(self) -> None:
        self._typed = ""
        self._proposed: int | None = None

    @property
    def typed(self) -> str:
        return self._typed

    @property
    def proposed(self) -> int | None:
        return self._proposed

    def reset(self) -> None:
        self._typed, self._proposed = "", None

    def press(self, key: Key) -> Entry:
        digit = key.digit
        if digit is not None:
            return self._digit(digit)
        if key is Key.ENTER:
            return self._enter()
        if key is Key.CLEAR:
            self.reset()
            return Entry(Step.TYPING)
        if key is Key.CANCEL:
            self.reset()
            return Entry(Step.CANCELLED)
        return Entry(Step.NOT_ENTRY, self._typed, self._proposed)

    def _digit(self, digit: int) -> Entry:
        if self._proposed is not None:
            self.reset()  # a digit after a proposal starts the number again
        if not self._typed:
            if digit in (1, 2, 3):
                self._typed = str(digit)
                return Entry(Step.TYPING, self._typed)
            return self._propose(digit)  # 0, 4-9: no pocket has a second digit after them
        number = int(self._typed + str(digit))
        if number > 36:
            return Entry(Step.REJECTED, self._typed, None, f"there is no pocket {number}")
        return self._propose(number)

    def _propose(self, number: int) -> Entry:
        self._typed, self._proposed = str(number), number
        return Entry(Step.PROPOSED, self._typed, number)

    def _enter(self) -> Entry:
        if self._proposed is not None:
            number = self._proposed
            self.reset()
            return Entry(Step.CONFIRMED, str(number), number)
        if self._typed:
            return self._propose(int(self._typed))
        return Entry(Step.REJECTED, "", None, "type the winning number first")
