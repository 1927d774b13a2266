"""The time zone every reader shows: the journal's (recorded at the opening, and from each change
the pit boss recorded, the one in force at each moment), else the table's `[table] time_zone`, else
the time zone of the machine the table runs on; the journal records UTC. Each paper and screen
states it (`zone_label`). The zones are the shown presentation's (`croupier.i18n.presentation`)."""
from __future__ import annotations

from datetime import date, datetime, timezone

from croupier.i18n import formats
from croupier.i18n.presentation import current


def local(moment: datetime) -> datetime:
    return moment.astimezone(current().zone_at(moment)[0])


def midnight(day: date) -> datetime:
    """The moment `day` starts in the table's time zone (the one in force that day)."""
    zone = current().zone_at(datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc))[0]
    if zone is None:
        return datetime(day.year, day.month, day.day).astimezone()
    return datetime(day.year, day.month, day.day, tzinfo=zone)


def typed(moment: datetime) -> datetime:
    """A moment someone typed: without a time zone, it is the table's (the one in force then)."""
    if moment.tzinfo is not None:
        return moment
    zone = current().zone_at(moment.replace(tzinfo=timezone.utc))[0]
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
    here, name = local(moment), current().zone_at(moment)[1]
    offset = here.strftime("%z")
    named = f"{name}, " if name else ""
    return f"{named}{here.tzname()} (UTC{offset[:3]}:{offset[3:]})"


def iso(moment: datetime | str) -> str:
    """A moment (or a recorded ISO time) as ISO 8601 in the table's time zone, its offset written."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return local(moment).isoformat(timespec="seconds")
