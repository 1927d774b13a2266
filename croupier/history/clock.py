"""The time zone every reader shows: the journal's (recorded at the opening, and from each change
the pit boss recorded, the one in force at each moment), else the table's `[table] time_zone`, else
the time zone of the machine the table runs on; the journal records UTC. Each paper and screen
states it (`zone_label`)."""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from datetime import date, datetime, timezone, tzinfo

from croupier.i18n import formats

_zone: tzinfo | None = None  # None: the machine's own
_zone_name: str | None = None
_changes: list[tuple[datetime, tzinfo | None, str | None]] = []  # later zones, from the moment each took force


def _zone_of(name: str | None) -> tzinfo | None:
    if name is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not a time zone the system knows (e.g. Europe/Lisbon)") from None


def use_zone(name: str | None) -> None:
    """Show every time in the IANA time zone `name` ("Europe/Lisbon"); None: the machine's.
    Raises ValueError for a name the time zone database does not know."""
    use_zones([(None, name)])


def use_zones(schedule: Iterable[tuple[datetime | None, str | None]]) -> None:
    """Show each time in the zone in force at that moment: `schedule` holds (since, name), in
    order, the first one's `since` unused (it covers everything before the second)."""
    global _zone, _zone_name, _changes
    found = [(since, _zone_of(name), name) for since, name in schedule] or [(None, None, None)]
    (_since, _zone, _zone_name), _changes = found[0], [(s, z, n) for s, z, n in found[1:] if s is not None]


def _in_force(moment: datetime | None) -> tuple[tzinfo | None, str | None]:
    if not _changes or moment is None:
        return _zone, _zone_name
    index = bisect_right([since for since, _z, _n in _changes], moment)
    return (_zone, _zone_name) if index == 0 else _changes[index - 1][1:]


def local(moment: datetime) -> datetime:
    return moment.astimezone(_in_force(moment)[0])


def midnight(day: date) -> datetime:
    """The moment `day` starts in the table's time zone (the one in force that day)."""
    zone = _in_force(datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc))[0]
    if zone is None:
        return datetime(day.year, day.month, day.day).astimezone()
    return datetime(day.year, day.month, day.day, tzinfo=zone)


def typed(moment: datetime) -> datetime:
    """A moment someone typed: without a time zone, it is the table's (the one in force then)."""
    if moment.tzinfo is not None:
        return moment
    zone = _in_force(moment.replace(tzinfo=timezone.utc))[0]
    return moment.astimezone() if zone is None else moment.replace(tzinfo=zone)


def clock(moment: datetime) -> str:
    """A moment as the table's clock shows it, as the table's language writes a time."""
    return formats.time_of_day(local(moment))


def stamp(moment: datetime | str, length: str = "medium") -> str:
    """A moment (or a recorded ISO time) with its date, in the table's time zone, as the table's
    language writes them (CLDR: 06/01/2025, 14:00:05); `length` "short": to the minute. Machine
    forms (CSV, JSON) take `iso`."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return formats.moment(local(moment), length)


def zone_label(moment: datetime | None = None) -> str:
    """The table's time zone by name and offset from UTC, e.g. "Europe/Lisbon, WEST (UTC+01:00)"."""
    moment = moment or datetime.now(timezone.utc)
    here, name = local(moment), _in_force(moment)[1]
    offset = here.strftime("%z")
    named = f"{name}, " if name else ""
    return f"{named}{here.tzname()} (UTC{offset[:3]}:{offset[3:]})"


def iso(moment: datetime | str) -> str:
    """A moment (or a recorded ISO time) as ISO 8601 in the table's time zone, its offset written."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return local(moment).isoformat(timespec="seconds")
