"""The wheel-integrity statistics pane: every test in plain words, and the chart in wheel order."""
from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Static


def statistics_text(summary: dict, chart: str, scope: str) -> str:
    lines = [f"{scope}: {summary['spins']:,} counted spins", ""]
    alerts = summary["alerts"]
    lines.append("ALERT: " + ", ".join(alerts) if alerts else "No test raises an alert.")
    lines.append("")
    for name in ("chi_square", "numbers", "max_count", "sectors", "sector_split", "signature"):
        section = summary[name]
        if section is not None:
            lines.append("- " + section["plain"])
    for group in summary["signature"]["groups"]:
        lines.append("    " + group["plain"])
    return "\n".join(lines + ["", chart])


class StatisticsPane(VerticalScroll):
    def compose(self):
        yield Static("Statistics of this shift's spins. Press a for the whole journal, s for this shift.",
                     id="statistics-text", markup=False)

    def show(self, text: str) -> None:
        self.query_one("#statistics-text", Static).update(text)
