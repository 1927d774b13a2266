"""`croupier floor view`: the pit's read-only window on the floor. A tile per table (open or
closed, limits, croupier and time to relief, last numbers, games per hour, link online or how long
offline, chain), the floor's alarms with who acknowledged them, and per wheel the integrity
statistics of its spins across days. It reads the store read-only: safe to serve with textual-serve."""
from __future__ import annotations

import logging

from textual.app import App, ComposeResult
from textual.containers import Grid, VerticalScroll
from textual.widgets import Footer, Header, Static

from croupier.floor.store import FloorStore, open_store
from croupier.floor.tiles import FloorPicture, FloorProjection, Tile

log = logging.getLogger(__name__)
REFRESH_S = 2.0


def tile_text(tile: Tile) -> str:
    state = "[b green]OPEN[/]" if tile.open else "[b]closed[/]"
    link = "[green]online[/]" if tile.online else (
        f"[red]offline {_duration(tile.offline_for_s)}[/]" if tile.offline_for_s is not None else "[red]never heard[/]")
    relief = "" if tile.relief_in_min is None else (
        f", relief in {tile.relief_in_min} min" if tile.relief_in_min >= 0 else
        f", [red]relief {-tile.relief_in_min} min overdue[/]")
    chain = "" if tile.chain == "intact" else f"\n[b red]chain {tile.chain}[/]"
    numbers = " ".join(str(n) for n in tile.last_numbers) or "-"
    return (f"[b]{tile.table_id}[/]  {state}  {link}\n"
            f"{tile.profile or '-'}  minimum {tile.minimum or '-'}\n"
            f"croupier {tile.croupier or '-'}{relief}\n"
            f"last: {numbers}\n"
            f"{tile.games_per_hour} games in the last hour, event {tile.last_seq}{chain}")


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def alarms_text(picture: FloorPicture) -> str:
    if not picture.alarms:
        return "Alarms: none"
    lines = ["[b]Alarms[/]"]
    for alarm in picture.alarms:
        who = f"acknowledged by {alarm.acknowledged_by}" if alarm.acknowledged_by else "[red]open[/]"
        lines.append(f"table {alarm.table_id}, event {alarm.event_seq}: {alarm.problem} ({who})")
    return "\n".join(lines)


def wheels_text(picture: FloorPicture) -> str:
    lines = ["[b]Wheels[/] (every counted spin the floor holds)"]
    for wheel, stats in picture.wheels.items():
        alerts = "; ".join(stats["alert_lines"]) or "no alert"
        lines.append(f"[b]{wheel}[/]: {stats['spins']} spins, {alerts}. {stats['chi_square']['plain']}")
    return "\n".join(lines)


class FloorView(App):
    TITLE = "croupier floor"
    CSS = """
    Grid#tiles { grid-size: 4; grid-gutter: 1; height: auto; }
    .tile { border: round $accent; padding: 0 1; height: auto; min-height: 7; }
    #alarms, #wheels { margin-top: 1; }
    """
    BINDINGS = [("q", "quit", "quit")]

    def __init__(self, store: FloorStore, refresh_s: float = REFRESH_S) -> None:
        super().__init__()
        self.store = store
        self.projection = FloorProjection(store)
        self.refresh_s = refresh_s

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Grid(id="tiles")
            yield Static(id="alarms")
            yield Static(id="wheels")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_floor()
        self.set_interval(self.refresh_s, self.refresh_floor)

    def refresh_floor(self) -> None:
        try:
            picture = self.projection.picture()
        except Exception:  # a bad read is logged and the last picture stays
            log.exception("floor view: the store could not be read")
            return
        grid = self.query_one("#tiles", Grid)
        shown = {widget.id: widget for widget in grid.children}
        for tile in picture.tiles:
            widget_id = f"tile-{tile.table_id}"
            if widget_id in shown:
                shown[widget_id].update(tile_text(tile))
            else:
                grid.mount(Static(tile_text(tile), id=widget_id, classes="tile"))
        self.query_one("#alarms", Static).update(alarms_text(picture))
        self.query_one("#wheels", Static).update(wheels_text(picture))


def run_view(url: str) -> int:
    with open_store(url, read_only=True) as store:
        FloorView(store).run()
    return 0
