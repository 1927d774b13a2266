"""The table app: the session, the wheel sensor, the keypad and the display board around the
croupier's screen.

Threads never touch the screen: the wheel link and the GPIO keypad post messages (WheelReport,
KeypadPressed), the session's subscribers post TableRecorded, and the app's own loop handles them.
Timers in that loop redraw the times, record the alarms that fall due, and ping systemd's watchdog,
so a frozen screen stops the pings and gets restarted.

`croupier table` draws its first screen (StartScreen) before it opens the journal: the modules of
the table, the journal and the table screen are imported where they are first used, after it.
"""
from __future__ import annotations

import logging
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Concatenate, ParamSpec

from rich.markup import escape
from textual.app import App

from croupier.config import Config
from croupier.i18n import _, ngettext
from croupier.i18n.presentation import Presentation, Shows
from croupier.sdnotify import Notifier
from croupier.startup import collect_from_now
from croupier.ui.key_routing import KeyRouter
from croupier.ui.keypad_screen import KeypadKeys  # already loaded by the start screen
from croupier.ui.redraw import release_styles_caches
from croupier.ui.messages import KeypadPressed, TableRecorded, WheelReport
from croupier.ui.runtime import Devices
from croupier.ui.screen_bug import log_bug, survived
from croupier.ui.start_screen import NotStarted, StartScreen

if TYPE_CHECKING:
    from croupier.journal.store import JournalError
    from croupier.session import TableSession
    from croupier.table import events as ev
    from croupier.table.refusal import Refused
    from croupier.table.state import TableState
    from croupier.ui.flow_memory import Answer
    from croupier.ui.payout_sheet import PayoutSheet
    from croupier.ui.table_screen import TableScreen

log = logging.getLogger(__name__)
P = ParamSpec("P")
TICK_S = 5.0  # how often the alarms that fell due are recorded
CLOCK_S = 1.0  # how often the times on screen (relief, ball swap, countdown) are redrawn


class TableApp(Shows, App):
    CSS_PATH = "table.tcss"
    TITLE = "croupier"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: TableSession | None, config: Config, *, wheel: bool | None = None,
                 show_board: bool = False, board_output: Callable | None = None,
                 notifier: Notifier | None = None, devices: Devices | None = None, banner: str = "",
                 presentation: Presentation | None = None,
                 opening: Callable[[TableApp], TableSession] | None = None) -> None:
        """`wheel`: whether a wheel sensor is wired (None: as the configuration says). `board_output`
        is called with each new board (the GPIO board's `show`). `devices` (the wheel link, the
        keypad) are started once the app runs, to post to it, and stopped when it ends.
        `presentation`: the screen's language and zones (the command's by default); its currency
        is the journal's, as `currency`. Without a `session`, `opening(app)` opens it once the first
        screen (StartScreen) is drawn, and may add the app's devices and board output; it raises
        NotStarted to end the app with that line and status (`not_started`)."""
        super().__init__()
        self.config = config
        self.opening = opening
        self.not_started: NotStarted | None = None
        self.opened = False  # the session is open (given, or opened once the first screen was drawn)
        self.given_presentation = presentation
        # the one it was based on, its zone, the one shown
        self._presented: tuple[Presentation, str | None, Presentation] = (Presentation(), None, Presentation())
        wired = config.wheel is not None if wheel is None else wheel
        self.sensor_online: bool | None = False if wired else None  # offline until the link opens
        self.board_output = board_output
        self.show_board = show_board
        self.notifier = notifier or Notifier(environ={})
        self.devices = devices or Devices()
        self.banner = banner
        self.payout_sheet: PayoutSheet | None = None  # the sheet of the result being paid, kept while away from it
        self._unsubscribe: Callable[[], None] | None = None
        self._shown_time: tuple | None = None
        self.journal_fault: str | None = None  # the disk is full or read-only: shown until the table restarts
        self._redraw_due = False  # a redraw of the table screen waits in the message queue
        self.keys = KeyRouter(self)
        self._events_seen = 0  # events the screen has been told of
        self._said_at = 0  # how many it had been told of when the message was said
        self._surviving = False
        self._said: tuple[str, bool] = ("", False)  # the last message, and whether it is an error
        self._dropped_said = False  # the table's line says keys were dropped (after the last message)
        self.flow_under_way: tuple[str, Callable] | None = None  # the menu's flow on screen, and its name
        # one a result closed, to go on with after the payouts, with the answers it had
        self.interrupted_flow: tuple[str, Callable, tuple[Answer, ...]] | None = None
        if session is not None:
            self._opened(session)

    def _opened(self, session: TableSession) -> None:
        from croupier.board.model import board_for
        from croupier.ui.flow_memory import FlowMemory
        from croupier.ui.sheet_keeping import SheetKeeper

        self.session, self.opened = session, True
        self.flow_memory = FlowMemory()  # the answers the menu's flow on screen was given
        self.board = board_for(session.state)  # what the players' display board shows now
        self.sheet_keeper = SheetKeeper(session, self.config.table.id)  # and beside the journal, for a restart

    # --- life ----------------------------------------------------------------------------------

    def on_mount(self) -> None:
        if self.opening is None:
            self._start()
            return
        self.keys.hold()  # typed while the table starts: for the screens it starts with
        self.push_screen(StartScreen(self.config))
        self.call_after_refresh(self._open)  # once the first screen is on the terminal

    def _open(self) -> None:
        """The journal, its key, the start's clock check and the devices, once the first screen is drawn."""
        if self.opening is None or self._closing or self._closed:
            return  # quit, or its terminal hung up, before it opened: nothing is recorded
        try:
            session = self.opening(self)
        except Exception as error:
            if not isinstance(error, NotStarted):  # a bug: one line, the details in the log
                log_bug(error)
                error = NotStarted(f"cannot start ({type(error).__name__}): the log has the details", 1)
            self.not_started = error
            self.exit(return_code=error.status)
            return
        self._opened(session)
        self._start(replacing=True)
        self.call_after_refresh(self.keys.release)

    def _start(self, *, replacing: bool = False) -> None:
        """The table screen up (`replacing` the first screen), the timers and the flow the table starts with."""
        from croupier.ui.table_screen import TableScreen

        self.table_screen = TableScreen(show_board=self.show_board)
        (self.switch_screen if replacing else self.push_screen)(self.table_screen)
        self._events_seen = self.session.seq
        self._unsubscribe = self.session.subscribe(self._recorded)
        if self.board_output is not None:
            self.board_output(self.board)
        self.set_interval(CLOCK_S, self._clock)
        self.set_interval(TICK_S, self._tick)
        if self.notifier.interval:
            self.set_interval(self.notifier.interval, self.notifier.ping)
        # READY once the screen is drawn: systemd starts counting the watchdog from there. Before the
        # devices start, so one that fails never holds it back (systemd would kill the table).
        self.call_after_refresh(self.notifier.ready, f"table {self.config.table.id} ready")
        self.call_after_refresh(self._started)  # the first frame waits neither for the wheel's port nor a collection
        if self.needs_setup():
            self.start_flow("setup")

    def _recorded(self, event: ev.Event, state: TableState) -> None:
        """From the session's thread: the screen hears of it in its own loop."""
        self.post_message(TableRecorded(event, state))

    @cached_property
    def sensor(self):
        """The wheel's events as table commands: the wheel's modules are read once it reports, not
        before the first frame."""
        from croupier.sensor_table import SensorTable

        return SensorTable(self.session, on_void_result=self._void_result)

    def _started(self) -> None:
        collect_from_now()
        if not (self._closing or self._closed):
            self.devices.start(self)
        from croupier.history.context import configuration_disagrees

        disagreeing = configuration_disagrees(self.session.state, self.config.table)
        if disagreeing and not self.needs_setup():
            self.say(disagreeing[0])  # the journal's values are used; the pit boss menu takes the configuration's
        kept = self.sheet_keeper.start()
        if kept:
            self.say(f"{self._said[0]} · {kept}" if self._said[0] else kept, error=self.sheet_keeper.pending is None)

    def on_unmount(self) -> None:
        self.devices.stop()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.notifier.stopping()

    def needs_setup(self) -> bool:
        from croupier.table.state import Phase

        state = self.session.state
        return state.phase is Phase.CLOSED or not state.staff

    # --- what the screen shows -------------------------------------------------------------------

    def unacknowledged(self) -> bool:
        state = self.session.state
        return bool(state.last_void and state.last_void.awaits_acknowledgement) or any(
            a.acknowledged_by is None for a in state.alarms.values())

    def alarm_lines(self, now: datetime) -> tuple[list[str], bool]:
        """The banner: a golpe nulo from the sensor and the alarms to acknowledge (urgent), then
        what falls due soon."""
        from croupier.table.notices import notices
        from croupier.ui import text

        state = self.session.state
        lines = self.urgent_lines()
        if lines:
            lines[0] += "  " + _("(# acknowledges)")
        if self.journal_fault is not None:  # it cannot be recorded as an alarm: the journal takes nothing
            lines.insert(0, "[b]⚠ " + escape(_("JOURNAL STOPPED: {problem}").format(problem=self.journal_fault)) + "[/]")
        urgent = bool(lines)
        seen = [a for a in state.alarms.values() if a.acknowledged_by is not None]
        if seen:
            lines.append(ngettext("{count} acknowledged alarm waits for a pit boss to clear it",
                                  "{count} acknowledged alarms wait for a pit boss to clear them", len(seen)).format(
                count=len(seen)))
        lines += [escape(text.notice(notice)) for notice in notices(state, now)]
        return lines, urgent

    def urgent_lines(self) -> list[str]:
        """A golpe nulo from the sensor and the alarms not yet acknowledged, one line each."""
        from croupier.ui import text

        state = self.session.state
        lines = []
        void = state.last_void
        if void is not None and void.awaits_acknowledgement:
            where = "" if void.put_back is None else " · " + _("ball back in pocket {number}").format(
                number=void.put_back)
            lines.append("[b]⚠ " + escape(_("Void spin (sensor): {reason}").format(
                reason=text.void_reason(void.reason)) + where) + "[/]")
        waiting = [a for a in state.alarms.values() if a.acknowledged_by is None]
        for alarm in waiting:
            lines.append(f"[b]⚠ {text.alarm(alarm.kind)}[/] · {escape(text.alarm_detail(alarm))}")
        return lines

    def urgent_line(self) -> str:
        """The urgent lines folded into one, for the payout sheet: one alarm whole (cut at the
        screen's edge), several by their names and count."""
        from croupier.ui import text

        lines = self.urgent_lines()
        if len(lines) < 2:
            return "".join(lines)
        state = self.session.state
        names = [text.alarm(a.kind) for a in state.alarms.values() if a.acknowledged_by is None]
        if state.last_void is not None and state.last_void.awaits_acknowledgement:
            names.insert(0, _("Void spin (sensor)"))
        return "[b]⚠ " + escape(ngettext("{count} alarm: {names}", "{count} alarms: {names}", len(names)).format(
            count=len(names), names=" · ".join(names))) + "[/]"

    def resume_interrupted(self) -> None:
        """Back on the table screen with the payouts done: the flow a result closed opens again."""
        from croupier.table.payouts import payouts_open

        if self.interrupted_flow is None or payouts_open(self.session.state) is not None or self.keys.flow_running:
            return
        (name, flow, answers), self.interrupted_flow = self.interrupted_flow, None
        self.say(_("{flow} goes on where it was, after the payouts").format(flow=name) if answers
                 else _("{flow} again, after the payouts").format(flow=name))
        self.start_flow(name, flow, answers)

    def clear_refusal(self) -> None:
        """A refusal shown is about the step it ended: gone once the next question is asked (a
        question asked again for it carries it as its note: `standing_refusal`)."""
        if self._said[1]:
            self.say("")
        self.clear_dropped()

    def standing_refusal(self) -> str:
        """The refusal on screen now, if any."""
        message, error = self._said
        return message if error else ""

    def say(self, message: str, *, error: bool = False) -> None:
        self._dropped_said = False
        self._said_at = self.session.seq
        self._said = (message, error)
        self._say(message, error)
        if error:
            self.bell()

    def _say(self, message: str, error: bool) -> None:
        self.table_screen.say(message, error=error)
        on_top = getattr(self.screen, "say", None)  # a screen with its own message line (the payout sheet)
        if on_top is not None and self.screen is not self.table_screen:
            on_top(message, error=error)

    def say_dropped(self, count: int, on=None) -> None:
        """Keys typed for a step that has ended were dropped: said after what ended it, on `on`
        (a screen about to be shown), else on the screen on top."""
        message, error = self._said
        dropped = ngettext("{count} key typed for a step that had ended: dropped",
                           "{count} keys typed for a step that had ended: dropped", count).format(count=count)
        shown = f"{message} · {dropped}" if message else dropped
        screen = on or self.screen
        on_top = getattr(screen, "say", None)
        if on_top is not None and screen is not self.table_screen:
            self.clear_dropped()  # said on the table before the sheet came: the sheet says it now
            on_top(shown, error=error)  # about the sheet: the table's line under it keeps its own message
        else:
            self.table_screen.say(shown, error=error)
            self._dropped_said = True

    def clear_dropped(self) -> None:
        """The notice of dropped keys is about the step they were typed for: gone at the next one."""
        if self._dropped_said:
            self._dropped_said = False
            self.table_screen.say(*self._said[:1], error=self._said[1])

    # --- commands to the session --------------------------------------------------------------

    def record(self, command: Callable[P, list[ev.Event]], /, *args: P.args, **arguments: P.kwargs
               ) -> list[ev.Event] | None:
        """Run one session command (`app.record(app.session.void_spin, reason=..., by=...)`, its
        arguments checked against the command's); a refusal is shown (and nothing is recorded).
        None when refused."""
        from croupier.journal.store import JournalError
        from croupier.table.refusal import Refused

        try:
            events = command(*args, **arguments)
        except Refused as refusal:
            self.refused(refusal)
            return None
        except JournalError as exc:
            self.journal_failed(exc)
            return None
        self.say("")
        if self.flow_under_way is not None:
            self.flow_memory.recorded = True  # a flow going on after a result must not record it twice
        return events

    def check(self, rule_check: Callable[Concatenate[TableState, P], object], /, *arguments: P.args,
              **keywords: P.kwargs) -> bool:
        """Run a check of the table core against the state now (before asking for more keys);
        a refusal is shown at once. True when it passes."""
        from croupier.table.refusal import Refused

        try:
            rule_check(self.session.state, *arguments, **keywords)
        except Refused as refusal:
            self.refused(refusal)
            return False
        return True

    def refused(self, refusal: Refused) -> None:
        """A refusal ends the step the croupier was on: said, and the keys typed ahead dropped."""
        from croupier.ui import text

        self.say(_("Refused: {reason}").format(reason=text.refusal(refusal)), error=True)
        self.keys.step_ended()

    def journal_failed(self, exc: JournalError) -> None:
        from croupier.journal.store import JournalFault

        log.error("journal: %s", exc)
        if isinstance(exc, JournalFault):
            self.journal_fault = str(exc)
            self.table_screen.show()
        self.say(_("NOT RECORDED: the journal cannot be written ({problem})").format(problem=exc), error=True)

    def record_result(self, number: int) -> None:
        """A number typed and confirmed with the keypad rule: entered, then confirmed."""
        croupier = self.croupier()
        if self.record(self.session.enter_result, number=number, by=croupier) is not None:
            if self.record(self.session.confirm_result, number=number, by=croupier) is not None:
                self.keys.step_ended()  # the sheet of this result is on its way: keys typed so far are not for it

    def croupier(self) -> str | None:
        from croupier.table.events import Role

        return self.session.state.staff_on(Role.CROUPIER)

    @property
    def currency(self) -> str | None:
        """The journal's currency (the opening's, or the pit boss's change since); the configured
        one before the table first opened, or for a journal that recorded none (or not opened yet)."""
        return (self.opened and self.session.state.currency) or self.config.table.currency

    @property
    def time_zone(self) -> str | None:
        """The journal's time zone (the opening's, or the pit boss's change since); the configured
        one before the table first opened, or for a journal that recorded none (or not opened yet)."""
        return (self.opened and self.session.state.time_zone) or self.config.table.time_zone

    @property
    def presentation(self) -> Presentation:
        """Its own (else the command's) in the journal's currency and time zone: what a refusal
        quotes and the times the screen shows follow them."""
        base, zone, shown = self._presented
        found, currency = super().presentation, self.currency
        if found is not base or shown.currency != currency or zone != self.time_zone:
            zone = self.time_zone
            self._presented = found, zone, found.in_currency(currency).in_zone(zone)
        return self._presented[2]

    def acknowledge_next(self) -> bool:
        """# on an alarm: the croupier has seen it, recorded with their name. A golpe nulo from the
        sensor first, then the alarms."""
        void = self.session.state.last_void
        if void is not None and void.awaits_acknowledgement:
            self.record(self.session.acknowledge_void, by=self.croupier())
            return True
        for alarm in self.session.state.alarms.values():
            if alarm.acknowledged_by is None:
                self.record(self.session.acknowledge_alarm, alarm=alarm.id, by=self.croupier() or "")
                return True
        return False

    # --- screens and flows ----------------------------------------------------------------------

    def start_flow(self, name: str, flow=None, answers: tuple[Answer, ...] = ()) -> None:
        """Run the flow `name` (of flows.FLOWS), or the menu's `flow` given, which goes on where a
        result closed it: `answers` are the ones it was given then."""
        from croupier.ui import flows
        from croupier.ui.flow_memory import FlowMemory

        self.flow_memory = FlowMemory(answers)
        if flow is not None:
            self.flow_under_way = (name, flow)

        async def run() -> None:
            try:
                await (flow or flows.FLOWS[name])(self)
            except Exception as error:
                self.survive(error)
            finally:
                self.flow_under_way = None
                self.keys.flow_ended()

        self.keys.flow_started()  # now: the keys after this one are for the flow's dialogs
        self.run_worker(run(), group="flow", exclusive=True)

    def flow_begins(self, name: str, flow: Callable) -> None:
        """The menu opens `flow`: a result that closes it says so, and it goes on from there after."""
        from croupier.ui.flow_memory import FlowMemory

        self.flow_under_way = (name, flow)
        self.flow_memory = FlowMemory()

    def open_payouts(self, interrupted: str = "") -> None:
        """`interrupted`: the digits of a number being typed when the wheel's result came."""
        from croupier.table.payouts import payouts_open
        from croupier.ui.payout_screen import PayoutScreen

        if payouts_open(self.session.state) is None:
            self.say(_("There are no payouts under way"), error=True)
            return
        if isinstance(self.screen, PayoutScreen):
            return
        if not self.is_screen_installed("payouts"):
            self.install_screen(PayoutScreen(), "payouts")
        sheet = self.get_screen("payouts", PayoutScreen)
        if sheet in self.screen_stack:
            return  # under a dialog: it shows again when the dialog closes
        sheet.start(interrupted)
        self.push_screen(sheet)

    # --- messages from the threads and the session ---------------------------------------------

    @survived
    def on_wheel_report(self, message: WheelReport) -> None:
        from croupier.journal.store import JournalError
        from croupier.table.refusal import Refused
        from croupier.wheel.events import BallPosition, LinkStatus

        event = message.event
        if isinstance(event, LinkStatus) and event.online != self.sensor_online:
            self.sensor_online = event.online
            self.redraw()
        elif isinstance(event, BallPosition) and not event.in_previous_pocket and event.expected is not None:
            self.say(_("The ball is in pocket {pocket}: it goes back in {expected} (PT-A 22)").format(
                pocket=event.pocket, expected=event.expected), error=True)
        try:
            self.sensor.handle(event)
        except Refused as refusal:
            log.warning("wheel event not recorded: %s", refusal)
            self.say(_("Wheel: {reason}").format(reason=refusal), error=True)
        except JournalError as exc:
            self.journal_failed(exc)
        # What the wheel's report recorded comes back as TableRecorded: it redraws then.

    def _void_result(self, result) -> None:
        """PT-A 22: the wheel's number for a launch declared void; where its ball stopped does not count."""
        self.say(_("The wheel says {number}: not counted, the spin is void").format(number=result.number))

    def on_keypad_pressed(self, message: KeypadPressed) -> None:
        self.deliver_key(self.screen, message.key, message.time)

    @survived
    def deliver_key(self, screen, key, typed_at: float) -> None:
        """A key from either keypad, received by `screen` (croupier.ui.key_routing decides)."""
        self.keys.deliver(screen, key, typed_at)

    @survived
    def drain_keys(self) -> None:
        self.keys.drain()

    @survived
    def on_table_recorded(self, message: TableRecorded) -> None:
        from croupier.board.model import board_for
        from croupier.table import events as ev
        from croupier.table.state import Phase

        # the table moving on: what was said before is about a moment gone
        moves_on = (ev.BallLaunched, ev.BetsClosed, ev.ResultRecorded, ev.SpinVoided, ev.PayoutsCompleted)
        event, state = message.event, message.state
        self._events_seen += 1
        stale = isinstance(event, moves_on) and self._events_seen > self._said_at  # what was said is of a moment gone
        self.board = board_for(state)
        self.sheet_keeper.table_moved(state)
        if self.board_output is not None:
            self.board_output(self.board)
        interrupted = ""
        if isinstance(event, (ev.ResultRecorded, ev.SpinVoided)):
            release_styles_caches()  # once a spin: what the screens drew before is not kept
            if event.source is ev.Source.SENSOR:
                interrupted = self.table_screen.entry.typed
            self.table_screen.entry.reset()  # a number half typed for this spin means nothing now
        if isinstance(event, ev.AlarmRaised) or isinstance(event, ev.SpinVoided) and event.source is ev.Source.SENSOR:
            self.bell()
        if not self.screen_stack:  # the app is closing: the event is recorded, no screen shows it
            return
        if self.screen is self.table_screen:
            if isinstance(event, ev.ResultRecorded) and state.phase is Phase.PAYING:
                self.open_payouts(interrupted)
        else:
            refresh = getattr(self.screen, "table_changed", None)
            if refresh is not None:
                refresh()
            if isinstance(event, ev.ResultRecorded) and state.phase is Phase.PAYING and refresh is None:
                closed_flow = self.flow_under_way
                self.close_dialogs()  # a result comes while a menu is open: the sheet comes first
                self.open_payouts()
                if closed_flow is not None:  # said, and gone on with once the payouts are done
                    self.interrupted_flow = (*closed_flow, self.flow_memory.resumable())
                    said = _("{flow} interrupted by the result {number}: it goes on where it was once the "
                             "payouts are done").format(flow=closed_flow[0], number=event.number)
                    self.call_after_refresh(self.say, said, error=True)  # on the sheet, once it is drawn
        if stale:  # after the sheet is pushed: the table under it clears its line when seen, not before the sheet
            self._dropped_said = False
            self.table_screen.say("")
        self.redraw()

    def redraw(self) -> None:
        """Redraw the table screen once the messages already queued are handled: the events of one
        command (and the wheel lines read with them) make one redraw, not one each."""
        if not self._redraw_due:
            self._redraw_due = True
            self.call_later(self._redraw)

    def _redraw(self) -> None:
        self._redraw_due = False
        if not self.screen_stack:  # the app is closing
            return
        if self.screen is self.table_screen or self.screen.is_modal:  # seen, or seen under a dialog
            self.table_screen.show()
        # under a whole screen (the payout sheet) it is drawn when it is seen again (on_screen_resume):
        # a hidden screen laid out again has the screen on top written to the terminal once more

    # --- a bug survived ------------------------------------------------------------------------

    def survive(self, error: BaseException, *, new_screen: bool = False) -> None:
        """A bug in a screen or a handler: logged without secrets, said in a few words; the dialogs
        are closed, the flow under way dropped, and the table screen redrawn from the state folded
        again from the journal. `new_screen`: the table screen itself stopped, put a new one up."""
        if self._closing or self._closed or not self.screen_stack:
            log.debug("error while the app ends: %s", type(error).__name__)  # nothing to go on with
            return
        log_bug(error)
        if self._surviving:
            return  # the recovery itself failed: logged; the next key or event redraws
        self._surviving = True
        try:
            self.close_dialogs(every_screen=new_screen)
            if self.screen is not self.table_screen:
                from croupier.ui.table_screen import TableScreen

                self.table_screen = TableScreen(show_board=self.show_board)
                self.push_screen(self.table_screen)
            self.session.reload()
            self.table_screen.entry.reset()
            self.table_screen.say(_("Screen error ({kind}): the table goes on from the journal; "
                                    "the log has the details").format(kind=type(error).__name__), error=True)
            if self.table_screen.is_mounted:
                self.table_screen.show()
        except Exception as again:
            log_bug(again)
        finally:
            self._surviving = False
        self.bell()

    def close_dialogs(self, *, every_screen: bool = False) -> None:
        """Drop the flow under way and close its dialogs (`every_screen`: the table screen too)."""
        self.workers.cancel_group(self, "flow")
        self.keys.ahead.clear()
        self.keys.closed()
        while len(self.screen_stack) > 1 and (every_screen or self.screen is not self.table_screen):
            if isinstance(self.screen, KeypadKeys):
                self.screen.closed = True  # a key already queued for it is dropped
            self.pop_screen()

    def _handle_exception(self, error: Exception) -> None:
        """Textual's last resort for a bug outside the handlers guarded above (a widget drawing,
        a screen mounting): survived the same way, with a new table screen, never an exit with a
        traceback of local variables (they hold the staff's salts and PIN hashes)."""
        self.call_later(self.survive, error, new_screen=True)

    # --- timers ---------------------------------------------------------------------------------

    @survived
    def _clock(self) -> None:
        """Redraw when what the times show may have changed: minutes are shown, so every 10 s is
        enough; a betting countdown is shown in seconds."""
        if not self.screen_stack:
            return  # the app is ending
        now = self.session.clock.now()
        countdown = self.session.state.countdown_until
        shown = (int(now.timestamp() // 10), countdown is not None and now < countdown and now.second)
        if shown != self._shown_time and self.screen_stack and self.screen is self.table_screen:
            self._shown_time = shown
            self.table_screen.show()

    @survived
    def _tick(self) -> None:
        from croupier.journal.store import JournalError

        try:
            self.session.tick()
        except JournalError as exc:
            self.journal_failed(exc)

