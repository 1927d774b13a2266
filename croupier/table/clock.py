"""The one source of time for the table: an aware UTC datetime, injected so tests can move it."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Protocol


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
