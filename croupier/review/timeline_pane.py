"""The shift timeline pane: every event, a filter line above it; Enter on a spin's event opens it."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from croupier.history.clock import clock
from croupier.i18n import N_, _
from croupier.review.messages import SpinChosen
from croupier.history.timeline import TimelineFilter, TimelineRow, parse_filter

FILTER_HELP = N_("filter: kind:spin-voided croupier:Ana ball:B1 colour:red from:21:00 to:22:30 (Enter applies, "
                  "empty shows all)")


class TimelinePane(Vertical):
    DEFAULT_CSS = """
    TimelinePane #timeline-status { height: 1; color: $text-muted; }
    TimelinePane #timeline-status.error { color: $error; }
    """

    PAGE = 400  # rows in the table at once: a day of a busy wheel is thousands of events

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rows: list[TimelineRow] = []
        self.matching: list[TimelineRow] = []  # every row the filter keeps
        self.shown: list[TimelineRow] = []  # the page of them in the table
        self.start = 0
        self.filter = TimelineFilter()

    def compose(self) -> ComposeResult:
        yield Input(placeholder=_(FILTER_HELP), id="timeline-filter")
        yield Static("", id="timeline-status", markup=False)
        table: DataTable[Text] = DataTable(id="timeline-table", cursor_type="row", zebra_stripes=True)
        table.add_columns("#", _("time"), _("croupier"), _("ball"), _("event"))
        yield table

    def show(self, rows: list[TimelineRow]) -> None:
        self.rows = rows
        self._refresh()

    def page(self, step: int) -> None:
        """The page of PAGE rows before (-1) or after (+1) the one shown."""
        start = self.start + step * self.PAGE
        if 0 <= start < len(self.matching):
            self._show_page(start)

    def _refresh(self) -> None:
        self.matching = [row for row in self.rows if self.filter.matches(row)]
        self._show_page(max(0, len(self.matching) - self.PAGE))  # the latest events first

    def _show_page(self, start: int) -> None:
        self.start = start
        self.shown = self.matching[start:start + self.PAGE]
        table = self.query_one("#timeline-table", DataTable)
        table.clear()
        for row in self.shown:
            # Text, not str: a name or a reason typed at the table must never be read as markup.
            table.add_row(*(Text(cell) for cell in (str(row.seq), clock(row.time),
                                                    row.croupier or "", row.ball or "", row.text)),
                          key=str(row.seq))
        status = self.query_one("#timeline-status", Static)
        status.remove_class("error")
        paged = "" if len(self.matching) <= self.PAGE else \
            _(", rows {first}-{last} shown (< and > page)").format(first=self.start + 1,
                                                                  last=self.start + len(self.shown))
        status.update(_("{shown} of {total} events").format(shown=len(self.matching), total=len(self.rows)) + paged)
        if self.shown:
            table.move_cursor(row=len(self.shown) - 1)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if message.input.id != "timeline-filter":
            return
        message.stop()
        try:
            self.filter = parse_filter(message.value)
        except ValueError as error:
            status = self.query_one("#timeline-status", Static)
            status.add_class("error")
            status.update(str(error))
            return
        self._refresh()
        self.query_one("#timeline-table", DataTable).focus()

    def on_data_table_row_selected(self, message: DataTable.RowSelected) -> None:
        message.stop()
        row = self.shown[message.cursor_row]
        if row.spin is not None:
            self.post_message(SpinChosen(row.spin))
