"""Running a command: the alarms that fell due first, then the command's own events."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from croupier.table import alarms
from croupier.table.events import Event, stamped
from croupier.table.state import TableState, fold

Command = Callable[..., list[Event]]


def execute(command: Command, state: TableState, now: datetime, **arguments: Any) -> list[Event]:
    """The events to record for `command` at `now`, stamped with `now`: any alarm now due (a late
    relief is raised even if the command that ends it comes first), then the command's events,
    checked against the state those alarms leave. Raises Refused, recording nothing, when the
    command is refused. Every command of the table runs through here, so no command sets a time,
    and none is recorded earlier than the event before it, whatever the clock says."""
    if state.last_event_time is not None and now < state.last_event_time:
        now = state.last_event_time
    due = stamped(alarms.due(state, now), now)
    return due + stamped(command(fold(due, state), now, **arguments), now)


def tick(state: TableState, now: datetime) -> list[Event]:
    """Nothing but the alarms now due: run on a timer so a breach is raised on time."""
    return []
