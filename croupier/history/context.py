"""The table's context as the journal recorded it at the opening: currency, time zone, casino and
table id. Every reader uses these, never its own configuration's, and says where they differ."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from croupier.i18n import _
from croupier.table.events import TableOpened

FIELDS = ("currency", "time_zone", "casino", "table_id")


@dataclass(frozen=True)
class JournalContext:
    """The last opening's values; None where the journal recorded none (a journal older than them)."""

    currency: str | None = None
    time_zone: str | None = None
    casino: str | None = None
    table_id: str | None = None


def journal_context(openings: Iterable[tuple[int, TableOpened]]) -> JournalContext:
    """From the table's openings, in order: the last one's context."""
    last: TableOpened | None = None
    for _seq, opening in openings:
        last = opening
    return JournalContext(**{name: getattr(last, name, None) or None for name in FIELDS})


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
            found.append(_("the configuration's [table] {key} is {configured}; the journal recorded {recorded} "
                           "when the table opened, and that is used").format(key=name, configured=configured,
                                                                            recorded=recorded))
    return found
