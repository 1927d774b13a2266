"""A pane of titled tables: the procedures (voids, corrections, alarms, balls, reliefs), the colour
ledger and the croupiers' figures all show this way."""
from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static

from croupier.history.procedures import Table
from croupier.i18n import _


class TablesPane(VerticalScroll):
    DEFAULT_CSS = """
    TablesPane > Static { margin-top: 1; text-style: bold; }
    TablesPane > DataTable { height: auto; max-height: 20; }
    """

    async def show(self, tables: list[Table]) -> None:
        await self.remove_children()
        widgets: list[Widget] = []
        for table in tables:
            widgets.append(Static(f"{table.title} ({len(table.rows)})", markup=False))
            grid: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True)
            grid.add_columns(*table.columns)
            rows = table.rows or [(_("none"),) + ("",) * (len(table.columns) - 1)]
            # Text, not str: a name or a reason typed at the table must never be read as markup.
            grid.add_rows([tuple(Text(cell) for cell in row) for row in rows])
            widgets.append(grid)
        await self.mount_all(widgets)
