"""The shift timeline pane: every event, a filter line above it; Enter on a spin's event opens it."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from croupier.review.messages import SpinChosen
from croupier.history.timeline import TimelineFilter, TimelineRow, parse_filter

FILTER_HELP = "filter: kind:spin-voided croupier:Ana ball:B1 colour:red from:21:00 to:22:30 (Enter applies, empty shows all)"


class TimelinePane(Vertical):
    DEFAULT_CSS = """
    TimelinePane #timeline-status { height: 1; color: $text-muted; }
    TimelinePane #timeline-status.error { color: $error; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rows: list[TimelineRow] = []
        self.shown: list[TimelineRow] = []
        self.filter = TimelineFilter()

    def compose(self) -> ComposeResult:
        yield Input(placeholder=FILTER_HELP, id="timeline-filter")
        yield Static("", id="timeline-status", markup=False)
        table = DataTable(id="timeline-table", cursor_type="row", zebra_stripes=True)
        table.add_columns("#", "time", "croupier", "ball", "event")
        yield table

    def show(self, rows: list[TimelineRow]) -> None:
        self.rows = rows
        self._refresh()

    def _refresh(self) -> None:
        self.shown = [row for row in self.rows if self.filter.matches(row)]
        table = self.query_one("#timeline-table", DataTable)
        table.clear()
        for row in self.shown:
            # Text, not str: a name or a reason typed at the table must never be read as markup.
            table.add_row(*(Text(cell) for cell in (str(row.seq), row.time.astimezone().strftime("%H:%M:%S"),
                                                    row.croupier or "", row.ball or "", row.text)),
                          key=str(row.seq))
        status = self.query_one("#timeline-status", Static)
        status.remove_class("error")
        status.update(f"{len(self.shown)} of {len(self.rows)} events")
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
