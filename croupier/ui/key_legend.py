"""The key legend at the foot of every screen: what each key does now, on both keypads."""
from __future__ import annotations

from rich.cells import cell_len
from rich.markup import escape
from textual.events import Resize
from textual.widgets import Static

from croupier.keypad.entry import Key
from croupier.ui.keys import label
from croupier.ui.redraw import update

GAP = "  "


class KeyLegend(Static):
    DEFAULT_CSS = "KeyLegend { height: auto; background: $panel; padding: 0 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._shown: tuple = ()
        self._width = 0

    def show(self, entries: list[tuple[Key | str, str]]) -> None:
        """`entries` are (key, what it does); shown in order, a line broken only between two
        entries, never between a key and its meaning."""
        entries_key = tuple(entries)
        if entries_key == self._shown:
            return
        self._shown = entries_key
        self._draw()

    def on_resize(self, event: Resize) -> None:
        if self._room() != self._width:
            self._draw()

    def _room(self) -> int:
        width = self.content_region.width or self.app.size.width - 2
        return max(width, 1)

    def _draw(self) -> None:
        self._width = room = self._room()
        lines: list[list[str]] = [[]]
        used = 0
        for key, meaning in self._shown:
            plain = f" {label(key)}  {meaning}"
            width = cell_len(plain)
            if lines[-1] and used + len(GAP) + width > room:
                lines.append([])
                used = 0
            used += (len(GAP) if lines[-1] else 0) + width
            lines[-1].append(f"[b reverse] {escape(label(key))} [/] {escape(meaning)}")
        update(self, "\n".join(GAP.join(line) for line in lines))  # an unchanged legend is not laid out again
