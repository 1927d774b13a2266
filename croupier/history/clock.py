"""The one time zone every reader shows: the table's, which is the time zone of the machine the
table runs on (the journal records UTC). Each paper and screen states it (`zone_label`)."""
from __future__ import annotations

from datetime import datetime, timezone


def local(moment: datetime) -> datetime:
    return moment.astimezone()


def clock(moment: datetime) -> str:
    """A moment as the table's clock shows it."""
    return local(moment).strftime("%H:%M:%S")


def stamp(moment: datetime) -> str:
    """A moment with its date, in the table's time zone."""
    return local(moment).strftime("%Y-%m-%d %H:%M:%S")


def zone_label(moment: datetime | None = None) -> str:
    """The table's time zone by name and offset from UTC, e.g. "WEST (UTC+01:00)"."""
    here = local(moment or datetime.now(timezone.utc))
    offset = here.strftime("%z")
    return f"{here.tzname()} (UTC{offset[:3]}:{offset[3:]})"


def iso(moment: datetime | str) -> str:
    """A moment (or a recorded ISO time) as ISO 8601 in the table's time zone, its offset written."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return local(moment).isoformat(timespec="seconds")
