"""The wheel-integrity statistics pane: every test in plain words, and the chart in wheel order."""
from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Static

from croupier.i18n import _


class StatisticsPane(VerticalScroll):
    def compose(self):
        yield Static(_("Statistics of this shift's spins. Press a for the whole journal, s for this shift."),
                     id="statistics-text", markup=False)

    def show(self, text: str) -> None:
        self.query_one("#statistics-text", Static).update(text)
