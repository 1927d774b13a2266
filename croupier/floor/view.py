"""`croupier floor view`: the pit's window on the floor. A tile per table (open or closed, limits,
croupier and time to relief, last numbers, games per hour, link online or how long offline, chain),
the floor's alarms with who acknowledged them, and per wheel the integrity statistics of its spins
across days. It reads the store read-only and writes one thing, a pit boss's acknowledgement, as its
login may (in PostgreSQL the pit bosses' role, which may write nothing else): safe to serve with
textual-serve. With `--read-only`, or on a login that only reads, it writes nothing."""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Callable

from rich.markup import escape
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Input, Static

from croupier import terminal
from croupier.escape_keys import as_typed
from croupier.floor.alarms import AlarmBoard, Shown, acknowledge, name_problem
from croupier.floor.store import FloorStore, ReadOnlyLogin, StoreError, is_postgres, open_store
from croupier.floor.tiles import FloorPicture, FloorProjection, Tile
from croupier.i18n import N_, _, formats, ngettext
from croupier.i18n.presentation import Presentation, Shows, showing
from croupier.thread_reads import ReadGuard

log = logging.getLogger(__name__)
REFRESH_S = 2.0
ALARMS_S = 0.5  # a table's alarm is on the view within 2 s of the table raising it


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
            + _("{profile}  minimum {minimum}").format(
                profile=tile.profile or "-",
                minimum=formats.money(tile.minimum, tile.currency) if tile.minimum else "-") + "\n"
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


def alarms_text(alarms: list[Shown], stalled: str | None = None, writable: bool = True) -> str:
    """The floor's alarms, open ones first: table, kind and detail in the view's language; first, a
    stalled ingester. A view that only reads says where an alarm is acknowledged instead of its key."""
    stall = [] if stalled is None else ["[b red]" + _("STALLED: {problem}").format(problem=escape(stalled)) + "[/]"]
    if not alarms:
        return "\n".join(stall + [_("Alarms: none")])
    how = _("(a: acknowledge)") if writable else "(" + escape(
        _("this view only reads the store: acknowledge with croupier floor acknowledge")) + ")"
    lines = stall + ["[b]" + _("Alarms") + "[/] " + how]
    for alarm in alarms:
        # Open, or where, by whom and when it was taken up: on the floor, and the table's own answer.
        ended = "[b red]" + _("open") + "[/]" if alarm.open else escape(alarm.ended)
        lines.append(f"[b]{escape(alarm.table)}[/] {escape(alarm.kind)}: {escape(alarm.detail)} ({ended})")
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


class AcknowledgeScreen(ModalScreen[None]):
    """A pit boss picks an open alarm by its number and gives a name (checked as the table checks
    one, and no markup); the view records it in the store. Every key typed while it is open comes to
    `take` in the order typed, those typed before its boxes were on screen too (a browser sends keys
    in bursts, fast hands type ahead): none reaches the view behind it (q would quit it, a open
    another), none lands in a box that was not the one in use when it was typed."""

    DEFAULT_CSS = """
    AcknowledgeScreen { align: center middle; }
    AcknowledgeScreen > Vertical { width: 76; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    """
    BINDINGS = [Binding("escape", "dismiss", N_("back"))]
    KEYS = frozenset({"enter", "tab", "shift+tab", "backspace", "escape"})  # besides what prints: the dialog's own

    def __init__(self, alarms: list[Shown], record: Callable[[Shown, str], str | None]) -> None:
        super().__init__()
        self.alarms = alarms
        self.record = record  # records the acknowledgement; what went wrong, or None
        self._early: list[events.Key] | None = []  # typed before the boxes were on screen

    def compose(self) -> ComposeResult:
        listed = "\n".join(f"{n}. {escape(a.table)} - {escape(a.kind)}: {escape(a.detail)}"
                           for n, a in enumerate(self.alarms, 1))
        with Vertical():
            yield Static("[b]" + _("Acknowledge an alarm") + "[/]\n" + listed)
            yield Input(placeholder=_("alarm number"), id="number")
            yield Input(placeholder=_("your name"), id="name", max_length=80)
            yield Static(id="problem")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#number", Input))
        early, self._early = self._early or [], None
        for key in early:
            self.take(key)

    def takes(self, key: events.Key) -> bool:
        return key.key in self.KEYS or key.is_printable

    def take(self, key: events.Key) -> None:
        """One key, in the order typed: kept until the boxes are on screen, then typed in the box in use."""
        if key.key == "escape":  # at once, on screen or not yet: the keys typed next are the view's
            self.dismiss(None)
            return
        if self._early is not None:
            self._early.append(key)
            return
        number, name = self.query_one("#number", Input), self.query_one("#name", Input)
        box = name if self.focused is name else number
        if key.key in ("tab", "shift+tab"):
            self.set_focus(number if box is name else name)
        elif key.key == "enter":
            if box is number:
                self.set_focus(name)  # at once: the name typed next is the name's, however fast it comes
            else:
                self._submit(number.value.strip(), name.value)
        elif key.key == "backspace":
            box.action_delete_left()
        elif key.character:
            box.insert_text_at_cursor(key.character)

    def _submit(self, number: str, name: str) -> None:
        problem = None
        if not number.isdigit() or not 1 <= int(number) <= len(self.alarms):
            problem = _("give the number of an alarm listed above")
        else:
            problem = name_problem(name) or self.record(self.alarms[int(number) - 1], name.strip())
        if problem:
            self.query_one("#problem", Static).update("[red]" + escape(problem) + "[/]")
            return
        self.dismiss(None)


class FloorView(Shows, App):
    CSS = """
    Grid#tiles { grid-size: 4; grid-gutter: 1; height: auto; }
    .tile { border: round $accent; padding: 0 1; height: auto; min-height: 7; }
    #alarms, #wheels { margin-top: 1; }
    """
    # `a` acts as it is read (a priority binding): Textual runs the others only once the key has been
    # to the focused widget and back, and keys typed next (a browser's burst) could come between.
    # Escape, Tab and Shift+Tab on the view too, where they do nothing (its one scrolling pane has the
    # focus): back from the view once `a` typed after them had opened the dialog, Escape would close
    # it and Tab move it to the name box, the number typed next going there.
    BINDINGS = [Binding("q", "quit", N_("quit")),
                Binding("a", "acknowledge", N_("acknowledge an alarm"), priority=True),
                *(Binding(key, "nothing", show=False, priority=True) for key in ("escape", "tab", "shift+tab"))]

    def __init__(self, store: FloorStore, refresh_s: float = REFRESH_S, writer_url: str | None = None,
                 presentation: Presentation | None = None) -> None:
        super().__init__()
        self.given_presentation = presentation  # its language, else the command's
        with showing(self):
            self.title = _("croupier floor")
            for key, bindings in self._bindings.key_to_bindings.items():  # the footer in the view's language
                self._bindings.key_to_bindings[key] = [replace(b, description=_(b.description)) for b in bindings]
        self.store = store
        self.projection = FloorProjection(store)
        self.refresh_s = refresh_s
        self._reading = False
        self.writer_url = writer_url  # where an acknowledgement is written (None: the view only reads)
        self.alarms: list[Shown] = []
        self.stalled: str | None = None  # the ingester's stall, as the last picture said
        self._reading_alarms = False
        self._alarm_store: FloorStore | None = None  # the alarms' reader's own connection, in its own thread
        # Held by each read in its thread and by the unmount: a store is never closed under a read.
        self._floor_read, self._alarms_read = ReadGuard(), ReadGuard()
        self._alarm_board = AlarmBoard()  # the alarms read so far: a read takes only what changed since
        self._shown: dict[str, str] = {}  # each tile's text on screen

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Grid(id="tiles")
            yield Static(id="alarms")
            yield Static(id="wheels")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_floor()
        self.refresh_alarms()
        self.set_interval(self.refresh_s, self.refresh_floor)
        self.set_interval(ALARMS_S, self.refresh_alarms)

    def refresh_alarms(self) -> None:
        """Read the alarms in a thread of their own, on a connection of their own, every half second."""
        if self._reading_alarms:
            return
        self._reading_alarms = True
        self.run_worker(self._read_alarms, thread=True, group="alarms", exit_on_error=False)

    def _read_alarms(self) -> None:
        try:
            with self._alarms_read as reading:
                if not reading:
                    return
                if self._alarm_store is None:
                    self._alarm_store = open_store(self.store.url, read_only=True)
                alarms = self._alarm_board.read(self._alarm_store)
        except Exception:  # a bad read is logged and the last list stays
            log.exception("floor view: the alarms could not be read")
            with self._alarms_read:
                if self._alarm_store is not None:
                    self._alarm_store.close()
                self._alarm_store = None
        else:
            self.call_from_thread(self._show_alarms, alarms)
        finally:
            self._reading_alarms = False

    def _show_alarms(self, alarms: list[Shown]) -> None:
        self.alarms = alarms
        self.query_one("#alarms", Static).update(alarms_text(self.alarms, self.stalled, self.writer_url is not None))

    def on_unmount(self) -> None:
        # A read under way ends first: Textual does not wait for a thread's worker.
        self._floor_read.end()
        self._alarms_read.end(lambda: self._alarm_store.close() if self._alarm_store is not None else None)

    async def on_event(self, event: events.Event) -> None:
        # Keys typed after `a` go to its dialog, in order, even before it is on screen (Textual would
        # hand each to the dialog's box in use by then, or its unused keys back here: q would quit, a
        # open another); a key typed before `a`, back from the view, is none of the dialog's. Escape
        # typed at once with a key closes the dialog first: the key is then the view's.
        for one in as_typed(event):
            if isinstance(one, events.Key) and not one.is_forwarded and isinstance(self.screen, AcknowledgeScreen) \
                    and self.screen.takes(one):
                self.screen.take(one)
            else:
                await super().on_event(one)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A view on the read-only role offers no acknowledgement it could not record; over another
        # screen (the dialog, the command palette) `a` is a letter typed there, Escape its own.
        if action == "nothing":
            return len(self.screen_stack) == 1
        return not (action == "acknowledge" and (self.writer_url is None or len(self.screen_stack) > 1))

    def action_nothing(self) -> None:
        """Escape or Tab on the view: taken as it is read, and nothing to leave or move to."""

    def action_acknowledge(self) -> None:
        waiting = [alarm for alarm in self.alarms if alarm.open]
        if not waiting:
            self.notify(_("No open alarm."))
            return
        self.push_screen(AcknowledgeScreen(waiting, self._record), lambda _result: self.refresh_alarms())

    def _record(self, alarm: Shown, by: str) -> str | None:
        """Write the acknowledgement; what went wrong, or None."""
        if self.writer_url is None:
            return _("this view only reads the store: acknowledge with croupier floor acknowledge")
        try:
            with open_store(self.writer_url) as store:
                if not acknowledge(store, alarm, by):
                    return _("that alarm is no longer open")
        except StoreError as exc:
            return str(exc)
        except Exception as exc:  # a read-only login, a store away: said, nothing recorded
            return _("not recorded: {problem}").format(problem=exc)
        return None

    def refresh_floor(self) -> None:
        """Read the store in a thread of its own (the store is used by that thread only, one read at
        a time): the screen never waits for the store."""
        if self._reading:
            return
        self._reading = True
        self.run_worker(self._read, thread=True, group="floor", exit_on_error=False)

    def _read(self) -> None:
        try:
            with self._floor_read as reading:  # the store's owner closes it once the view has ended
                if not reading:
                    return
                picture = self.projection.picture()
        except Exception as exc:  # a bad read is logged and shown; the last picture stays
            log.exception("floor view: the store could not be read")
            self.call_from_thread(self._unreadable, " ".join(str(exc).split())[:200])
        else:  # the texts made here too: the screen's thread only puts on screen what changed
            texts = [(f"tile-{tile.table_id}", tile_text(tile)) for tile in picture.tiles]
            self.call_from_thread(self._show, picture, texts, wheels_text(picture))
        finally:
            self._reading = False

    def _unreadable(self, problem: str) -> None:
        self.stalled = _("store unavailable") + f" ({problem})"
        self._show_alarms(self.alarms)

    def _show(self, picture: FloorPicture, texts: list[tuple[str, str]], wheels: str) -> None:
        grid = self.query_one("#tiles", Grid)
        mounted = {widget.id: widget for widget in grid.children if isinstance(widget, Static)}  # the tiles
        for widget_id, text in texts:  # only a tile whose text changed is drawn again
            if widget_id not in mounted:
                grid.mount(Static(text, id=widget_id, classes="tile"))
            elif self._shown.get(widget_id) != text:
                mounted[widget_id].update(text)
            self._shown[widget_id] = text
        self.stalled = picture.ingester_problem
        self._show_alarms(self.alarms)
        if wheels != self._shown.get("wheels"):
            self.query_one("#wheels", Static).update(wheels)
            self._shown["wheels"] = wheels


def run_view(url: str, acknowledge_url: str | None = None, presentation: Presentation | None = None) -> int:
    """The view on the store at `url`, read-only; `acknowledge_url`: where pit bosses' acknowledgements
    are written (a login allowed to acknowledge alarms: the store's owner, or the pit bosses' role),
    None for a view that only reads. A login that may only read gets the view that only reads."""
    with open_store(url, read_only=True) as store:  # first: a store that is not there is never made
        if acknowledge_url is not None and is_postgres(acknowledge_url):
            try:
                open_store(acknowledge_url).close()
            except ReadOnlyLogin as exc:
                log.info("floor view: %s: it takes no acknowledgement", exc)
                acknowledge_url = None
        return terminal.run(FloorView(store, writer_url=acknowledge_url, presentation=presentation))
