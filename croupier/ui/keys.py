"""The table's keys on screen: a Textual key event as a table key (the USB keypad or keyboard), and
how each key is labelled in the legend, on the 4x4 matrix and on a USB numeric keypad alike."""
from __future__ import annotations

from textual import events

from croupier.keypad.entry import Key
from croupier.keypad.keyboard import key_for

# (matrix label, USB numeric keypad label) for each key that is not a digit.
LABELS: dict[Key, tuple[str, str]] = {
    Key.ENTER: ("#", "Enter"),
    Key.CANCEL: ("*", "Esc"),
    Key.CLEAR: ("C", "Del"),
    Key.VOID: ("A", "-"),
    Key.PAYOUTS: ("B", "+"),
    Key.MENU: ("D", "/"),
}
DIGITS = "digits"  # the legend's name for 0-9


def table_key(event: events.Key) -> Key | None:
    """The table key a key press means, None for any other key."""
    return key_for(event.key) or key_for(event.character or "")


def label(key: Key | str) -> str:
    """`#/Enter`, `A/-`, `0-9`: what to press, on either keypad."""
    if not isinstance(key, Key):  # DIGITS
        return "0-9"
    matrix, usb = LABELS[key]
    return f"{matrix}/{usb}"
