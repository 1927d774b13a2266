"""How a screen or a paper presents what it shows: its language (the catalog and CLDR's locale), its
time zones (the one in force at each moment) and its currency, held together in one frozen value.

A screen or a renderer holds its own and shows through it (`showing`); `_()`, the formats and the
clock read the one shown in the running context (a `ContextVar`), so two screens or papers in one
process, in two languages, zones or currencies, never write in each other's. A Textual app mixes in
`Shows`: its presentation is shown in every task and thread worker of the app. Outside any, they
read the command's default, which its entry point sets once from the configuration (`present`,
`install`): the one process-wide value left, read by whatever nothing shows a presentation for.
"""
from __future__ import annotations

import gettext
import os
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field, replace
from datetime import datetime, tzinfo
from functools import partial
from typing import TYPE_CHECKING, Any

from croupier.i18n.catalogs import SOURCE_LANGUAGE, translations
from croupier.rules.record import Record

# A zone schedule: (since, zone, its IANA name) in order, the first one's `since` unused (it covers
# everything before the second); zone None: the machine's own.
Zones = tuple[tuple[datetime | None, tzinfo | None, str | None], ...]
MACHINE_ZONE: Zones = ((None, None, None),)


def zone_of(name: str | None) -> tzinfo | None:
    """The IANA time zone `name` ("Europe/Lisbon"); None: the machine's. Raises ValueError for a name
    the time zone database does not know."""
    if name is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not a time zone the system knows (e.g. Europe/Lisbon)") from None


class Presentation(Record, kw_only=False):
    """A language, the time zones in force from each moment, and a currency (None: amounts without one)."""

    language: str = SOURCE_LANGUAGE
    catalog: gettext.NullTranslations = field(default_factory=gettext.NullTranslations, compare=False, repr=False)
    zones: Zones = MACHINE_ZONE
    currency: str | None = None

    @classmethod
    def of(cls, language: str = SOURCE_LANGUAGE, house: str | os.PathLike[str] | None = None,
           **values: Any) -> Presentation:
        """In `language` (a house directory's catalog first; CatalogError when there is none)."""
        return cls(language, translations(language, house), **values)

    def in_zone(self, name: str | None) -> Presentation:
        """Every time in the IANA zone `name`; None: the machine's. ValueError for an unknown name."""
        return self.in_zones([(None, name)])

    def in_zones(self, schedule: Iterable[tuple[datetime | None, str | None]]) -> Presentation:
        """Each time in the zone in force at that moment: `schedule` holds (since, name) in order."""
        found = tuple((since, zone_of(name), name) for since, name in schedule) or MACHINE_ZONE
        return replace(self, zones=found[:1] + tuple(entry for entry in found[1:] if entry[0] is not None))

    def in_currency(self, code: str | None) -> Presentation:
        return self if code == self.currency else replace(self, currency=code)

    def zone_at(self, moment: datetime | None) -> tuple[tzinfo | None, str | None]:
        """The zone in force at `moment` (the first one for None), and its name."""
        index = 0
        if len(self.zones) > 1 and moment is not None:
            index = max(bisect_right([since for since, _z, _n in self.zones[1:]], moment), 0)  # type: ignore[type-var]
        return self.zones[index][1], self.zones[index][2]

    @property
    def locale(self) -> Any:
        """The CLDR locale (Babel's) its numbers and dates are written in."""
        from croupier.i18n.formats import locale_of

        return locale_of(self.language)

    @property
    def presentation(self) -> Presentation:
        """A presentation shows itself (see `Source`)."""
        return self


if TYPE_CHECKING:  # a Protocol class costs its making at import; only the type checker needs it
    from typing import Protocol

    class Source(Protocol):
        """What `showing` takes: a presentation, or what holds one that may change while it is
        shown (a screen whose journal changes its currency)."""

        @property
        def presentation(self) -> Presentation: ...


_shown: ContextVar[Source | None] = ContextVar("croupier_presentation", default=None)
_default = Presentation()  # the command's (`present`): a thread starts with no context of its own


def current() -> Presentation:
    """The presentation shown in the running context, else the command's."""
    source = _shown.get()
    return _default if source is None else source.presentation


@contextmanager
def showing(source: Source) -> Iterator[Presentation]:
    """Show `source`'s presentation in this context (and the tasks it starts) until the block ends."""
    token = _shown.set(source)
    try:
        yield source.presentation
    finally:
        _shown.reset(token)


def present(presentation: Presentation) -> None:
    """A command's default for its whole process and every thread, set by its entry point once it
    has read the configuration; a screen or renderer given its own shows that one instead."""
    global _default
    _default = presentation


class Shows:
    """Mixed in before Textual's App: the app's `presentation` is shown in every task Textual runs
    for it (Textual enters `_context` for each) and in its thread workers, whatever another app in
    the process shows: the one it was given, else the command's at each moment."""

    given_presentation: Presentation | None = None

    @property
    def presentation(self) -> Presentation:
        return self.given_presentation or _default

    @contextmanager
    def _context(self) -> Iterator[None]:
        with super()._context(), showing(self):  # type: ignore[misc]
            yield

    def run_worker(self, work: Any, *args: Any, thread: bool = False, **kwargs: Any) -> Any:
        """A thread starts with a context of its own: a function run in one shows the app's presentation."""
        from inspect import iscoroutinefunction

        if thread and callable(work) and not iscoroutinefunction(getattr(work, "func", work)):
            work = partial(_run_showing, self, work)
        return super().run_worker(work, *args, thread=thread, **kwargs)  # type: ignore[misc]


def _run_showing(source: Source, work: Callable[[], Any]) -> Any:
    with showing(source):
        return work()
