"""The croupier's screen: the winning number, the last results, where the spin cycle stands, who is
on duty, the ball, the sensor, the alarms, the colours in play; the result typed on the keypad.

Keys, by what the table is doing (the legend at the foot always says):

    bets open        # launch the ball (no sensor), C the other direction, D menu
    ball launched    # no more bets; digits type the result (0, 4-9 at once; 1-3 wait for a second
                     digit or #), then # confirms; A golpe nulo
    no more bets     digits type the result; A golpe nulo
    payouts          B (or #) the payout sheet
    an alarm         # acknowledges it first

The screen decides nothing: each key sends one command to the session, which records it or says
why not.
"""
from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from croupier.i18n import _
from croupier.keypad.entry import Key, NumberEntry, Step
from croupier.rules.spin import Direction
from croupier.table.cycle import IN_SPIN, bets_to_declare
from croupier.table.payouts import payouts_open
from croupier.table.regulation import profile_of
from croupier.table.state import Phase, TableState
from croupier.ui import text
from croupier.ui.alarm_banner import AlarmBanner
from croupier.ui.board_view import BoardView
from croupier.ui.colours_panel import ColoursPanel
from croupier.ui.key_legend import KeyLegend
from croupier.ui.keypad_screen import KeypadScreen
from croupier.ui.keys import DIGITS
from croupier.ui.number_panel import WinningNumber
from croupier.ui.recent_results import RecentResults
from croupier.ui.redraw import update
from croupier.ui.screen_bug import survived
from croupier.ui.status_panel import TableStatus


class TableScreen(KeypadScreen[None]):
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # the 80x24 console; the 1024x600 panel

    def __init__(self, *, show_board: bool = False) -> None:
        super().__init__()
        self.show_board = show_board
        self.entry = NumberEntry()
        self.launch_direction: Direction | None = None  # chosen with C; None: the alternate one
        self._shown_state: TableState | None = None  # the state the panels drawn from it show
        self._said: tuple[str, bool] | None = None  # the message, drawn when the screen is seen

    def compose(self) -> ComposeResult:
        yield Static("", id="title")
        with Horizontal(id="top"):
            yield WinningNumber(id="winning")
            yield TableStatus(id="status")
        yield RecentResults("", id="recent")
        yield AlarmBanner(id="alarms")
        with Horizontal(id="middle"):
            yield ColoursPanel("", id="colours")
            if self.show_board:
                yield BoardView(id="board")
        yield Static("", id="prompt")
        yield Static("", id="message")
        yield KeyLegend(id="legend")

    @survived
    def on_mount(self) -> None:
        if self._said is None and self.app.banner:
            self._said = (self.app.banner, False)
        self.show()

    def on_screen_resume(self) -> None:
        self.show()  # the table may have moved on while another screen was on top
        self.app.resume_interrupted()

    # --- showing the table ---------------------------------------------------------------------

    def show(self) -> None:
        """Redraw from the session's state (after an event, a key, or a minute passing)."""
        titles = self.query("#title").results(Static)
        title = next(titles, None)
        if not self.is_attached or title is None:
            return  # replaced after a bug, not composed yet, or being taken down: drawn on mount
        app = self.app
        state, now = app.session.state, app.session.clock.now()
        config = app.config.table
        limits = "" if state.minimum is None else " · " + _("minimum {amount}").format(
            amount=text.money(state.minimum, config.currency))
        update(title,
               f"[b]{escape(config.name)}[/] · {escape(state.profile or config.profile)}{limits}")
        self.query_one(WinningNumber).show(state.last_result)
        self.query_one(TableStatus).show(state, now, app.sensor_online)
        self.query_one(RecentResults).show(state.recent, config.currency)
        if state is not self._shown_state:  # the state is never changed in place: a new one is a change
            self.query_one(ColoursPanel).show(state, config.currency)
            self._shown_state = state
        if self.show_board:
            board = self.query_one(BoardView)
            if board.board != app.board:
                board.show(app.board)
        lines, urgent = app.alarm_lines(now)
        self.query_one(AlarmBanner).show(lines, urgent)
        update(self.query_one("#prompt", Static), self._prompt(state))
        self.query_one(KeyLegend).show(self._legend(state))
        self._show_said()

    def say(self, message: str, *, error: bool = False) -> None:
        """The message line. Under a whole screen (the payout sheet) it is drawn when the table is
        seen again: a hidden screen laid out again delays the screen on top."""
        self._said = (message, error)
        if self.is_attached and self.children and (self.app.screen is self or self.app.screen.is_modal):
            self._show_said()

    def _show_said(self) -> None:
        if self._said is None:
            return
        message, error = self._said
        widget = self.query_one("#message", Static)
        widget.set_class(error, "error")
        update(widget, escape(message))

    def _next_direction(self, state: TableState) -> Direction:
        if self.launch_direction is not None:
            return self.launch_direction
        last = state.last_direction
        return Direction.CLOCKWISE if last is None else last.opposite()  # PT-A 21: it alternates

    def _keypad_launch(self) -> bool:
        return self.app.sensor_online is not True

    def _prompt(self, state: TableState) -> str:
        if self.entry.typed:
            if self.entry.proposed is not None:
                return _("Result [b reverse] {number} [/] ? # confirms, * cancels").format(number=self.entry.proposed)
            return _("Result [b reverse] {typed}_ [/] a second digit, or # for {typed}").format(typed=self.entry.typed)
        if state.voided:
            put_back = state.voided.put_back  # PT-A 22: the previous result's pocket
            where = _("put the ball back in pocket {number}").format(number=put_back) if put_back is not None \
                else _("no previous result: the ball goes in any pocket")
            return "[b]" + _("Void spin") + "[/] · " + where + " · " + _("waiting for the next launch")
        phase = state.phase
        if phase is Phase.BETTING:
            if self._keypad_launch() and bets_to_declare(state):  # RU 4.9: # says the bets are down
                return _("# launches the ball {direction}: the bets are down on the layout ({rule})").format(
                    direction=text.direction(self._next_direction(state)),
                    rule=profile_of(state).rules["min_bets_per_spin"])
            if self._keypad_launch():
                return _("# launches the ball {direction}").format(
                    direction=text.direction(self._next_direction(state)))
            return _("Waiting for the wheel to launch")
        if phase is Phase.SPINNING:
            return _("Type the result, or # for no more bets")
        if phase is Phase.NO_MORE_BETS:
            return "[b]" + _("No more bets") + "[/] · " + (
                _("waiting for the wheel, or type the result") if self.app.sensor_online else _("type the result"))
        if phase is Phase.CONFIRMING and state.pending is not None:
            return _("{number} entered: # confirms it").format(number=state.pending.number)
        if phase is Phase.PAYING:
            return _("Pay the winners: B opens the payout sheet")
        if phase is Phase.CLOSED:
            return _("The table is closed: D opens the menu")
        return ""

    def _legend(self, state: TableState) -> list:
        if self.entry.typed:
            return [(DIGITS, _("number")), (Key.ENTER, _("confirm")), (Key.CLEAR, _("clear")),
                    (Key.CANCEL, _("cancel"))]
        legend: list = []
        if self.app.unacknowledged():
            legend.append((Key.ENTER, _("acknowledge the alarm")))
        phase = state.phase
        if phase is Phase.BETTING and self._keypad_launch():
            legend += [(Key.ENTER, _("launch")), (Key.CLEAR, _("other direction"))]
        elif phase is Phase.SPINNING:
            legend += [(DIGITS, _("result")), (Key.ENTER, _("no more bets"))]
        elif phase in (Phase.NO_MORE_BETS, Phase.CONFIRMING):
            legend.append((DIGITS, _("result")))
            if phase is Phase.CONFIRMING:
                legend.append((Key.ENTER, _("confirm")))
        if phase in IN_SPIN:
            legend.append((Key.VOID, _("void spin")))
        if payouts_open(state) is not None:  # also the last spin's, late, after the wheel launched the next ball
            legend.append((Key.PAYOUTS, _("payouts")))
        legend.append((Key.MENU, _("menu")))
        meant: dict[Key | str, str] = {}  # one meaning per key: the first, as the key does it
        for key, meaning in legend:
            meant.setdefault(key, meaning)
        return list(meant.items())

    # --- keys ------------------------------------------------------------------------------------

    def press(self, key: Key) -> None:
        app = self.app
        state = app.session.state
        if self.entry.typed or (key.digit is not None and state.phase in IN_SPIN):
            self._type(key)
        elif key is Key.ENTER:
            self._enter(state)
        elif key.digit is not None:
            self.say(_("The result is typed once the ball is launched"), error=True)
        elif key is Key.VOID:
            if state.phase in IN_SPIN:
                app.start_flow("void")
            else:
                self.say(_("A spin is declared void between the launch and the result (PT-A 22)"), error=True)
        elif key is Key.PAYOUTS:
            app.open_payouts()
        elif key is Key.MENU:
            app.start_flow("menu")
        elif key is Key.CLEAR and state.phase is Phase.BETTING and self._keypad_launch():
            self.launch_direction = self._next_direction(state).opposite()
        elif key is Key.CANCEL:
            self.say("")
        self.show()

    def _type(self, key: Key) -> None:
        entry = self.entry.press(key)
        if entry.step is Step.REJECTED:
            self.say(entry.message, error=True)
        elif entry.step is Step.CONFIRMED and entry.number is not None:  # a confirmed entry carries its number
            self.app.record_result(entry.number)
        elif entry.step is Step.CANCELLED:
            self.say(_("Entry cancelled"))
        elif entry.step is Step.NOT_ENTRY:  # A, B, D while typing: leave the number as it is
            self.say(_("Finish or cancel the number first"), error=True)

    def _enter(self, state: TableState) -> None:
        app = self.app
        if app.acknowledge_next():
            return
        if state.phase is Phase.BETTING:
            if self._keypad_launch():
                if app.record(app.session.launch, direction=self._next_direction(state),
                              bets_on_layout=bets_to_declare(state)):
                    self.launch_direction = None
            else:
                self.say(_("The wheel sensor reports the launch"))
        elif state.phase is Phase.SPINNING:
            app.record(app.session.close_bets)
        elif state.phase is Phase.CONFIRMING and state.pending is not None:
            app.record(app.session.confirm_result, number=state.pending.number)
        elif state.phase is Phase.PAYING:
            app.open_payouts()
