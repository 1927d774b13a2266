"""Each table's summary: what its tile and its wheel's watch show, kept by the ingester as it
stores the table's events and written in the same transaction, so the floor view starts from 300
small rows instead of folding a year of every table's events.

It is a fold of the table's typed events, like the table's own state, but of the few that change
what a tile shows: the table opened or closed, its limits, profile, currency and croupier on duty (the
table's own handlers, croupier.table.state.apply, on a state that sees only those events), and its
counted results (the last ones, and the continuous watch of croupier.stats.watch, one spin at a
time). A correction changes a past number, which the watch cannot take back: the summary also keeps
the watch as it was before its last results (`base`), and a correction of one of those (a table
corrects only its last few) counts them again from there. A summary without it (stored before it
was kept, or a correction of an older spin) is counted again from all the table's results
(`recount`). Pure: no I/O.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from datetime import datetime, timedelta, timezone
from typing import Iterable, Sequence

from croupier.history.spins import counted_spins
from croupier.stats.summary import watch_on
from croupier.stats.spins import checked_number
from croupier.stats.watch import Chart
from croupier.table.codec import CodecError
from croupier.table.events import (EVENT_TYPES, ContextChanged, Event, LimitsChanged, ProfileChanged,
                                   ResultCorrected, ResultRecorded, Role, StaffRelieved, TableClosed, TableOpened,
                                   decode)
from croupier.table.regulation import relief_interval
from croupier.table.state import INITIAL, Phase, TableState, apply, decode_state, encode_state

try:
    from orjson import dumps as _dumps

    def compact(value: object) -> str:
        """JSON without spaces: orjson writes a watch's charts twenty times as fast as the standard json
        (its floats), which the ingester did for every table of every batch; what orjson refuses (a
        lone surrogate in a name) the standard json writes."""
        try:
            return _dumps(value).decode()
        except TypeError:
            return json.dumps(value, separators=(",", ":"))
except ImportError:  # a table's or a reader's install: the standard json
    def compact(value: object) -> str:
        return json.dumps(value, separators=(",", ":"))

RECENT = 120  # results kept for the tile: the last numbers, and the games of the last hour (40 an hour at most)
BASE_LAG = 60  # results after the `base` watch once it moves on (every RECENT - BASE_LAG results): a table corrects its last 12
DUTY = (TableOpened, TableClosed, LimitsChanged, ProfileChanged, StaffRelieved,
        ContextChanged)  # they alone set a tile's duty fields
SPINS = (ResultRecorded, ResultCorrected)
KINDS = frozenset(cls.kind for cls in DUTY + SPINS)


class Watch:
    """A wheel's continuous watch (croupier.stats.watch) kept between batches: its charts after
    `spins` spins, and the numbers since, which go into the charts when they are next read."""

    def __init__(self, spins: int = 0, charts: Sequence[Chart] = ()) -> None:
        self._spins = spins
        self._charts: list[Chart] = list(charts)
        self._new: list[int] = []

    def add(self, number: int) -> None:
        self._new.append(number)

    @property
    def spins(self) -> int:
        return self._spins + len(self._new)

    def charts(self) -> list[Chart]:
        if self._new or not self._charts:
            self._charts = watch_on(self._new, self._charts, self._spins)
            self._spins, self._new = self._spins + len(self._new), []
        return self._charts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Watch) and (self.spins, self.charts()) == (other.spins, other.charts())

    def to_plain(self) -> dict:
        return {"spins": self.spins, "charts": [chart[1:] for chart in self.charts()]}  # all but the pockets

    @classmethod
    def from_plain(cls, plain: dict) -> "Watch":
        pockets = _pockets()
        if len(plain["charts"]) != len(pockets):
            raise ValueError(f"a stored watch holds {len(pockets)} charts")
        return cls(int(plain["spins"]), [
            Chart(run, float(value), float(highest), None if alarm_at is None else int(alarm_at), float(risen), int(last))
            for run, (value, highest, alarm_at, risen, last) in zip(pockets, plain["charts"])])


@lru_cache(maxsize=1)
def _pockets() -> tuple[tuple[int, ...], ...]:
    """Each chart's pockets, in the watch's order."""
    return tuple(chart.pockets for chart in watch_on([]))


@dataclass(frozen=True)
class RecentSpin:
    spin: int
    number: int
    time: str


@dataclass
class Summary:
    """One table's summary after its event `seq`."""

    seq: int = 0
    duty: TableState = INITIAL  # the table's own fold, of the DUTY events only
    relief_due: str | None = None  # when the croupier on duty is to be relieved (None: no rule, or closed)
    recent: list[RecentSpin] = field(default_factory=list)  # newest last
    watch: Watch = field(default_factory=Watch)
    base: Watch | None = field(default_factory=Watch)  # the watch before the last of `recent` (None: not known)
    problem: str | None = None  # an event that could not be folded: the summary stops there
    duty_changed: bool = False  # `duty` changed since it was last stored
    _base_text: tuple[int, str] = field(default=(-1, ""), repr=False, compare=False)  # the base's JSON, as it stays

    @property
    def open(self) -> bool:
        return self.duty.phase is not Phase.CLOSED

    @property
    def croupier(self) -> str | None:
        return self.duty.staff_on(Role.CROUPIER) if self.open else None

    def add(self, seq: int, kind: str, body: str) -> bool:
        """Fold one stored event; False when it corrects a result the summary cannot count again from
        its `base` (the summary must be `recount`ed).
        Sets `duty_changed` when the state the ingester stores beside the tile changed. Only the
        events of those kinds are decoded, as typed events like every reader's."""
        if self.problem is None and kind in KINDS:
            try:
                event = decode(body)
                if isinstance(event, ResultRecorded):
                    self._spin(RecentSpin(event.spin, checked_number(event.number, event.spin - 1),
                                          event.time.isoformat()))
                elif isinstance(event, ResultCorrected):
                    self.seq = seq
                    return self._corrected(event)
                else:
                    self.duty = apply(self.duty, event)
                    self.duty_changed = True
                    self._relief()
            except (CodecError, KeyError, ValueError, TypeError) as exc:
                self.problem = f"event {seq} cannot be folded ({exc})"
                return True
        self.seq = seq
        return True

    def recount(self, events: Iterable[tuple[int, Event]], seq: int) -> None:
        """The results counted again from the table's results and corrections (croupier.history.spins),
        up to its event `seq`."""
        events = list(events)
        spins = counted_spins(events)
        self.watch = Watch()
        for spin in spins:
            self.watch.add(spin.number)
        results = [event for _seq, event in events if isinstance(event, ResultRecorded)]
        recent = results[-RECENT:]
        self.recent = [RecentSpin(result.spin, counted.number, result.time.isoformat())
                       for result, counted in zip(recent, spins[len(spins) - len(recent):])]
        self.base = Watch()
        for spin in spins[:len(spins) - min(len(recent), BASE_LAG)]:
            self.base.add(spin.number)
        self._base_text = (-1, "")  # stored again
        self.seq = seq

    def _corrected(self, event: ResultCorrected) -> bool:
        """The corrected number in place of the one recorded among the last results, and the watch
        counted again from `base` over them; False when that cannot be (the summary is recounted)."""
        at = next((at for at in range(len(self.recent) - 1, -1, -1) if self.recent[at].spin == event.spin), None)
        after = 0 if self.base is None else self.watch.spins - self.base.spins  # the last results after the base
        if at is None or self.base is None or len(self.recent) - at > after:
            return False
        self.recent[at] = RecentSpin(event.spin, checked_number(event.number, event.spin - 1), self.recent[at].time)
        self.watch = Watch(self.base.spins, self.base.charts())
        for spin in self.recent[len(self.recent) - after:]:
            self.watch.add(spin.number)
        return True

    def _spin(self, spin: RecentSpin) -> None:
        self.watch.add(spin.number)
        self.recent.append(spin)
        after = 0 if self.base is None else self.watch.spins - self.base.spins
        if self.base is not None and after > RECENT:  # moved on before a result after it leaves `recent`: seldom
            for older in self.recent[len(self.recent) - after:len(self.recent) - BASE_LAG]:
                self.base.add(older.number)
        del self.recent[:-RECENT]

    def _relief(self) -> None:
        duty = self.duty.on_duty.get(Role.CROUPIER)
        interval = relief_interval(self.duty, Role.CROUPIER) if self.open and duty and self.duty.profile else None
        self.relief_due = None if interval is None or duty is None else (duty.since + interval).isoformat()

    # --- stored --------------------------------------------------------------------------------

    def tile_text(self) -> str:
        """What the view reads: small, without the state the ingester folds on."""
        return compact({
            "open": self.open, "profile": self.duty.profile,
            "minimum": None if self.duty.minimum is None else str(self.duty.minimum),
            "currency": self.duty.currency, "croupier": self.croupier, "relief_due": self.relief_due,
            "recent": [[s.spin, s.number, s.time] for s in self.recent],
            "watch": self.watch.to_plain(), "problem": self.problem})

    def base_text(self) -> str | None:
        """The `base` watch as the ingester stores it beside the tile, when it moved on since it was
        last stored (None: the stored one stands); "null" when it is not known."""
        if self.base is None:
            return "null"
        if self._base_text[0] == self.base.spins:
            return None
        self._base_text = (self.base.spins, compact(self.base.to_plain()))
        return self._base_text[1]

    def state_text(self) -> str:
        return encode_state(self.duty).decode()

    @classmethod
    def read(cls, seq: int, tile: str, state: str, base: str = "") -> "Summary":
        facts = json.loads(tile)
        plain = json.loads(base) if base else None  # none stored before it was kept
        summary = cls(int(seq), decode_state(state), facts["relief_due"],
                      [RecentSpin(int(spin), int(number), time) for spin, number, time in facts["recent"]],
                      Watch.from_plain(facts["watch"]), Watch.from_plain(plain) if plain else None, facts["problem"])
        if summary.base is not None:
            summary._base_text = (summary.base.spins, base)
        return summary


@dataclass(frozen=True)
class TileFacts:
    """A stored summary as the floor view reads it (no state: only what a tile and a wheel show). A
    refresh reads the summaries of the tables that moved: their results and watch are kept as stored
    and made into objects only when asked for (the watch only when its spins changed)."""

    seq: int
    open: bool
    profile: str | None
    minimum: str | None
    croupier: str | None
    relief_due: datetime | None
    recent_plain: list  # [[spin, number, time], ...] as stored, oldest first
    watch_plain: dict  # Watch.to_plain
    problem: str | None
    currency: str | None = None  # the journal's in force; None in a summary stored before it was kept

    @classmethod
    def read(cls, seq: int, tile: str) -> "TileFacts":
        facts = json.loads(tile)
        return cls(int(seq), bool(facts["open"]), facts["profile"], facts["minimum"], facts["croupier"],
                   datetime.fromisoformat(facts["relief_due"]) if facts["relief_due"] else None,
                   facts["recent"], facts["watch"], facts["problem"], facts.get("currency"))

    @cached_property
    def recent(self) -> tuple[RecentSpin, ...]:
        return tuple(RecentSpin(int(spin), int(number), time) for spin, number, time in self.recent_plain)

    @property
    def spins(self) -> int:
        """The spins the watch counts."""
        return int(self.watch_plain["spins"])

    @cached_property
    def watch(self) -> Watch:
        return Watch.from_plain(self.watch_plain)

    @cached_property
    def _instants(self) -> list[int]:
        """The recent results' times in microseconds since 1970, newest first, read as far back as a
        refresh needed them and kept: each refresh compares them, and integers compare at a fraction
        of the cost of datetimes with their time zones."""
        return []

    @cached_property
    def _newest_first(self) -> tuple[int, ...]:
        return tuple(int(number) for _spin, number, _time in reversed(self.recent_plain))

    def last_numbers(self, count: int) -> tuple[int, ...]:
        return self._newest_first[:count]

    def games_since(self, since: datetime) -> int:
        """Results recorded after `since`, counted from the last back."""
        count, cutoff, instants = 0, _microseconds(since), self._instants
        for _spin, _number, time in reversed(self.recent_plain):
            if count == len(instants):
                instants.append(_microseconds(datetime.fromisoformat(time)))
            if instants[count] <= cutoff:
                break
            count += 1
        return count

    def relief_in_min(self, now: datetime) -> int | None:
        return None if self.relief_due is None else int((self.relief_due - now).total_seconds() // 60)


def fold(links: Sequence[tuple[int, str, str]]) -> Summary:
    """A table's summary from all its (seq, kind, body) in order, counted again at each correction."""
    summary = Summary()
    spins: list[tuple[int, Event]] = []
    for seq, kind, body in links:
        if EVENT_TYPES.get(kind) in SPINS:
            try:
                spins.append((seq, decode(body)))
            except CodecError:
                pass  # the summary names it as it folds it
        if not summary.add(seq, kind, body):
            summary.recount(spins, seq)
    return summary


_EPOCH, _MICROSECOND = datetime(1970, 1, 1, tzinfo=timezone.utc), timedelta(microseconds=1)


def _microseconds(when: datetime) -> int:
    """An aware time as whole microseconds since 1970: exact, unlike a float timestamp."""
    return (when - _EPOCH) // _MICROSECOND
