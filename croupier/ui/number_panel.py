"""The winning number, big, in its colour: the last counted result of the table."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Digits, Static

from croupier.i18n import _
from croupier.rules.wheel import colour
from croupier.table.state import Spin
from croupier.ui import text
from croupier.screens.big_digits import big
from croupier.ui.redraw import one_class

COLOUR_CLASSES = ("red", "black", "green", "none")


class WinningNumber(Vertical):
    _shown: Spin | None | bool = False  # the spin shown (False: none yet)

    def compose(self) -> ComposeResult:
        yield Digits("--", id="winning-digits")
        yield Static("", id="winning-big")  # shown instead of the Digits on a tall screen
        yield Static("", id="winning-caption")

    def on_mount(self) -> None:
        self.show(None)

    def show(self, spin: Spin | None) -> None:
        if spin == self._shown:
            return
        self._shown = spin
        digits = self.query_one(Digits)
        caption = self.query_one("#winning-caption", Static)
        name = "none" if spin is None else colour(spin.number)
        one_class(self, COLOUR_CLASSES, name)
        shown = "--" if spin is None else f"{spin.number:>2}"
        digits.update(shown)
        self.query_one("#winning-big", Static).update(big(shown))
        if spin is None:
            caption.update(_("no result yet"))
            return
        caption.update(_("{colour} · spin {spin}").format(colour=text.colour_name(name), spin=spin.spin))
