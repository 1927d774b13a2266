"""The table's context as the journal recorded it: currency, time zone, casino and table id at each
opening, and each change of currency or time zone the pit boss recorded since. Every reader uses
these - the value in force at each event - never its own configuration's, and says where they differ."""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from datetime import datetime

from croupier.i18n import _
from croupier.rules.record import Record
from croupier.table.events import ContextChanged, Event, TableOpened

FIELDS = ("currency", "time_zone", "casino", "table_id")
KINDS = (TableOpened, ContextChanged)  # the events a context is read from


class JournalContext(Record, kw_only=False):
    """The values in force at the journal's end; None where the journal recorded none (a journal
    older than them). `zones` and `currencies`: from which moment each value was in force, in order."""

    currency: str | None = None
    time_zone: str | None = None
    casino: str | None = None
    table_id: str | None = None
    zones: tuple[tuple[datetime, str | None], ...] = ()
    currencies: tuple[tuple[datetime, str | None], ...] = ()

    def currency_at(self, moment: datetime) -> str | None:
        """The currency in force at `moment` (the first recorded one before any)."""
        return _in_force(self.currencies, moment, self.currency)

    def currency_changes(self, start: datetime | None, end: datetime | None) -> list[tuple[datetime, str | None]]:
        """The currencies that came into force after `start` and up to `end`, in order."""
        return [(since, value) for since, value in self.currencies[1:]
                if (start is None or since > start) and (end is None or since <= end)]


def _in_force(schedule, moment: datetime, default):
    if not schedule:
        return default
    index = bisect_right([since for since, _value in schedule], moment) - 1
    return schedule[max(index, 0)][1]


def journal_context(events: Iterable[tuple[int, Event]],
                    since: JournalContext = JournalContext()) -> JournalContext:
    """From the openings and changes (KINDS), in order, after what `since` holds (a checkpoint's
    context): the values in force at the end, and when each currency and time zone came into force."""
    last = {name: getattr(since, name) for name in FIELDS}
    zones, currencies = list(since.zones), list(since.currencies)
    for _seq, event in events:
        if isinstance(event, TableOpened):
            last = {name: getattr(event, name) or None for name in FIELDS}
        elif isinstance(event, ContextChanged):  # a change keeps what it does not name
            last.update({name: getattr(event, name) for name in ("currency", "time_zone") if getattr(event, name)})
        else:
            continue
        for schedule, name in ((zones, "time_zone"), (currencies, "currency")):
            if not schedule or schedule[-1][1] != last[name]:
                schedule.append((event.time, last[name]))
    return JournalContext(**last, zones=tuple(zones), currencies=tuple(currencies))


def context_plain(context: JournalContext) -> dict:
    """The context as a checkpoint keeps it (JSON)."""
    return {**{name: getattr(context, name) for name in FIELDS},
            "zones": [[since.isoformat(), name] for since, name in context.zones],
            "currencies": [[since.isoformat(), code] for since, code in context.currencies]}


def context_from_plain(plain: dict) -> JournalContext:
    return JournalContext(**{name: plain.get(name) for name in FIELDS},
                          zones=tuple((datetime.fromisoformat(since), name) for since, name in plain["zones"]),
                          currencies=tuple((datetime.fromisoformat(since), code) for since, code in plain["currencies"]))


def disagreements(context: JournalContext, table) -> list[str]:
    """Where the reader's configuration (`table`: its [table] section, None without one) says other
    than the journal: each in one sentence, saying the journal's value is the one used."""
    if table is None:
        return []
    found = []
    for name, configured in (("currency", table.currency), ("time_zone", table.time_zone),
                             ("casino", table.casino or None), ("id", table.id)):
        recorded = getattr(context, "table_id" if name == "id" else name)
        if recorded is not None and configured is not None and recorded != configured:
            found.append(_("the configuration's [table] {key} is {configured}; the journal records {recorded}, "
                           "and that is used").format(key=name, configured=configured, recorded=recorded))
    return found


def configuration_disagrees(state, table) -> list[str]:
    """`disagreements` for a reader that folds the table's state (the table screen, the monitor):
    the currency, time zone and table id in force against the configuration's [table]."""
    recorded = JournalContext(currency=state.currency, time_zone=state.time_zone, table_id=state.table_id)
    return disagreements(recorded, table)
