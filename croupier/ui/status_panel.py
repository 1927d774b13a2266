"""Where the table stands: the cycle, the croupier on duty and the time to relief, the ball in play
and the time to its swap, the wheel sensor."""
from __future__ import annotations

from datetime import datetime, timedelta

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from croupier.i18n import _
from croupier.table.events import Role
from croupier.table.regulation import ball_swap_interval, relief_interval
from croupier.table.state import Phase, TableState
from croupier.ui import text
from croupier.ui.redraw import one_class, update

PHASE_CLASSES = {phase: f"phase-{phase.value}" for phase in Phase}


def time_left(until: datetime, now: datetime) -> str:
    """`in 43 min`, `due now`, or `12 min late`: minutes, as the croupier reads them at a glance."""
    seconds = (until - now).total_seconds()
    if seconds >= 60:
        return _("in {minutes} min").format(minutes=int(seconds // 60))
    if seconds > -60:
        return _("due now")
    return _("{minutes} min late").format(minutes=int(-seconds // 60))


def duty_line(state: TableState, now: datetime) -> str:
    duty = state.on_duty.get(Role.CROUPIER)
    if duty is None:
        return _("Croupier: —")
    interval = relief_interval(state, Role.CROUPIER)
    relief = _("relief {when}").format(when=time_left(duty.since + interval, now)) if interval else _("no relief rule")
    return _("Croupier: {name} · {relief}").format(name=escape(duty.name), relief=relief)


def ball_line(state: TableState, now: datetime) -> str:
    if state.ball_in_play is None or state.ball_since is None:  # the one is never without the other
        return _("Ball: —")
    interval: timedelta | None = ball_swap_interval(state)
    swap = _("swap {when}").format(when=time_left(state.ball_since + interval, now)) if interval else _("no swap rule")
    return _("Ball: {ball} · {swap}").format(ball=escape(state.ball_in_play), swap=swap)


class TableStatus(Vertical):
    def compose(self) -> ComposeResult:
        yield Static("", id="phase")
        yield Static("", id="duty")
        yield Static("", id="ball")
        yield Static("", id="sensor")

    def show(self, state: TableState, now: datetime, sensor: bool | None) -> None:
        """`sensor`: True online, False offline, None for a table without one."""
        phase = self.query_one("#phase", Static)
        voided = state.voided is not None
        one_class(phase, (*PHASE_CLASSES.values(), "phase-void"), "phase-void" if voided else PHASE_CLASSES[state.phase])
        label = _("Void spin") if voided else text.phase(state.phase)
        # While paying, the spin being paid is the last counted one (the table already counts the next).
        shown = state.last_result.spin if state.phase is Phase.PAYING and state.last_result else state.spin
        spin = "" if state.phase is Phase.CLOSED else "  " + _("spin {spin}").format(spin=shown)
        update(phase, f"{label}{spin}")
        if state.phase is Phase.CLOSED:
            update(self.query_one("#duty", Static), "")
            update(self.query_one("#ball", Static), "")
        else:
            update(self.query_one("#duty", Static), duty_line(state, now))
            update(self.query_one("#ball", Static), ball_line(state, now))
        sensor_text = {True: _("Sensor: online"), False: _("Sensor: OFFLINE · type the results"),
                       None: _("No wheel sensor · type the results")}[sensor]
        widget = self.query_one("#sensor", Static)
        widget.set_class(sensor is False, "offline")
        update(widget, sensor_text)
