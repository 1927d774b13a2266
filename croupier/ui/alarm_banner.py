"""Alarms that cannot be missed: shown across the screen in reverse until acknowledged."""
from __future__ import annotations

from textual.widgets import Static


class AlarmBanner(Static):
    """Shows `lines` (Rich markup); hidden when there are none."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._lines: tuple[str, ...] = ()
        self.display = False

    def show(self, lines: list[str], urgent: bool) -> None:
        self.set_class(urgent, "urgent")
        if tuple(lines) == self._lines:
            return
        self._lines = tuple(lines)
        self.display = bool(lines)
        self.update("\n".join(lines))
