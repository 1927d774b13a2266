"""The one source of time for the table: an aware UTC datetime, injected so tests can move it."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Callable, Protocol

from croupier.rules.record import Record


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class FakeClock:
    """A clock that stands still until told to move: an hour of table time passes in microseconds."""

    def __init__(self, start: datetime = datetime(2025, 1, 6, 14, 0, tzinfo=timezone.utc)) -> None:
        if start.tzinfo is None:
            raise ValueError("FakeClock needs an aware datetime")
        self._now = start.astimezone(timezone.utc)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | None = None, /, **units: float) -> datetime:
        """Move forward by `delta` or by keyword units (`minutes=5`); never backwards."""
        step = (delta or timedelta()) + timedelta(**units)
        if step < timedelta():
            raise ValueError("time at a table only moves forward")
        self._now += step
        return self._now


DEFAULT_TOLERANCE = timedelta(seconds=10)  # a time server's step or a hand's setting: a jump, not drift


class ClockJump(Record, kw_only=False):
    """The system clock jumped against the monotonic clock: what it read, and the table's time then."""

    wall: datetime
    table: datetime


class GuardedClock:
    """The system clock, checked against the monotonic clock at every reading. A Pi has no battery
    clock: its wall clock is set back or forward under a running table (a time server's step, a
    restart from an old time). The table's time follows the wall clock's small corrections but not
    its jumps: a jump beyond `tolerance` is taken out (and handed on once by `jumps`, to be recorded
    with both readings), so the events stay in order and the procedures' timers (relief, ball swap)
    run on the monotonic clock. When the wall clock jumps back to where it was, the table's time
    meets it again, and that jump is handed on too."""

    def __init__(self, tolerance: timedelta = DEFAULT_TOLERANCE, *, wall: Callable[[], datetime] | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.tolerance = tolerance
        self._wall = wall or SystemClock().now
        self._monotonic = monotonic
        self._drift = self._wall() - self._elapsed()  # wall minus monotonic, as last read
        self._taken_out = timedelta()  # the jumps the table's time does not follow
        self._jumps: list[ClockJump] = []

    def _elapsed(self) -> timedelta:
        return timedelta(seconds=self._monotonic())

    def now(self) -> datetime:
        wall = self._wall()
        drift = wall - self._elapsed()
        step = drift - self._drift
        self._drift = drift
        if abs(step) > self.tolerance:
            self._taken_out += step
            self._jumps.append(ClockJump(wall=wall, table=wall - self._taken_out))
        return wall - self._taken_out

    def not_before(self, last: datetime | None) -> None:
        """Start no earlier than the journal's last event: a wall clock behind it by more than the
        tolerance (a restart without a battery clock) is a jump, taken out from the start."""
        wall = self._wall()
        if last is not None and wall - self._taken_out < last - self.tolerance:
            self._taken_out = wall - last
            self._jumps.append(ClockJump(wall=wall, table=last))

    def jumps(self) -> list[ClockJump]:
        """The jumps seen since the last call, each once."""
        found, self._jumps = self._jumps, []
        return found
