"""The last results, newest first, each in its colour."""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from croupier.history.payouts import amount_words
from croupier.i18n import _
from croupier.table.state import Spin
from croupier.ui.text import colour_name, number_markup


class RecentResults(Static):
    _shown: tuple[Spin, ...] | None = None

    def show(self, recent: tuple[Spin, ...], currency: str = "") -> None:
        if recent == self._shown:
            return
        self._shown = recent
        corrected = [spin for spin in recent if spin.corrected_from is not None][-1:]
        note = "".join("  " + _("(spin {spin} corrected from {number})").format(spin=s.spin, number=s.corrected_from)
                       for s in corrected)
        newest = [number_markup(spin.number) for spin in reversed(recent)]
        # The oldest numbers give way to the note of a correction: it is never broken over two lines.
        room = (self.content_region.width or self.app.size.width - 2) - cell_len(_("Last results:") + " " + note)
        while len(newest) > 1 and Text.from_markup(" ".join(newest)).cell_len > room:
            newest.pop()
        numbers = " ".join(newest)
        # What the correction of a paid spin leaves to recover, per colour: the table's one figure.
        recover = [f"{colour_name(r.colour)} {amount_words(r.won, r.kept, r.money, currency)}"
                   for s in corrected for r in s.recover]
        if recover:
            note += "\n" + _("After the correction: {amounts}").format(amounts="; ".join(recover))
        self.update(_("Last results:") + " " + (numbers or "—") + note)
