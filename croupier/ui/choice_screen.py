"""Pick one of a few options with one digit key (1-9, then 0 for the tenth); more than ten are
paged with #. * backs out with None."""
from __future__ import annotations

from typing import Generic, Sequence, TypeVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from croupier.i18n import _
from croupier.keypad.entry import Key
from croupier.ui.key_legend import KeyLegend
from croupier.ui.keypad_screen import KeypadModal
from croupier.ui.keys import DIGITS

Value = TypeVar("Value")
PAGE = 10


class ChoiceScreen(KeypadModal[Value | None], Generic[Value]):
    def __init__(self, title: str, options: Sequence[tuple[str, Value]], note: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        self.note = note
        self.page = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="form"):
            yield Static(escape(self.title_text), classes="form-title")
            if self.note:
                yield Static(escape(self.note), classes="form-note")
            yield Static("", id="choices")
            yield KeyLegend(id="form-legend")

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        shown = self.options[self.page * PAGE:(self.page + 1) * PAGE]
        lines = [f"[b reverse] {(i + 1) % 10} [/] {escape(text)}" for i, (text, _value) in enumerate(shown)]
        self.query_one("#choices", Static).update("\n".join(lines) or _("(nothing to choose)"))
        legend: list = [(DIGITS, _("choose"))]
        if len(self.options) > PAGE:
            legend.append((Key.ENTER, _("more")))
        legend.append((Key.CANCEL, _("back")))
        self.query_one(KeyLegend).show(legend)

    def press(self, key: Key) -> None:
        if key is Key.CANCEL:
            self.dismiss(None)
        elif key is Key.ENTER and len(self.options) > PAGE:
            self.page = (self.page + 1) % -(-len(self.options) // PAGE)
            self._show()
        elif key.digit is not None:
            index = self.page * PAGE + (key.digit - 1) % 10
            if index < len(self.options) and index < (self.page + 1) * PAGE:
                self.dismiss(self.options[index][1])
            else:
                self.app.bell()
