"""What a person's name recorded at the table may be: its length, and no character that moves the
cursor, colours or hides text on a terminal. The command line and the floor check names alike."""
from __future__ import annotations

import unicodedata

MAX_NAME = 60  # a person's name as the journal records it
CONTROL_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")  # controls, bidi overrides and zero-width marks, line breaks


def is_control(c: str) -> bool:
    return unicodedata.category(c) in CONTROL_CATEGORIES


def control_characters(text: str) -> bool:
    """Whether `text` holds characters that move the cursor, colour or hide text on a terminal
    (ESC, CR, bidirectional overrides...)."""
    return any(map(is_control, text))
