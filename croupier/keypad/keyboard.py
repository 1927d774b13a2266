"""A USB numeric keypad or a keyboard gives the same keys as the matrix. Pure: Textual key names
(`event.key`) in, `Key` out; None for a key that means nothing at the table."""
from __future__ import annotations

from croupier.keypad.entry import KEY_FOR_LABEL, Key

KEYBOARD_KEYS: dict[str, Key] = {
    **{str(d): Key.for_digit(d) for d in range(10)},
    "enter": Key.ENTER,
    "ctrl+j": Key.ENTER,  # Enter typed as the table started, before its terminal was raw: a line feed
    "number_sign": Key.ENTER,  # '#', as on the matrix
    "escape": Key.CANCEL,
    "asterisk": Key.CANCEL,  # '*', as on the matrix and the numeric keypad
    "full_stop": Key.CLEAR,  # the numeric keypad's '.' / Del
    "backspace": Key.CLEAR,
    "delete": Key.CLEAR,
    "minus": Key.VOID,
    "plus": Key.PAYOUTS,
    "slash": Key.MENU,
    # The matrix's letter keys, typed on a keyboard.
    **{letter: KEY_FOR_LABEL[letter.upper()] for letter in "abcd"},
    **{letter: KEY_FOR_LABEL[letter] for letter in "ABCD"},
}


def key_for(name: str) -> Key | None:
    """The table key for a Textual key name ("5", "enter", "minus", ...)."""
    return KEYBOARD_KEYS.get(name)
