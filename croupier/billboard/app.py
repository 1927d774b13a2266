"""The players' monitor: a read-only Textual app over the journal. It never touches hardware and
never writes; it polls the journal for new events twice a second."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from croupier.billboard.feed import JournalFeed
from croupier.billboard.model import BallChange, Billboard, GolpeNulo, NewLimits
from croupier.i18n import N_, _, formats, ngettext
from croupier.i18n.presentation import Presentation, Shows
from croupier.journal.store import JournalError
from croupier.rules.wheel import colour
from croupier.table.clock import Clock, SystemClock
from croupier.history.words import BET_KINDS
from croupier.screens import words
from croupier.screens.big_digits import big

POLL_S = 0.5
SHOWN_FOR = timedelta(minutes=2)  # how long a ball change or new limits stay announced
LIMIT_KINDS = ("plein", "split", "street", "corner", "line", "dozen", "column", "simple")


class BillboardApp(Shows, App):
    CSS_PATH = "billboard.tcss"
    TITLE = "croupier billboard"
    ENABLE_COMMAND_PALETTE = False
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # a tall screen gets the five-row number

    def __init__(self, path: str | Path, *, table_name: str = "", currency: str = "EUR", clock: Clock | None = None,
                 poll_s: float = POLL_S, presentation: Presentation | None = None) -> None:
        super().__init__()
        self.given_presentation = presentation  # its language and zones, else the command's
        self.path = Path(path)
        self.table_name = table_name
        self.currency = currency
        self.clock = clock or SystemClock()
        self.poll_s = poll_s
        self.feed: JournalFeed | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="bb-title")
        with Horizontal(id="bb-top"):
            with Vertical(id="bb-number"):
                yield Digits("", id="bb-digits")
                yield Static("", id="bb-big")
                yield Static("", id="bb-caption")
            with Vertical(id="bb-side"):
                yield Static("", id="bb-last")
                yield Static("", id="bb-hot-cold")
                yield Static("", id="bb-shares")
        yield Static("", id="bb-announcement")
        with Horizontal(id="bb-bottom"):
            yield Static("", id="bb-limits")
            yield Static("", id="bb-values")

    def on_mount(self) -> None:
        self._open()
        self.set_interval(self.poll_s, self._poll)

    def on_unmount(self) -> None:
        if self.feed is not None:
            self.feed.close()

    def _open(self) -> None:
        try:
            self.feed = JournalFeed(self.path)
        except JournalError as exc:
            # The usual case, the table not started yet, in the table's language; any other problem
            # as the journal words it.
            waiting = (_("Waiting for the table: no journal yet at {path}").format(path=self.path)
                       if not Path(self.path).exists() else _("Waiting for the table ({problem})").format(problem=exc))
            self.query_one("#bb-title", Static).update(escape(waiting))
            return
        self.show(self.feed.board)

    def _poll(self) -> None:
        if not self.query("#bb-title"):
            return  # the app is closing: its widgets are gone before its timer stops
        if self.feed is None:
            self._open()
        elif self.feed.poll():
            self.show(self.feed.board)
        elif self.feed.board.announcement is not None:
            self._announce(self.feed.board)  # an announcement's time may be up

    # --- what is shown -------------------------------------------------------------------------

    def show(self, board: Billboard) -> None:
        state = board.state
        self.query_one("#bb-title", Static).update(f"[b]{escape(self.table_name)}[/]  {words.phase(state.phase)}")
        number = self.query_one("#bb-number", Vertical)
        number.remove_class("red", "black", "green")
        shown = "" if board.last is None else f"{board.last:>2}"
        self.query_one("#bb-digits", Digits).update(shown)
        self.query_one("#bb-big", Static).update(big(shown) if shown else "")
        if board.last is None:
            self.query_one("#bb-caption", Static).update("")
        else:
            number.add_class(colour(board.last))
            self.query_one("#bb-caption", Static).update(words.colour_name(colour(board.last)))
        last = " ".join(words.number_markup(n) for n in board.last_numbers())
        self.query_one("#bb-last", Static).update(_("Last numbers") + "\n" + (last or "—"))
        self.query_one("#bb-hot-cold", Static).update(self._hot_cold(board))
        self.query_one("#bb-shares", Static).update(self._shares(board))
        self.query_one("#bb-limits", Static).update(self._limits(board))
        values = self.query_one("#bb-values", Static)
        values.display = not board.state.value_only  # PT-B 15b: a table of value chips only has no colours
        values.update(self._values(board))
        self._announce(board)

    def _hot_cold(self, board: Billboard) -> str:
        if not board.results:
            return ""
        hot = "  ".join(f"{words.number_markup(n)}×{c}" for n, c in board.hot())
        cold = "  ".join(f"{words.number_markup(n)}×{c}" for n, c in board.cold())
        return _("Hot") + f"  {hot}\n" + _("Cold") + f"  {cold}"

    def _shares(self, board: Billboard) -> str:
        def share(percentage: float) -> str:
            return formats.percent(percentage / 100)

        shares = board.shares()
        if shares is None:
            return ""
        d1, d2, d3 = shares.dozens
        return "\n".join([
            ngettext("Last {spins} spin", "Last {spins} spins", shares.spins).format(spins=shares.spins),
            _("Red {red}  Black {black}  Zero {zero}").format(red=share(shares.red), black=share(shares.black),
                                                              zero=share(shares.zero)),
            _("Odd {odd}  Even {even}").format(odd=share(shares.odd), even=share(shares.even)),
            _("Dozens {first} {second} {third}").format(first=share(d1), second=share(d2), third=share(d3)),
        ])

    def currency_of(self, board: Billboard) -> str:
        """The journal's currency (the opening's, or the pit boss's change since); the configured one
        only for a journal that recorded none."""
        return board.state.currency or self.currency

    def _limits(self, board: Billboard) -> str:
        limits = board.limits()
        if limits is None:
            return ""
        lines = [_("Table limits ({currency})").format(currency=self.currency_of(board))]
        # Columns as wide as their widest entry: a row fits half an 80-column console unwrapped.
        rows = [(_(BET_KINDS[kind]), formats.money(limits[kind][0]), formats.money(limits[kind][1]))
                for kind in LIMIT_KINDS]
        name_w, low_w, high_w = (max(len(row[i]) for row in rows) for i in range(3))
        lines += [f"{name:<{name_w}} {low:>{low_w}} – {high:>{high_w}}" for name, low, high in rows]
        return "\n".join(lines)

    def _values(self, board: Billboard) -> str:
        values = board.colour_values()
        # PT-A 9: the value of each colour in play, shown at the table.
        lines = [_("Colour values ({currency})").format(currency=self.currency_of(board))]
        lines += [f"{escape(words.colour_name(c)):<10}{formats.money(v):>10}" for c, v in values] or ["—"]
        posted = board.posted_values()
        if posted:
            lines.append(_("Values available: {values}").format(values=" · ".join(formats.money(v) for v in posted)))
        return "\n".join(lines)

    def _announce(self, board: Billboard) -> None:
        widget = self.query_one("#bb-announcement", Static)
        found = board.announcement
        if found is not None and found.brief and self.clock.now() - found.time > SHOWN_FOR:
            found = None
        if found is None:
            widget.display = False
            return
        if isinstance(found, BallChange):
            message = _("Ball change: ball {ball} in play").format(ball=found.ball)
        elif isinstance(found, GolpeNulo):
            message = _("Void spin") + (" · " + _("the ball goes back in {number}").format(number=found.put_back)
                                         if found.put_back is not None else "")
        elif isinstance(found, NewLimits):
            message = _("New table limits")
        else:
            message = _("No more bets")
        widget.display = True
        widget.update(escape(message))
