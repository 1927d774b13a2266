"""The table's clock on the record: what it rests on at each start, and each jump of the system
clock the table did not follow (croupier.table.clock.GuardedClock)."""
from __future__ import annotations

from datetime import datetime

from croupier.table.alarms import raise_alarm
from croupier.table.events import AlarmFacts, AlarmKind, ClockChecked, Event
from croupier.table.state import TableState

SUBJECT = "system clock"


def check_clock(state: TableState, now: datetime, *, synchronised: bool | None, told_by: str, rtc: bool,
                tolerance_seconds: int) -> list[Event]:
    """Record the clock's standing as the table starts (no rule refuses it)."""
    return [ClockChecked(synchronised=synchronised, told_by=told_by, rtc=rtc, tolerance_seconds=tolerance_seconds)]


def clock_jumped(state: TableState, now: datetime, *, wall: datetime, table: datetime) -> list[Event]:
    """The `clock-jumped` alarm: the system clock read `wall` when the table's own time was `table`."""
    step = wall - table
    direction = "forward" if step.total_seconds() > 0 else "back"
    detail = (f"the system clock jumped {direction}: it read {wall.isoformat(timespec='seconds')} when the table's "
              f"clock (kept by the monotonic clock) read {table.isoformat(timespec='seconds')}; the table keeps "
              "its own time, so events stay in order and the reliefs and ball swaps are timed right")
    return [raise_alarm(state, AlarmKind.CLOCK_JUMPED, SUBJECT, detail,
                        facts=AlarmFacts(rule="", wall_clock=wall, table_clock=table))]
