"""The one time zone every reader shows: the table's (`[table] time_zone`, else the time zone of
the machine the table runs on; the journal records UTC). Each paper and screen states it
(`zone_label`)."""
from __future__ import annotations

from datetime import date, datetime, timezone, tzinfo

_zone: tzinfo | None = None  # None: the machine's own
_zone_name: str | None = None


def use_zone(name: str | None) -> None:
    """Show every time in the IANA time zone `name` ("Europe/Lisbon"); None: the machine's.
    Raises ValueError for a name the time zone database does not know."""
    global _zone, _zone_name
    if name is None:
        _zone = _zone_name = None
        return
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        _zone, _zone_name = ZoneInfo(name), name
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not a time zone the system knows (e.g. Europe/Lisbon)") from None


def local(moment: datetime) -> datetime:
    return moment.astimezone(_zone)


def midnight(day: date) -> datetime:
    """The moment `day` starts in the table's time zone."""
    if _zone is None:
        return datetime(day.year, day.month, day.day).astimezone()
    return datetime(day.year, day.month, day.day, tzinfo=_zone)


def typed(moment: datetime) -> datetime:
    """A moment someone typed: without a time zone, it is the table's."""
    if moment.tzinfo is not None:
        return moment
    return moment.astimezone() if _zone is None else moment.replace(tzinfo=_zone)


def clock(moment: datetime) -> str:
    """A moment as the table's clock shows it."""
    return local(moment).strftime("%H:%M:%S")


def stamp(moment: datetime | str) -> str:
    """A moment (or a recorded ISO time) with its date, in the table's time zone."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return local(moment).strftime("%Y-%m-%d %H:%M:%S")


def zone_label(moment: datetime | None = None) -> str:
    """The table's time zone by name and offset from UTC, e.g. "Europe/Lisbon, WEST (UTC+01:00)"."""
    here = local(moment or datetime.now(timezone.utc))
    offset = here.strftime("%z")
    named = f"{_zone_name}, " if _zone_name else ""
    return f"{named}{here.tzname()} (UTC{offset[:3]}:{offset[3:]})"


def iso(moment: datetime | str) -> str:
    """A moment (or a recorded ISO time) as ISO 8601 in the table's time zone, its offset written."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return local(moment).isoformat(timespec="seconds")
