"""The pit boss review app: a read-only window on the journal, one shift at a time, driven by the
keyboard. It opens the journal in SQLite's read-only mode and touches no hardware, so it is safe to
serve to a browser with textual-serve."""
from __future__ import annotations

import asyncio
import json
import pickle
import sys
from dataclasses import replace
from datetime import datetime

from textual import events, work
from textual.app import App, ComposeResult
from textual.actions import SkipAction
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Header, Input, Static, TabbedContent, TabPane

from croupier.escape_keys import as_typed
from croupier.i18n import N_, _
from croupier.i18n.presentation import Presentation, Shows
from croupier.journal.store import Entry, Journal, JournalError
from croupier.history.croupiers import croupier_table
from croupier.history.ledger import colour_rule, ledger_table
from croupier.history.shift_results import shift_result_table
from croupier.review.messages import SpinChosen
from croupier.history.clock import clock, local, typed, zone_label
from croupier.history.procedures import procedure_tables
from croupier.history.records import numbered
from croupier.reports.shift import build_report
from croupier.review.shifts import (SHIFT_EVENTS, Shift, find_moment, find_spin, list_shifts, load_entries,
                                    open_read_only, shift_of)
from croupier.review.spin_pane import SpinPane
from croupier.history.spin_story import spin_story
from croupier.rules.profiles import numbering_of
from croupier.history.statistics import entries_spins, statistics_text
from croupier.review.statistics_pane import StatisticsPane
from croupier.review.tables_pane import TablesPane
from croupier.review.tabs import ReviewTabs
from croupier.history.timeline import timeline
from croupier.review.timeline_pane import TimelinePane
from croupier.table.events import EVENT_TYPES


# The chain check's own process (croupier.journal.verify.chain_check_of_file), given the journal's path.
CHAIN_CHECK = "import sys; from croupier.journal.verify import chain_check_of_file; chain_check_of_file(sys.argv[1])"
# The whole journal's counted spins, read in a process of their own (journal_spins_of_file).
JOURNAL_SPINS = ("import sys; from croupier.journal.checkpoints import journal_spins_of_file; "
                 "journal_spins_of_file(sys.argv[1])")
GOTO_HELP = N_("go to: a date (2025-03-14), a date and time (2025-03-14 21:30) or a shift (shift 12); Enter, Esc")
FOLLOW_SECONDS = 2.0  # how often the review looks for what the table recorded since


class ReviewApp(Shows, App):
    TITLE = "croupier review"
    AUTO_FOCUS = "#timeline-table"  # keys 1-6 switch tabs; / goes to the filter
    CSS = """
    #journal-line { height: auto; padding: 0 1; background: $boost; }
    #chain-state { height: auto; padding: 0 1; background: $boost; color: $text-muted; }
    #chain-state.damaged { background: $error; color: $text; text-style: bold; }
    #tabs, TabPane, TimelinePane, SpinPane { height: 1fr; }
    #timeline-table { height: 1fr; }
    #goto { display: none; }
    #goto.asked { display: block; }
    """
    BINDINGS = [
        # The keys that move the focus act as they come (priority), before the keys typed after them
        # are handed on: a browser's keys arrive in bursts, and "/kind:spin-voided" or "2" then "15"
        # must land in the box they open. In a text box they are its text (_typed_in_a_box). Escape
        # too: it leaves the box before a digit typed with it, which is then a tab's, not the box's.
        Binding("1", "tab('timeline')", N_("Timeline"), priority=True),
        Binding("2", "tab('spin')", N_("Spin"), priority=True),
        Binding("3", "tab('procedures')", N_("Procedures"), priority=True),
        Binding("4", "tab('colours')", N_("Colours"), priority=True),
        Binding("5", "tab('croupiers')", N_("Croupiers"), priority=True),
        Binding("6", "tab('statistics')", N_("Statistics"), priority=True),
        Binding("slash", "filter", N_("Filter"), priority=True),
        Binding("j", "jump", N_("Jump to spin"), priority=True),
        Binding("g", "goto", N_("Go to date/shift"), priority=True),
        Binding("less_than_sign", "page(-1)", N_("Earlier events"), show=False),
        Binding("greater_than_sign", "page(1)", N_("Later events"), show=False),
        Binding("left_square_bracket", "shift(-1)", N_("Earlier shift")),
        Binding("right_square_bracket", "shift(1)", N_("Later shift")),
        Binding("a", "journal_statistics", N_("Stats: whole journal"), show=False),
        Binding("s", "show_shift_statistics", N_("Stats: this shift"), show=False),
        Binding("escape", "leave_input", N_("Back to the list"), show=False, priority=True),
        Binding("q", "quit", N_("Quit")),
    ]

    def __init__(self, journal: Journal, currency: str | None = None, presentation: Presentation | None = None) -> None:
        super().__init__()
        self.given_presentation = presentation  # its language and zones, else the command's
        if not journal.read_only:
            raise ValueError("the review app needs a journal opened read-only")
        self.journal = journal
        self.currency = currency
        self.shift_currencies: tuple[str | None, ...] = ()  # the shown shift's, as its report found them
        self.title = _("croupier review")
        # The keys' names in the footer, in the language installed when the app is made.
        for key, bindings in self._bindings.key_to_bindings.items():
            self._bindings.key_to_bindings[key] = [replace(b, description=_(b.description)) if b.description else b
                                                   for b in bindings]
        self.shifts: list[Shift] = []
        self.shift: Shift | None = None
        self.entries: list[Entry] = []
        self.numbering = "french"

    async def on_event(self, event: events.Event) -> None:
        for one in as_typed(event):
            await super().on_event(one)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="journal-line", markup=False)
        yield Static(_("checking the journal's hash chain..."), id="chain-state", markup=False)
        yield Input(placeholder=_(GOTO_HELP), id="goto")
        with ReviewTabs(initial="timeline", id="tabs"):
            with TabPane(f"1 {_('Timeline')}", id="timeline"):
                yield TimelinePane(id="timeline-pane")
            with TabPane(f"2 {_('Spin')}", id="spin"):
                yield SpinPane(id="spin-pane")
            with TabPane(f"3 {_('Procedures')}", id="procedures"):
                yield TablesPane(id="procedures-pane")
            with TabPane(f"4 {_('Colours')}", id="colours"):
                yield TablesPane(id="colours-pane")
            with TabPane(f"5 {_('Croupiers')}", id="croupiers"):
                yield TablesPane(id="croupiers-pane")
            with TabPane(f"6 {_('Statistics')}", id="statistics"):
                yield StatisticsPane(id="statistics-pane")
        yield Footer()

    async def on_mount(self) -> None:
        self.shifts = list_shifts(self.journal)
        if not self.shifts:
            self._journal_line(_("the journal holds no events yet"))
        else:
            await self.load_shift(self.shifts[-1])
        # Once the screen is drawn: the check holds Python's lock while it runs, and would slow the first frame.
        self.call_after_refresh(self._check_chain)
        self.set_interval(FOLLOW_SECONDS, self.follow)

    async def _beside(self, code: str) -> tuple[bytes, int | None]:
        """What `code`, run on the journal in a process of its own, wrote, and its exit status: a
        year's read is seconds of Python, which in this process would hold Python's lock and slow
        the screen, and which the review, ending, would have to wait for (it kills the process)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, str(self.journal.path),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        try:
            out, _errors = await process.communicate()
        finally:
            if process.returncode is None:  # the review closes first
                process.kill()
                await process.wait()
        return out, process.returncode

    @work(group="chain", exclusive=True)
    async def _check_chain(self) -> None:
        """The whole chain, checked beside the screen on every core (seconds for a year)."""
        out, status = await self._beside(CHAIN_CHECK)
        try:
            verdict = json.loads(out)
        except ValueError:
            verdict = {"error": f"the check ended without a verdict (exit status {status})"}
        if "error" in verdict:
            self._chain_state(_("CANNOT CHECK THE JOURNAL: {error}").format(error=verdict["error"]), damaged=True)
        elif verdict["problem"] is None:
            self._chain_state(_("hash chain intact: events 1-{last} checked").format(last=verdict["head"][0]))
        else:
            self._chain_state(_(
                "JOURNAL DAMAGED: {problem}. It was changed outside the table program: what this review shows "
                "may not be what was recorded. `croupier verify --db {path}` checks it all."
            ).format(problem=verdict["problem"], path=self.journal.path), damaged=True)

    def _chain_state(self, text: str, damaged: bool = False) -> None:
        found = self.query("#chain-state")
        if not found:  # the check ended as the review closed: its screen is gone
            return
        state = found.first(Static)
        state.set_class(damaged, "damaged")
        state.update(text)

    def _journal_line(self, extra: str = "") -> None:
        seq, digest = self.journal.head
        line = _("{path} (read-only) | head: event {seq}, hash {digest}").format(
            path=self.journal.path, seq=seq, digest=digest)
        if self.shift:
            line += "\n" + _("{shift} of {shifts} | events {first}-{last} | times in {zone}").format(
                shift=self.shift.label, shifts=len(self.shifts), first=self.shift.first_seq,
                last=self.shift.last_seq, zone=zone_label(self.shift.opened))
            # the shift's own currencies, as its report found them (the journal's end may be in another)
            shown = [code for code in self.shift_currencies if code] or (
                [self.currency] if self.currency else [])
            line += " | " + (_("amounts in {currency}").format(currency=", ".join(shown)) if shown else
                             _("amounts in the table currency (--config names it)"))
        self.query_one("#journal-line", Static).update(line + (f"\n{extra}" if extra else ""))

    async def load_shift(self, shift: Shift) -> None:
        self.shift = shift
        try:
            self.entries = load_entries(self.journal, shift)
        except JournalError as error:
            self.entries = []
            self._journal_line(_("CANNOT SHOW THIS SHIFT: {error}").format(error=error))
            return
        self.numbering = numbering_of(shift.profile)
        self._journal_line()
        self.query_one(TimelinePane).show(timeline(self.entries))
        records = list(numbered(self.entries))
        await self.query_one("#procedures-pane", TablesPane).show(procedure_tables(records, clock))
        # The shift's figures as the report composes them (croupier.reports), once: each tab renders that model.
        report = build_report(records, self.journal.head, self.currency)
        several = len(report.money) > 1  # each amount names its own currency
        self.shift_currencies = report.currencies
        self._journal_line()
        ledger = ledger_table(report.colour_ledger, clock, colour_rule(records, shift.profile), several)
        await self.query_one("#colours-pane", TablesPane).show([ledger, shift_result_table(report.shift_results,
                                                                                           clock, several)])
        await self.query_one("#croupiers-pane", TablesPane).show([croupier_table(report.croupiers)])
        self.action_show_shift_statistics()

    # --- actions ---------------------------------------------------------------------------

    # The Spin tab opens on its number box (its number selected: what is typed replaces it), so the
    # digits typed next are the spin's, not the keys of other tabs.
    FOCUS_IN_TAB = {"timeline": "#timeline-table", "spin": "#spin-number", "procedures": "#procedures-pane",
                    "colours": "#colours-pane", "croupiers": "#croupiers-pane", "statistics": "#statistics-pane"}

    def _typed_in_a_box(self) -> None:
        """A focus key typed in a text box is the box's text: the binding steps aside (the footer keeps it)."""
        if isinstance(self.focused, Input):
            raise SkipAction()

    def action_tab(self, tab: str) -> None:
        self._typed_in_a_box()
        self.show_tab(tab)

    def show_tab(self, tab: str) -> None:
        self.query_one("#tabs", TabbedContent).active = tab
        # Focus must follow into the new tab: left in a hidden one, it would bring that tab back. At
        # once, not as `focus()` does once the keys already typed are handled: a tab typed after
        # this one would be undone by it.
        self.set_focus(self.query_one(self.FOCUS_IN_TAB[tab]))
        if tab == "spin":
            self.query_one("#spin-number", Input).select_all()

    def action_goto(self) -> None:
        self._typed_in_a_box()
        box = self.query_one("#goto", Input)
        box.add_class("asked")
        box.clear()
        self.set_focus(box)  # at once, as a tab: what is typed next is the date's, however fast it comes

    async def on_input_submitted(self, message: Input.Submitted) -> None:
        if message.input.id != "goto":
            return
        message.stop()
        text = message.value.strip().lower()
        for word in ("shift", _("shift").lower()):  # "shift 12", or the word in the table's language
            if text.startswith(word) and text.removeprefix(word).strip().isdigit():
                text = text.removeprefix(word).strip()
        try:
            if text.isdigit():
                number = int(text)
                if not 1 <= number <= len(self.shifts):
                    raise ValueError(_("there are shifts 1 to {last}").format(last=len(self.shifts)))
                shift = self.shifts[number - 1]
            else:
                try:
                    moment = datetime.fromisoformat(text.replace(" ", "T") if len(text) > 10 else text)
                except ValueError:
                    raise ValueError(_("not a date, a time or a shift")) from None
                shift = shift_of(self.shifts, find_moment(self.journal, typed(moment)))
        except ValueError as error:
            self.notify(f"{message.value!r}: {error}. {_(GOTO_HELP)}", severity="error")
            return
        message.input.remove_class("asked")
        await self.load_shift(shift)
        self.show_tab("timeline")

    async def follow(self) -> None:
        """What the table recorded since: the latest shift grows on screen (a new opening or a
        midnight starts another), so the review can stay open while the table plays."""
        if not self.shifts:
            return
        latest = self.shifts[-1]
        if self.journal.reread_head()[0] == latest.last_seq:
            return
        new = [row for row in self.journal.rows(latest.last_seq) if row.seq <= self.journal.head[0]]
        following = self.shift == latest
        if any(EVENT_TYPES.get(row.kind) in SHIFT_EVENTS for row in new) or \
                local(datetime.fromisoformat(new[-1].time)).date() != \
                local(datetime.fromisoformat(new[0].time)).date():
            self.shifts = list_shifts(self.journal)
        else:
            self.shifts[-1] = replace(latest, last_seq=new[-1].seq)
        if following:
            await self.load_shift(self.shifts[-1])
        else:
            self._journal_line()

    def action_page(self, step: int) -> None:
        self.query_one(TimelinePane).page(step)

    def action_filter(self) -> None:
        self._typed_in_a_box()
        self.show_tab("timeline")
        # At once: keys typed right after "/" (a browser's come in one burst) are the filter's, never
        # the list's keys (s, a, q...).
        self.set_focus(self.query_one("#timeline-filter", Input))

    def action_jump(self) -> None:
        self._typed_in_a_box()
        self.show_tab("spin")
        self.query_one("#spin-number", Input).clear()  # ready for a new number

    def action_leave_input(self) -> None:
        """Out of a text box, back to where 1-6 switch tabs: the timeline's list, the spin's detail."""
        if len(self.screen_stack) > 1:
            raise SkipAction()  # a screen over the review (the command palette) takes its own Escape
        active = self.query_one("#tabs", TabbedContent).active
        if active == "timeline":
            self.set_focus(self.query_one("#timeline-table", DataTable))
        elif active == "spin":
            self.set_focus(self.query_one("#spin-scroll"))
        else:
            self.set_focus(None)
        self.query_one("#goto", Input).remove_class("asked")

    async def action_shift(self, step: int) -> None:
        if self.shift is None:
            return
        index = self.shifts.index(self.shift) + step
        if 0 <= index < len(self.shifts):
            await self.load_shift(self.shifts[index])
        else:
            self.notify(_("no earlier shift") if step < 0 else _("this is the latest shift"))

    def action_show_shift_statistics(self) -> None:
        if self.shift is None:
            return
        text = statistics_text(entries_spins(self.entries), self.numbering, self.shift.label)
        self.query_one(StatisticsPane).show(text)

    def action_journal_statistics(self) -> None:
        self.query_one(StatisticsPane).show(_("Reading every counted spin of the journal..."))
        self._journal_statistics()

    @work(group="statistics", exclusive=True)
    async def _journal_statistics(self) -> None:
        # From the newest checkpoint the table signed, and the spins since: seconds fewer for a year.
        out, status = await self._beside(JOURNAL_SPINS)
        try:  # our own program's answer, over its own pipe
            found = pickle.loads(out)
        except Exception:
            found = ("error", f"the read ended without them (exit status {status})")
        if found[0] == "error":
            self.query_one(StatisticsPane).show(_("CANNOT READ THE JOURNAL'S SPINS: {error}").format(error=found[1]))
            return
        spins, watched, after, notices = found
        scope = (_("whole journal (spins to event {event} as the table's signed checkpoint holds them)").format(
            event=after) if after else _("whole journal"))
        # in a thread: a year's statistics are a moment's work the screen need not wait for
        text = await asyncio.to_thread(statistics_text, spins, self.numbering, scope, watched=watched)
        for notice in notices:
            self.notify(notice, severity="warning")
        self.query_one(StatisticsPane).show(text)

    async def on_spin_chosen(self, message: SpinChosen) -> None:
        if not any(getattr(entry.event, "spin", None) == message.spin for entry in self.entries):
            # Not in the shift on screen: found by key anywhere in the journal, and its shift opened.
            seq = find_spin(self.journal, message.spin)
            if seq is not None:
                await self.load_shift(shift_of(self.shifts, seq))
        self.query_one(SpinPane).show(spin_story(self.entries, message.spin), self.currency)
        self.query_one("#tabs", TabbedContent).active = "spin"
        number = self.query_one("#spin-number", Input)
        if self.focused is number:
            number.select_all()  # typed in the box: the next number typed replaces this one
        else:
            self.query_one("#spin-scroll").focus()  # picked in the timeline: to read, 1-6 still switch tabs
