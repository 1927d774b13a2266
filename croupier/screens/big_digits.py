"""Numbers five rows tall in block characters, for a screen with room for them (a 1024x600 panel, a
players' monitor); Textual's Digits, three rows tall, serves the 80x24 console."""
from __future__ import annotations

FONT = {
    "0": ("█████", "█   █", "█   █", "█   █", "█████"),
    "1": ("  ██ ", " ███ ", "  ██ ", "  ██ ", " ████"),
    "2": ("█████", "    █", "█████", "█    ", "█████"),
    "3": ("█████", "    █", " ████", "    █", "█████"),
    "4": ("█   █", "█   █", "█████", "    █", "    █"),
    "5": ("█████", "█    ", "█████", "    █", "█████"),
    "6": ("█████", "█    ", "█████", "█   █", "█████"),
    "7": ("█████", "    █", "   █ ", "  █  ", "  █  "),
    "8": ("█████", "█   █", "█████", "█   █", "█████"),
    "9": ("█████", "█   █", "█████", "    █", "█████"),
    "-": ("     ", "     ", "█████", "     ", "     "),
    " ": ("     ",) * 5,
}
ROWS = 5


def big(text: str) -> str:
    """`text` (digits, '-' and spaces) drawn five rows tall, one column between characters."""
    return "\n".join(" ".join(FONT[char][row] for char in text) for row in range(ROWS))
