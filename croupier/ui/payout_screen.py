"""The payout sheet on screen: after a result, the winning positions in the profile's payout order;
per colour, then for value chips where the profile lets them on a winner, the croupier types the
chips on each (value chips: the amount in money, `PT-A 16`, `PT-B 15b`), and sees the colour's
payout in chips (stacks of 20 and the rest) and in money, and the table's total. D records the
payouts: the session checks the counts against the limits and settles them; a refusal is shown here
and nothing is recorded.

    digits  chips on the highlighted position (over a count: a new count; 0 clears it)
    #       next position (the last stays: B, D)
    C       the last digit typed off; with none typed, up a row, its count kept (from the first: the pleins)
    B       next colour
    A       the colour played (lost on the layout)
    D       payouts done: record them
    *       back to the table (the counts are kept)

A line lists the colours that played this spin (`PT-A 12` counts the spins a colour sits out):
winners and colours with bets on record are on it at once; A adds the colour shown, or takes it off.
"""
from __future__ import annotations

from decimal import Decimal

from rich.cells import cell_len
from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.events import ScreenResume
from textual.widgets import Static

from croupier.i18n import _
from croupier.keypad.entry import Key
from croupier.rules.names import VALUE_CHIPS
from croupier.rules.wheel import colour as number_colour
from croupier.table.payouts import payouts_open
from croupier.table.regulation import profile_of, sign_of
from croupier.table.state import Phase, Spin
from croupier.ui import text
from croupier.ui.key_legend import KeyLegend
from croupier.ui.keypad_screen import KeypadScreen
from croupier.ui.key_routing import now
from croupier.ui.keys import DIGITS
from croupier.ui.payout_sheet import PayoutSheet
from croupier.ui.redraw import update
from croupier.ui.screen_bug import survived

MAX_DIGITS = 4


class PayoutScreen(KeypadScreen[None]):
    """One sheet for the whole session: the app installs it once and pushes it for every result, so
    a result reaches the screen without building a screen again (`start`). The rows are the lines of
    one widget: every widget on the sheet is restyled when it is pushed, and the croupier waits for it."""

    def __init__(self) -> None:
        super().__init__(id="payouts")
        self.spin: Spin | None = None  # the result being paid, once on screen
        self.start()

    def start(self, interrupted: str = "") -> None:
        """About to be pushed for the sheet of the table's last result: from its first colour and row.
        `interrupted`: the digits of a number the croupier was typing when the wheel's result came:
        the digits after them were typed for that number, so the rows take none until # is pressed."""
        self.closed = False
        self.colour_at = 0
        self.row_at = 0
        self.typed = ""
        self.interrupted = interrupted
        self.empty_asked = False  # D on a sheet with nothing counted asks once more
        self.asked_at = float("inf")  # no key is an answer to the sheet before it is drawn
        self._pushed = True  # opened on mount (the first time) or on resume
        if self.is_mounted:  # made before it is pushed: its first frame is laid out as it stays
            self._new_result()

    def compose(self) -> ComposeResult:
        yield Static("", id="payout-title")
        yield Static("", id="payout-alarm")
        yield Static("", id="payout-colour")
        yield Static("", id="payout-played")
        with VerticalScroll(id="payout-rows"):
            yield Static("", id="payout-lines")
        yield Static("", id="payout-pleins")  # the winning plein, below the rows that scroll: always in view
        yield Static("", id="payout-total")
        yield Static("", id="payout-message")
        yield KeyLegend(id="payout-legend")

    @survived
    def on_mount(self) -> None:
        self._pushed = False
        self._open(self.app.session.state.last_result)

    @survived
    def on_screen_resume(self, event: ScreenResume) -> None:
        """Pushed again for a new result (not back from a dialog over the sheet)."""
        # Textual restyles a pushed screen whole, for styles changed while it was away: this sheet's
        # classes are restyled as they change and the app has one theme, so the result waits for nothing.
        event.refresh_styles = False
        if self._pushed:
            self._new_result()

    def _new_result(self) -> None:
        """The sheet of the table's last result, made while the screen is not shown: Textual writes
        a pushed screen at its first timer tick, which may come before the screen hears it was
        pushed, and would write the last sheet laid out with this one's rows, then this one."""
        self._pushed = False
        self.say("")  # what the last sheet said ("payouts recorded") is not about this one
        self._open(self.app.session.state.last_result)

    def _legend(self) -> None:
        """One meaning per key, for the row the croupier is on."""
        if self.interrupted:  # digits are dropped and # moves no row until the croupier has seen the sheet
            self.query_one(KeyLegend).show([(Key.ENTER, _("start counting")), (Key.PAYOUTS, _("next colour")),
                                            (Key.MENU, _("payouts done")), (Key.CANCEL, _("back"))])
            return
        counted = self._counted_rows()
        row = counted[self.row_at] if counted else None
        if row is None:
            clear = []
        elif self.typed:
            clear = [(Key.CLEAR, _("delete digit"))]
        elif self.row_at > 0:
            clear = [(Key.CLEAR, _("up"))]
        else:
            clear = [(Key.CLEAR, _("pleins"))] if self._pleins_at() is not None else []
        last = not counted or self.row_at + 1 >= len(counted)
        self.query_one(KeyLegend).show([
            (DIGITS, _("amount") if self.colour == VALUE_CHIPS else _("chips")),  # value chips: money typed
            *([] if last else [(Key.ENTER, _("next"))]), *clear,
            (Key.PAYOUTS, _("next colour")), *([(Key.VOID, _("played"))] if self.colour in self.sheet.players else []),
            (Key.MENU, _("payouts done")),
            (Key.CANCEL, _("back")),
        ])

    def _pleins_at(self) -> int | None:
        """The first plein among the rows to count, when it is not the row the croupier is on."""
        counted = self._counted_rows()
        at = next((i for i, row in enumerate(counted) if row.category == "pleins"), None)
        return None if at is None or at == self.row_at else at

    def _open(self, spin) -> None:
        """The sheet of `spin` as the table holds it now: the counts kept while it is the same
        result (leaving the sheet and coming back keeps them), a new sheet for a corrected number."""
        app = self.app
        state = app.session.state
        sheet = app.payout_sheet  # kept on the app
        if sheet is None or (sheet.spin, sheet.number) != (spin.spin, spin.number):
            assert state.minimum is not None, "a result comes only at an opened table, its minimum set"
            sheet = app.payout_sheet = PayoutSheet(
                spin.spin, spin.number, profile_of(state), state.minimum,
                {colour: account.chip_value for colour, account in state.accounts.items()}, spin.stakes,
                known_played=state.played, sign=sign_of(state), value_only=state.value_only,
                marked=bool(state.marked_values))
            self.colour_at = self.row_at = 0
            self.typed = ""
            restored = app.sheet_keeper.restore(sheet, spin)  # the counts typed before a restart
        else:
            restored = ""
        self.sheet = sheet
        self.spin = spin
        update(self.query_one("#payout-title", Static),
            _("Payouts · {number} {colour} · spin {spin}").format(
                number=text.number_markup(spin.number), colour=text.colour_name(number_colour(spin.number)),
                spin=spin.spin))
        self._build()
        self.asked_at = now()  # keys typed before this are not counts of this sheet
        if self.interrupted:
            self._say_interrupted()
        elif restored:
            self.say(restored)
        elif app.keys.dropped:  # keys typed for the result this sheet ended: said here, where the croupier looks
            app.say_dropped(app.keys.dropped, on=self)  # also when it is about to be pushed again

    def _say_interrupted(self) -> None:
        self.say(_("The wheel read {number} while {typed} was typed: {typed} dropped · # to count").format(
            number=self.sheet.number, typed=self.interrupted), error=True)

    # --- what is shown --------------------------------------------------------------------------

    @property
    def colour(self) -> str | None:
        colours = self.sheet.colours
        return colours[self.colour_at] if colours else None

    def _counted_rows(self) -> list:
        return [row for row in self.sheet.rows(self.colour) if row.recorded is None] if self.colour else []

    def _build(self) -> None:
        """The rows of the current colour, from the top."""
        self.query_one("#payout-rows", VerticalScroll).scroll_home(animate=False)
        self._show()

    def _show(self) -> None:
        colour = self.colour
        state = self.app.session.state
        currency = self.app.currency
        update(self.query_one("#payout-played", Static), self._played_line())
        self._legend()
        alarm = self.app.urgent_line()  # a number that may be wrong is seen before it is paid
        update(self.query_one("#payout-alarm", Static), alarm)
        self.query_one("#payout-alarm", Static).display = bool(alarm)
        if colour is None:
            update(self.query_one("#payout-lines", Static), escape(" " + _("No colour in play: nothing to pay.")))
            update(self.query_one("#payout-colour", Static), "")
            update(self.query_one("#payout-total", Static), _("D records the payouts done"))
            return
        account = state.accounts.get(colour)
        player = f" · {escape(account.player)}" if account else ""
        if colour == VALUE_CHIPS and self.sheet.value_marked:  # PT-A 16: value-marked chips, on any bet
            update(self.query_one("#payout-colour", Static),
                _("[b]Value-marked chips[/]: type the amount on each position, in {currency}").format(
                    currency=currency))
        elif colour == VALUE_CHIPS:  # after the colours where the profile lets them (PT-A 16), or alone (PT-B 15b)
            update(self.query_one("#payout-colour", Static),
                _("[b]Value chips[/]: type the amount on each position, in {currency}").format(currency=currency))
        else:
            update(self.query_one("#payout-colour", Static),
                _("Colour {at} of {count}: [b]{colour}[/]{player} · chip {value}").format(
                    at=self.colour_at + 1, count=len(self.sheet.players), colour=escape(text.colour_name(colour)),
                    player=player, value=text.money(self.sheet.chip_values[colour], currency)))
        payout = self.sheet.payout(colour)
        counted = self._counted_rows()
        current = counted[self.row_at] if counted else None
        previous = None
        rows: list[str] = []
        pleins: list[str] = []
        current_at: int | None = None
        sheet_rows = self.sheet.rows(colour)
        # A category's name is never run into its first position ("Chances semplici" is 16 letters).
        room = max([15, *(cell_len(text.category(row.category)) for row in sheet_rows)]) + 1
        for row in sheet_rows:
            category = text.category(row.category) if row.category != previous else ""
            previous = row.category
            if row.recorded is not None:
                chips = f"{row.recorded}×"
                note = _("recorded")
            elif row == current and self.typed:
                chips = self.typed + "_"
                note = ""
            else:
                count = self.sheet.counted(colour, row.spec)
                chips = str(count) if count else "·"
                note = ""
            won, kept, held = payout.won_on(row.spec), payout.kept_on(row.spec), payout.imprisoned_on(row.spec)
            # A losing bet that keeps part of its stake: simple chances on zero (PT-B 29 half back;
            # FR halved at once, the odd chip en prison: 5 on red return 2, 1 en prison, 2 lost).
            pays = " · ".join(
                [_("pays {chips}").format(chips=text.chips(won))] if won else
                [*([_("returns {chips}").format(chips=text.chips(kept))] if kept else []),
                 *([_("{chips} en prison").format(chips=text.chips(held))] if held else [])])
            line = f" {category:<{room}}{text.position(row.spec):<22}{chips:>5}  {pays} {note}"
            into = pleins if row.category == "pleins" else rows
            if row == current:
                current_at = len(rows) if into is rows else None
                into.append(f"[b black on white]{escape(line.ljust(self._rows_width()))}[/]")
            else:
                into.append(escape(line))
        update(self.query_one("#payout-lines", Static), "\n".join(rows))
        update(self.query_one("#payout-pleins", Static), "\n".join(pleins))
        self.query_one("#payout-pleins", Static).display = bool(pleins)
        if current_at is not None:
            self._keep_visible(current_at)
            self.call_after_refresh(self._keep_visible, current_at)  # once laid out, the box's height known
        lines = []
        total = payout.total
        if colour == VALUE_CHIPS:
            lines.append(_("Value chips are paid {money}").format(
                money=text.money(total.money if total is not None and total.won and total.money is not None
                                 else Decimal(0), currency)))
        elif total is not None and total.won:
            money = "" if total.money is None else " · " + text.money(total.money, currency)
            lines.append(_("{colour} is paid {chips} = {stacks}{money}").format(
                colour=escape(text.colour_name(colour)), chips=text.chips(total.won),
                stacks=text.stacks(total.stacks, total.remainder), money=money))
        else:
            lines.append(_("{colour} is paid nothing").format(colour=escape(text.colour_name(colour))))
        for problem in payout.problems:
            lines.append(f"[b red]{escape(text.limit_check(problem))} ({escape(problem.rule)})[/]")
        table_money, by_chip_value = self.sheet.table_total()
        by_value = [f"{text.chips(count)} × {text.money(value)}" for value, count in by_chip_value.items()]
        valued = self.sheet.payout(VALUE_CHIPS).total if VALUE_CHIPS in self.sheet.colours else None
        if by_chip_value and valued is not None and valued.won and valued.money is not None:  # already money
            by_value.append(_("{money} in value chips").format(money=text.money(valued.money)))
        lines.append(_("Table pays {money}").format(money=text.money(table_money, currency))
                     + (f" ({' + '.join(by_value)})" if by_value else ""))
        update(self.query_one("#payout-total", Static), "\n".join(lines))

    def _rows_width(self) -> int:
        """The width of a row, for the current one's bar: the box's once laid out, else the screen's."""
        return self.query_one("#payout-rows", VerticalScroll).scrollable_content_region.width or self.app.size.width

    def _keep_visible(self, at: int) -> None:
        """Scroll the rows so that line `at` is in view."""
        if not self.is_attached:
            return
        box = self.query_one("#payout-rows", VerticalScroll)
        height = box.scrollable_content_region.height
        if at < box.scroll_y:
            box.scroll_to(y=at, animate=False)
        elif height and at >= box.scroll_y + height:
            box.scroll_to(y=at - height + 1, animate=False)

    def _played_line(self) -> str:
        """Who played and who was not seen to (PT-A 12); the colour on screen in bold, underlined."""
        sheet = self.sheet
        if not sheet.players:  # a table of value chips only (PT-B 15b): no player to count
            return ""

        def names(played: bool) -> str:
            shown = [f"[b u]{escape(text.colour_name(c))}[/]" if c == self.colour else escape(text.colour_name(c))
                     for c in sheet.players if sheet.played(c) == played]
            return ", ".join(shown) or "-"

        rule = profile_of(self.app.session.state).inactivity.rule
        return _("Played ({rule}): {played} · not seen: {unknown}").format(
            rule=rule, played=names(True), unknown=names(False))

    # --- keys -----------------------------------------------------------------------------------

    def press(self, key: Key) -> None:
        counted = self._counted_rows()
        if self.interrupted:  # the digits typed next were for the number the result interrupted
            if key.digit is not None:
                self.app.bell()
                self._say_interrupted()
                return
            self.interrupted = ""
            if key is Key.ENTER:
                self.say("")
                self._legend()
                return
        if key is not Key.MENU:
            self.empty_asked = False
        if key not in (Key.CANCEL, Key.MENU):
            self.say("")  # what was said is about the key before
        if key is Key.CANCEL:
            self.dismiss(None)
            return
        if key is Key.MENU:
            self._done()
            return
        if key.digit is not None and counted and self.colour:  # rows to count are a colour's
            if len(self.typed) < MAX_DIGITS:
                self.typed = (self.typed + key.value).lstrip("0") or "0"
                self.sheet.count(self.colour, counted[self.row_at].spec, int(self.typed))
            else:
                self.app.bell()
        elif key is Key.CLEAR and counted and self.colour:
            if self.typed:  # a digit typed wrong: off, the ones before it stay
                self.typed = self.typed[:-1]
                self.sheet.count(self.colour, counted[self.row_at].spec, int(self.typed or 0))
            elif self.row_at > 0:  # back up a row (a count there stays): from the pleins, the last split
                self.row_at -= 1
            elif (pleins_at := self._pleins_at()) is not None:  # from the first row straight to the pleins
                self.row_at = pleins_at
        elif key is Key.ENTER:
            self.typed = ""
            if counted and self.row_at + 1 < len(counted):
                self.row_at += 1
            else:  # the colour's last position: the croupier moves on with B, or records with D
                self.say(_("{colour}: last position · B next colour · D records the payouts").format(
                    colour=text.colour_name(self.colour)) if self.colour else "")
        elif key is Key.PAYOUTS:
            self.typed = ""
            self._next_colour()
            return
        elif key is Key.VOID and self.colour in self.sheet.players:  # value chips are no player's
            if not self.sheet.mark_played(self.colour):
                self.say(_("{colour} has chips on a winner or bets on record: it played").format(
                    colour=text.colour_name(self.colour)))
        if self.spin is not None:
            self.app.sheet_keeper.keep(self.sheet, self.spin)
        self._show()

    def _next_colour(self) -> None:
        if len(self.sheet.colours) > 1:
            self.colour_at = (self.colour_at + 1) % len(self.sheet.colours)
            self.row_at = 0
            self._build()
        else:
            self.row_at = 0
            self._show()

    def say(self, message: str, *, error: bool = False) -> None:
        widget = self.query_one("#payout-message", Static)
        widget.set_class(error, "error")
        update(widget, escape(message))
        widget.display = bool(message)  # the rows keep the room while there is nothing to say

    def _done(self) -> None:
        app = self.app
        if not (self.sheet.counts or self.sheet.marked or self.empty_asked) and self.sheet.colours:
            self.empty_asked = True  # a D typed too soon, or for the next spin: the croupier confirms
            self.say(_("Nothing is counted on spin {spin}: D again records it with no chips counted, "
                       "* goes back").format(spin=self.sheet.spin), error=True)
            app.bell()
            return
        late = app.session.state.phase is not Phase.PAYING  # the wheel already launched the next ball
        if app.record(app.session.record_payouts, spin=self.sheet.spin, paid=self.sheet.paid(),
                      played=self.sheet.played_colours(), by=app.croupier()) is not None:
            app.say(_("Payouts of spin {spin} recorded").format(spin=self.sheet.spin) if late
                    else _("Payouts recorded: bets are open"))
            self.dismiss(None)

    @survived
    def table_changed(self) -> None:
        """The table moved on. The wheel launching the next ball leaves these counts recordable for
        their spin; a new result, or the payouts recorded elsewhere, ends them; a correction of the
        spin's number puts the sheet on the new number."""
        if self.spin is None:
            return  # not on screen yet: it opens on the table as it is then
        state = self.app.session.state
        if payouts_open(state) != self.spin.spin:
            self.dismiss(None)
            return
        now = next((s for s in state.recent if s.spin == self.spin.spin), self.spin)
        if now.number != self.sheet.number:
            self._open(now)
            self.say(_("Spin {spin} corrected to {number}: count its winners again").format(
                spin=now.spin, number=now.number), error=True)
        else:
            self._show()
