"""Type a whole number (chips, a seat, an amount) or a PIN on the keypad: digits, C clears, #
confirms, * backs out with None. A key the box does not take (A, B, D) says the croupier thinks
the box is gone: what is typed after it is for somewhere else, so the box takes nothing more until
C clears it."""
from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from croupier.i18n import _
from croupier.keypad.entry import Key
from croupier.ui.key_legend import KeyLegend
from croupier.ui.keypad_screen import KeypadModal
from croupier.ui.keys import DIGITS, label


class NumberScreen(KeypadModal[str | None]):
    """Dismissed with the digits typed, as text (a PIN keeps its leading zeros), or None."""

    def __init__(self, title: str, prompt: str, *, note: str = "", secret: bool = False, max_digits: int = 6,
                 initial: str = "") -> None:
        super().__init__()
        self.title_text, self.prompt, self.note = title, prompt, note
        self.secret, self.max_digits = secret, max_digits
        self.typed = initial
        self.stray: Key | None = None  # a key the box does not take, typed last

    def compose(self) -> ComposeResult:
        with Vertical(classes="form"):
            yield Static(escape(self.title_text), classes="form-title")
            if self.note:
                yield Static(escape(self.note), classes="form-note")
            yield Static("", id="typed", classes="form-entry")
            yield KeyLegend(id="form-legend")

    def on_mount(self) -> None:
        self.query_one(KeyLegend).show([(DIGITS, _("type")), (Key.CLEAR, _("clear")), (Key.ENTER, _("confirm")),
                                        (Key.CANCEL, _("back"))])
        self._show()

    def _show(self) -> None:
        shown = "•" * len(self.typed) if self.secret else self.typed
        entry = f"{escape(self.prompt)} [b reverse] {shown or ' '} [/]"
        if self.stray is not None:
            entry += "\n[b red]" + escape(_("{key} is not taken here: C types again, * backs out").format(
                key=label(self.stray))) + "[/]"
        self.query_one("#typed", Static).update(entry)

    def press(self, key: Key) -> None:
        if self.stray is not None and key not in (Key.CLEAR, Key.CANCEL):
            self.app.bell()  # typed for wherever the croupier thought they were: not for this box
            return
        if key in (Key.VOID, Key.PAYOUTS, Key.MENU):
            self.stray = key
            self.app.bell()
        elif key.digit is not None:
            if len(self.typed) < self.max_digits:
                self.typed += key.value
            else:
                self.app.bell()
        elif key is Key.CLEAR:
            self.typed = ""
            self.stray = None
        elif key is Key.ENTER:
            if self.typed:
                self.dismiss(self.typed)
                return
            self.app.bell()
        elif key is Key.CANCEL:
            self.dismiss(None)
            return
        self._show()
