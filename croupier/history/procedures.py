"""The procedures of a shift or a journal: voids with their reasons, result corrections, alarms with
their acknowledgement and clearing, ball swaps and replacements, reliefs and breaches, the table's
openings and changes of limits. One fold over the journal's events (`Procedures`), which the report
gives as JSON and the review and the PDF as tables (`procedure_tables`)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from datetime import datetime

from croupier.history.redaction import redacted
from croupier.history.words import (alarm_detail_words, alarm_subject_words, alarm_words, put_back_words,
                                    reason_words, role_words, source_words, void_words)
from croupier.history.projection import Projection, reads
from croupier.i18n import _
from croupier.rules.record import Record
from croupier.table.codec import from_plain, to_plain
from croupier.table.events import (AlarmAcknowledged, AlarmCleared, AlarmFacts, AlarmKind, AlarmRaised, BallReplaced,
                                   BallSwapped, Event, LateChipsExchanged, LimitsChanged, ProfileChanged,
                                   ResultCorrected, SpinVoided, StaffRelieved, TableClosed, TableOpened,
                                   VoidAcknowledged, WinningBetsRebuilt, Role, to_record)

BREACHES = (AlarmKind.RELIEF_OVERDUE.value, AlarmKind.BALL_SWAP_OVERDUE.value)


@dataclass(frozen=True)
class Table:
    """A titled table of text cells, as the review and the PDF show it."""

    title: str
    columns: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]


def _plain(event: Event, *names: str) -> dict:
    """Fields of an event as the journal records them (times in ISO 8601, amounts as decimal strings)."""
    return {name: to_plain(getattr(event, name)) for name in names}


class Procedure(Record):
    """A procedure as the report keeps it: its fields as the journal records them (times in ISO
    8601, amounts as decimal strings), so a saved fold holds plain values and `entry()` is the
    report's JSON of it."""

    def entry(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def of(cls, event: Event, **more):
        """The record of `event`: each field of the record the event's own, unless given."""
        names = [f.name for f in fields(cls) if f.name not in more and f.default is MISSING]
        return cls(**_plain(event, *names), **more)


class VoidRecord(Procedure):
    spin: int
    reason: str
    time: str
    put_back: int | None
    source: str
    by: str
    acknowledged_by: str | None = None  # a golpe nulo from the sensor, seen by the croupier


class CorrectionRecord(Procedure):
    spin: int
    previous: int
    number: int
    reason: str
    by: str
    time: str


class SwapRecord(Procedure):
    time: str
    ball: str
    previous: str | None
    late: bool
    by: str


class ReplacementRecord(Procedure):
    time: str
    previous: str | None
    ball: str  # the new ball's id
    diameter_mm: str
    reason: str
    by: str


class ReliefRecord(Procedure):
    time: str
    role: str
    outgoing: str | None
    incoming: str
    overdue: bool
    reason: str | None


class AlarmRecord(Procedure):
    alarm: int
    kind: str
    subject: str
    detail: str
    time: str
    acknowledged_by: str | None = None
    acknowledged: str | None = None
    cleared_by: str | None = None
    cleared: str | None = None
    cleared_note: str | None = None


class LateChipsRecord(Procedure):
    time: str
    colour: str
    chips: int
    chip_value: str
    amount: str
    by: str


class OpeningRecord(Procedure):
    kind: str
    time: str
    by: str
    profile: str
    minimum: str
    sensor_only: bool
    table_id: str | None
    currency: str | None = None  # the opening's: its minimum is in it


class ClosingRecord(Procedure):
    kind: str
    time: str
    by: str


class RebuiltRecord(Procedure):
    time: str
    spin: int
    by: str


RECORDS = (VoidRecord, CorrectionRecord, SwapRecord, ReplacementRecord, ReliefRecord, AlarmRecord, LateChipsRecord,
           OpeningRecord, ClosingRecord, RebuiltRecord)  # the classes a saved fold may hold
# Each list of Procedures and the record it holds: a fold saved when they were plain dicts is read as these.
LISTS = {"voids": VoidRecord, "corrections": CorrectionRecord, "swaps": SwapRecord, "replacements": ReplacementRecord,
         "reliefs": ReliefRecord, "late_chips": LateChipsRecord, "rebuilt": RebuiltRecord}


def typed(plain: dict, kind: type[Procedure]) -> Procedure:
    """A procedure saved as a plain dict (a fold kept before procedures were records), as its record:
    its fields only, each as saved. Raises TypeError for a dict that is not one."""
    if kind is OpeningRecord and plain.get("kind") == TableClosed.kind:
        kind = ClosingRecord
    names = {f.name for f in fields(kind)}
    return kind(**{name: value for name, value in plain.items() if name in names})


class Procedures(Projection):
    def __init__(self) -> None:
        self.voids: list[VoidRecord] = []
        self.corrections: list[CorrectionRecord] = []
        self.swaps: list[SwapRecord] = []
        self.replacements: list[ReplacementRecord] = []
        self.reliefs: list[ReliefRecord] = []
        self.rebuilt: list[RebuiltRecord] = []
        self.limits: list[dict] = []  # each change of limits or profile: the whole record as stored, secrets out
        self.late_chips: list[LateChipsRecord] = []
        self.tables: list[OpeningRecord | ClosingRecord] = []  # openings and closings
        self._alarms: dict[int, AlarmRecord] = {}
        self.raised: dict[int, dict | None] = {}  # alarm -> its facts as recorded, to word it in any language
        self.profile: str | None = None  # in force at the end
        self.table_id: str | None = None  # as the last opening recorded it

    @property
    def alarms(self) -> list[AlarmRecord]:
        return list(self._alarms.values())

    @property
    def breaches(self) -> list[AlarmRecord]:
        return [a for a in self._alarms.values() if a.kind in BREACHES]

    @property
    def direction_repeats(self) -> list[AlarmRecord]:
        return [a for a in self._alarms.values() if a.kind == AlarmKind.DIRECTION_REPEATED.value]

    @reads(ResultCorrected)
    def _corrected(self, seq: int, e: ResultCorrected) -> None:
        self.corrections.append(CorrectionRecord.of(e))

    @reads(SpinVoided)
    def _voided(self, seq: int, e: SpinVoided) -> None:
        self.voids.append(VoidRecord.of(e, acknowledged_by=None))

    @reads(VoidAcknowledged)
    def _void_seen(self, seq: int, e: VoidAcknowledged) -> None:  # a golpe nulo from the sensor, seen by the croupier
        for at in range(len(self.voids) - 1, -1, -1):
            if self.voids[at].spin == e.spin:
                self.voids[at] = replace(self.voids[at], acknowledged_by=e.by)
                break

    def _done(self, kind: AlarmKind, role: Role | None, by: str, time) -> None:
        """The procedure an overdue alarm asked for is done: the table ends the alarm (as its state
        does), cleared by who did it, at that time."""
        for number, alarm in self._alarms.items():
            facts = self.raised.get(number) or {}
            if alarm.kind == kind.value and alarm.cleared_by is None and (
                    role is None or facts.get("role") == role.value):
                self._alarms[number] = replace(alarm, cleared_by=by, cleared=to_plain(time), cleared_note="")

    @reads(BallSwapped)
    def _swapped(self, seq: int, e: BallSwapped) -> None:
        self.swaps.append(SwapRecord.of(e))
        self._done(AlarmKind.BALL_SWAP_OVERDUE, None, e.by, e.time)

    @reads(BallReplaced)
    def _replaced(self, seq: int, e: BallReplaced) -> None:
        self.replacements.append(ReplacementRecord.of(e, ball=e.ball.id, diameter_mm=to_plain(e.ball.diameter_mm)))

    @reads(StaffRelieved)
    def _relieved(self, seq: int, e: StaffRelieved) -> None:
        self.reliefs.append(ReliefRecord.of(e))
        self._done(AlarmKind.RELIEF_OVERDUE, e.role, e.incoming, e.time)

    @reads(AlarmRaised)
    def _alarm(self, seq: int, e: AlarmRaised) -> None:
        self._alarms[e.alarm] = AlarmRecord.of(e, kind=e.alarm_kind.value)
        self.raised[e.alarm] = None if e.facts is None else to_plain(e.facts)

    @reads(AlarmAcknowledged)
    def _alarm_seen(self, seq: int, e: AlarmAcknowledged) -> None:
        if e.alarm in self._alarms:
            self._alarms[e.alarm] = replace(self._alarms[e.alarm], acknowledged_by=e.by, acknowledged=to_plain(e.time))

    @reads(AlarmCleared)
    def _alarm_cleared(self, seq: int, e: AlarmCleared) -> None:
        # The relief or ball swap recorded just before ended it already (`_done`: journals written
        # before their clearing was recorded read the same): the first ending stands.
        if e.alarm in self._alarms and self._alarms[e.alarm].cleared_by is None:
            self._alarms[e.alarm] = replace(self._alarms[e.alarm], cleared_by=e.by, cleared=to_plain(e.time),
                                            cleared_note=e.note)

    @reads(LateChipsExchanged)
    def _late(self, seq: int, e: LateChipsExchanged) -> None:
        self.late_chips.append(LateChipsRecord.of(e))

    @reads(LimitsChanged, ProfileChanged)
    def _limits(self, seq: int, e: LimitsChanged | ProfileChanged) -> None:
        if isinstance(e, ProfileChanged):
            self.profile = e.profile
        self.limits.append(redacted(dict(sorted(to_record(e).items()))))  # the whole record, as stored: a secret a future version adds stays out

    @reads(TableOpened)
    def _opened(self, seq: int, e: TableOpened) -> None:
        self.profile = e.profile
        self.table_id = e.table_id or self.table_id
        self.tables.append(OpeningRecord.of(e, kind=e.kind, table_id=e.table_id, currency=e.currency))

    @reads(TableClosed)
    def _closed(self, seq: int, e: TableClosed) -> None:
        self.tables.append(ClosingRecord.of(e, kind=e.kind))

    @reads(WinningBetsRebuilt)
    def _rebuilt(self, seq: int, e: WinningBetsRebuilt) -> None:
        self.rebuilt.append(RebuiltRecord.of(e))


def alarm_facts(facts: dict | None) -> AlarmFacts | None:
    """An alarm's facts as `Procedures.raised` keeps them, to word it in any language; None without them."""
    return None if facts is None else from_plain(AlarmFacts, facts)


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def procedure_tables(events: Iterable[tuple[int, Event]],
                     clock: Callable[[datetime], str] = lambda moment: moment.strftime("%H:%M:%S")) -> list[Table]:
    """The procedures as tables; `clock` words a moment (in the table's time zone)."""
    fold = Procedures()
    fold.add_all(events)

    def at(text: str | None) -> str:
        moment = _time(text)
        return clock(moment) if moment else ""

    voids = [(at(v.time), str(v.spin), void_words(v.reason), source_words(v.source), v.by,
              put_back_words(v.put_back), v.acknowledged_by or "") for v in fold.voids]
    corrections = [(at(c.time), str(c.spin), str(c.previous), str(c.number), c.by, reason_words(c.reason))
                   for c in fold.corrections]
    facts = {alarm: alarm_facts(record) for alarm, record in fold.raised.items()}
    alarms = [(at(a.time), str(a.alarm), alarm_words(a.kind),
               alarm_subject_words(facts[a.alarm], a.subject),
               alarm_detail_words(a.kind, facts[a.alarm], a.detail),
               f"{a.acknowledged_by} {at(a.acknowledged)}" if a.acknowledged_by else "",
               f"{a.cleared_by} {at(a.cleared)}" if a.cleared_by else "", a.cleared_note or "")
              for a in fold.alarms]
    changes: list[SwapRecord | ReplacementRecord] = sorted([*fold.swaps, *fold.replacements],
                                                           key=lambda change: change.time)
    balls = [(at(b.time), _("swap"), f"{b.previous} -> {b.ball}", b.by, _("late") if b.late else _("on time"))
             if isinstance(b, SwapRecord) else
             (at(b.time), _("replaced"), f"{b.previous} -> {b.ball} ({b.diameter_mm} mm)", b.by, b.reason)
             for b in changes]
    reliefs = [(at(r.time), role_words(r.role), r.outgoing or "", r.incoming,
                _("OVERDUE") if r.overdue else _("in time"), r.reason or "") for r in fold.reliefs]
    return [
        Table(_("Voids (golpe nulo)"), (_("time"), _("spin"), _("reason"), _("source"), _("by"), _("ball back in"),
                                        _("acknowledged")), voids),
        Table(_("Corrections"), (_("time"), _("spin"), _("was"), _("now"), _("by"), _("why")), corrections),
        Table(_("Alarms"), (_("raised"), _("alarm"), _("kind"), _("subject"), _("detail"), _("acknowledged"),
                            _("cleared"), _("note")), alarms),
        Table(_("Balls"), (_("time"), _("change"), _("balls"), _("by"), _("note")), balls),
        Table(_("Reliefs"), (_("time"), _("role"), _("outgoing"), _("incoming"), _("relief"), _("reason")), reliefs),
    ]
