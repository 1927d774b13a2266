"""`croupier floor view`: the pit's read-only window on the floor. A tile per table (open or
closed, limits, croupier and time to relief, last numbers, games per hour, link online or how long
offline, chain), the floor's alarms with who acknowledged them, and per wheel the integrity
statistics of its spins across days. It reads the store read-only: safe to serve with textual-serve."""
from __future__ import annotations

import logging
from dataclasses import replace

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid, VerticalScroll
from textual.widgets import Footer, Header, Static

from croupier.floor.store import FloorStore, open_store
from croupier.floor.tiles import FloorPicture, FloorProjection, Tile
from croupier.i18n import N_, _, ngettext

log = logging.getLogger(__name__)
REFRESH_S = 2.0


def tile_text(tile: Tile) -> str:
    state = "[b green]" + _("OPEN") + "[/]" if tile.open else "[b]" + _("closed") + "[/]"
    link = "[green]" + _("online") + "[/]" if tile.online else (
        "[red]" + _("offline {duration}").format(duration=_duration(tile.offline_for_s)) + "[/]"
        if tile.offline_for_s is not None else "[red]" + _("never heard") + "[/]")
    relief = "" if tile.relief_in_min is None else (
        ", " + _("relief in {minutes} min").format(minutes=tile.relief_in_min) if tile.relief_in_min >= 0 else
        ", [red]" + _("relief {minutes} min overdue").format(minutes=-tile.relief_in_min) + "[/]")
    chain = ("" if tile.broken_at is None else
             "\n[b red]" + _("chain broken at event {seq}: quarantined").format(seq=tile.broken_at) + "[/]")
    if tile.behind and tile.broken_at is None:
        chain += "\n[b red]" + ngettext(
            "waiting for event {seq}, {count} event behind the stream", "waiting for event {seq}, {count} events "
            "behind the stream", tile.behind).format(seq=tile.last_seq + 1, count=tile.behind) + (
            "" if not tile.behind_for_s else ", " + _duration(tile.behind_for_s)) + "[/]"
    numbers = " ".join(str(n) for n in tile.last_numbers) or "-"
    return (f"[b]{tile.table_id}[/]  {state}  {link}\n"
            + _("{profile}  minimum {minimum}").format(profile=tile.profile or "-", minimum=tile.minimum or "-") + "\n"
            + _("croupier {name}").format(name=tile.croupier or "-") + relief + "\n"
            + _("last: {numbers}").format(numbers=numbers) + "\n"
            + ngettext("{count} game in the last hour", "{count} games in the last hour", tile.games_per_hour).format(
                count=tile.games_per_hour)
            + ", " + _("event {seq}").format(seq=tile.last_seq) + chain)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def alarms_text(picture: FloorPicture) -> str:
    stall = [] if picture.ingester_problem is None else ["[b red]" + _("STALLED: {problem}").format(
        problem=picture.ingester_problem) + "[/]"]
    if not picture.alarms:
        return "\n".join(stall + [_("Alarms: none")])
    lines = stall + ["[b]" + _("Alarms") + "[/]"]
    for alarm in picture.alarms:
        who = (_("acknowledged by {name}").format(name=alarm.acknowledged_by) if alarm.acknowledged_by
               else "[red]" + _("open") + "[/]")
        lines.append(_("table {table}, event {seq}: {problem} ({who})").format(
            table=alarm.table_id, seq=alarm.event_seq, problem=alarm.problem, who=who))
    return "\n".join(lines)


def wheels_text(picture: FloorPicture) -> str:
    lines = ["[b]" + _("Wheels") + "[/] " + _("(every counted spin the floor holds)")]
    for wheel, stats in picture.wheels.items():
        watch = stats["watch"]
        alerts = _("ALERT: {alert}.").format(alert="; ".join(watch["alert_lines"])) if watch["alert_lines"] \
            else watch["status"]
        lines.append(f"[b]{wheel}[/]: " + ngettext("{count} spin", "{count} spins", stats["spins"]).format(
            count=stats["spins"]) + f". {alerts}")
    if picture.wheels:
        lines.append(next(iter(picture.wheels.values()))["watch"]["rate"])
    return "\n".join(lines)


class FloorView(App):
    CSS = """
    Grid#tiles { grid-size: 4; grid-gutter: 1; height: auto; }
    .tile { border: round $accent; padding: 0 1; height: auto; min-height: 7; }
    #alarms, #wheels { margin-top: 1; }
    """
    BINDINGS = [Binding("q", "quit", N_("quit"))]

    def __init__(self, store: FloorStore, refresh_s: float = REFRESH_S) -> None:
        super().__init__()
        self.title = _("croupier floor")
        for key, bindings in self._bindings.key_to_bindings.items():  # the footer in the installed language
            self._bindings.key_to_bindings[key] = [replace(b, description=_(b.description)) for b in bindings]
        self.store = store
        self.projection = FloorProjection(store)
        self.refresh_s = refresh_s
        self._reading = False

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
        """Read the store in a thread of its own (the store is used by that thread only, one read at
        a time): the screen never waits for the store."""
        if self._reading:
            return
        self._reading = True
        self.run_worker(self._read, thread=True, group="floor", exit_on_error=False)

    def _read(self) -> None:
        try:
            picture = self.projection.picture()
        except Exception as exc:  # a bad read is logged and shown; the last picture stays
            log.exception("floor view: the store could not be read")
            self.call_from_thread(self._unreadable, " ".join(str(exc).split())[:200])
        else:
            self.call_from_thread(self._show, picture)
        finally:
            self._reading = False

    def _unreadable(self, problem: str) -> None:
        self.query_one("#alarms", Static).update(
            "[b red]" + _("STALLED: {problem}").format(problem=_("store unavailable") + f" ({problem})") + "[/]")

    def _show(self, picture: FloorPicture) -> None:
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
