"""The key legend at the foot of every screen: what each key does now, on both keypads."""
from __future__ import annotations

from rich.markup import escape
from textual.widgets import Static

from croupier.keypad.entry import Key
from croupier.ui.keys import label


class KeyLegend(Static):
    DEFAULT_CSS = "KeyLegend { height: auto; background: $panel; padding: 0 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._shown: tuple = ()

    def show(self, entries: list[tuple[Key | str, str]]) -> None:
        """`entries` are (key, what it does); shown in order, wrapping as the width allows."""
        entries_key = tuple(entries)
        if entries_key == self._shown:
            return
        self._shown = entries_key
        self.update("  ".join(f"[b reverse] {escape(label(key))} [/] {escape(text)}" for key, text in entries))
