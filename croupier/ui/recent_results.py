"""The last results, newest first, each in its colour."""
from __future__ import annotations

from textual.widgets import Static

from croupier.i18n import _
from croupier.table.state import Spin
from croupier.ui.text import number_markup


class RecentResults(Static):
    def show(self, recent: tuple[Spin, ...]) -> None:
        numbers = " ".join(number_markup(spin.number) for spin in reversed(recent))
        self.update(_("Last results:") + " " + (numbers or "—"))
