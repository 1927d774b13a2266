"""The table's first screen, drawn from the configuration alone before the journal is opened: the
table's name and profile, and the keys. The journal is opened, its key read and the start's clock
check signed once it is on the terminal; the keys typed meanwhile wait in the app's key router and
go to the table screen, or the dialog that opens first, in the order they were typed."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape
from textual.app import ComposeResult
from textual.widgets import Static

from croupier.i18n import _
from croupier.keypad.entry import Key
from croupier.ui.key_legend import KeyLegend
from croupier.ui.keypad_screen import KeypadScreen

if TYPE_CHECKING:
    from croupier.config import Config


class StartScreen(KeypadScreen[None]):
    def __init__(self, config: Config) -> None:
        super().__init__()
        self.config = config

    def compose(self) -> ComposeResult:
        table = self.config.table
        yield Static(f"[b]{escape(table.name)}[/] · {escape(table.profile)}", id="title")
        yield Static(escape(_("Opening the journal: keys typed now are kept")), id="message")
        legend = KeyLegend(id="legend")
        legend.show([(Key.MENU, _("menu"))])
        yield legend

    def press(self, key: Key) -> None:
        """Never called: the key router keeps the keys typed while the table starts."""


class NotStarted(Exception):
    """The table cannot start (its journal, its floor link or its pins): the one line the command
    says, and its exit status."""

    def __init__(self, line: str, status: int) -> None:
        super().__init__(line)
        self.line, self.status = line, status
