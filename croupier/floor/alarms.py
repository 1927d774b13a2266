"""The floor's alarms: a table's broken chain, every alarm a table raises (wheel offline, typed and
sensor numbers differing, two numbers, PIN locked, relief or ball swap overdue, a refused floor
receipt...), and the messages the floor refused. The ingester records a table's alarm as soon as it
stores the event that raised it, and the table's own acknowledgement or clearing when that comes (in the transaction that stores them);
the view words each in its language and a pit boss acknowledges it there or with `floor acknowledge`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Sequence

from croupier.floor.gate import RefusalReason
from croupier.floor.store import CHAIN, EXAMPLES_APART, OTHER_SUBJECTS, Alarm, FloorStore, Refusal, TableAnswer
from croupier.floor.wire import Link
from croupier.history.clock import stamp
from croupier.history.words import alarm_answer_words, alarm_detail_words, alarm_subject_words, alarm_words
from croupier.i18n import N_, _
from croupier.table.codec import CodecError
from croupier.table.names import MAX_NAME, control_characters
from croupier.table.events import EVENT_TYPES, AlarmAcknowledged, AlarmCleared, AlarmRaised, Event, decode

MARKUP = set("[]<>")  # Rich's and HTML's markup: a name is shown on screens and pages
REASONS = {  # why the gate refused messages, in words
    RefusalReason.OVERSIZED: N_("oversized"), RefusalReason.NOT_A_TABLE: N_("not a table subject"),
    RefusalReason.UNKNOWN_TABLE: N_("unknown table"), RefusalReason.MALFORMED: N_("malformed"),
    RefusalReason.NO_ID: N_("no message id"), RefusalReason.WRONG_ID: N_("wrong message id"),
    RefusalReason.UNSIGNED: N_("missing signature"), RefusalReason.BAD_SIGNATURE: N_("bad signature"),
}
ALARM_EVENTS = (AlarmRaised, AlarmAcknowledged, AlarmCleared)


def table_alarms(table_id: str, links: Sequence[Link]) -> tuple[list[Alarm], list[TableAnswer]]:
    """The alarms the `links` raise at the table, and the table's answers to its alarms (acknowledged,
    or ended: by a pit boss, or by the relief, ball swap or correction that answered it): the store
    records them with the links, in one transaction."""
    raised: list[Alarm] = []
    answers: list[TableAnswer] = []
    for link in links:
        if EVENT_TYPES.get(link.kind) not in ALARM_EVENTS:  # only these are decoded
            continue
        try:
            event = decode(link.body)
        except CodecError:
            continue  # the chain check read it; a body that does not read back names no alarm
        if isinstance(event, AlarmRaised):
            raised.append(Alarm(table_id, link.seq, event.detail, "", None, None, kind=event.alarm_kind.value,
                                table_alarm=event.alarm))
        elif isinstance(event, (AlarmAcknowledged, AlarmCleared)):
            answers.append(TableAnswer(event.alarm, event.by, link.seq, ended=isinstance(event, AlarmCleared)))
    return raised, answers


Worded = tuple[str, datetime]  # a table's event in words, and its time


@dataclass(frozen=True)
class Shown:
    """One alarm as the view shows it: in the view's language, no markup in it."""

    table: str  # the table id, or the subject of refused messages
    kind: str
    detail: str
    open: bool
    acknowledged_by: str | None
    alarm: Alarm | None = None
    refusal: Refusal | None = None
    answered: Worded | None = None  # how the table took it up or ended it, in words, and when

    @property
    def answer(self) -> str | None:
        return self.answered[0] if self.answered else None

    @property
    def ended(self) -> str:
        """How and when it ended, as `ending_words` says it, with the view's times."""
        alarm, refusal = self.alarm, self.refusal
        if alarm is not None:
            return ending_words(alarm.acknowledged_by, alarm.acknowledged, self.answered, alarm.resumed_by,
                                alarm.resumed, at_table=alarm.acknowledged_at_table, when=shown_time)
        return ending_words(self.acknowledged_by, refusal.acknowledged if refusal else None, when=shown_time)


def shown(store: FloorStore, words: dict[tuple[str, int], Worded] | None = None) -> list[Shown]:
    """Every floor alarm, open ones first, each worded in the installed language."""
    return AlarmBoard(words if words is not None else {}).read(store)


@dataclass
class AlarmBoard:
    """The floor's alarms as a view keeps them between reads: each read takes from the store only
    the rows raised or changed since the last (croupier.floor.store's change numbers), in one round
    trip; `words` keeps each table alarm's wording from its event, read once."""

    words: dict[tuple[str, int], Worded] = field(default_factory=dict)
    upto: int = -1  # the change number the board holds every row up to
    alarms: dict[tuple[str, int], Alarm] = field(default_factory=dict)
    refusals: dict[tuple[str, RefusalReason, str], Refusal] = field(default_factory=dict)

    def read(self, store: FloorStore) -> list[Shown]:
        """Every floor alarm, open ones first, each worded in the installed language."""
        changes = store.alarm_changes(self.upto)
        self.alarms.update(((alarm.table_id, alarm.event_seq), alarm) for alarm in changes.alarms)
        self.refusals.update(((refusal.subject, refusal.reason, refusal.raised), refusal)
                             for refusal in changes.refusals)
        self.upto = changes.upto
        found = [_worded_alarm(store, alarm, self.words)
                 for alarm in sorted(self.alarms.values(), key=lambda alarm: alarm.raised)]
        found += [_worded_refusal(refusal) for refusal in sorted(self.refusals.values(), key=lambda r: r.raised)]
        return sorted(found, key=lambda item: not item.open)


def _worded_refusal(refusal: Refusal) -> Shown:
    if refusal.subject == OTHER_SUBJECTS:  # a flood over many subjects: counted together, the first few named
        return Shown(_("other subjects"), _("messages refused"),
                     _("{reason}: {count} message(s) on subjects beyond those listed, among them: {subjects}").format(
                         reason=refusal_reason(refusal.reason), count=refusal.messages,
                         subjects=", ".join(refusal.detail.split(EXAMPLES_APART))),
                     refusal.acknowledged is None, refusal.acknowledged_by, refusal=refusal)
    return Shown(refusal.subject, _("messages refused"), _("{reason}: {count} message(s), the first: {detail}").format(
        reason=refusal_reason(refusal.reason), count=refusal.messages, detail=refusal.detail),
        refusal.acknowledged is None, refusal.acknowledged_by, refusal=refusal)


def refusal_reason(reason: RefusalReason) -> str:
    """Why the gate refused messages, in the view's language."""
    return _(REASONS[reason])


def _worded_alarm(store: FloorStore, alarm: Alarm, words: dict[tuple[str, int], Worded]) -> Shown:
    if alarm.kind == CHAIN:
        return Shown(alarm.table_id, _("chain broken"), _("at event {seq}: {problem}").format(
            seq=alarm.event_seq, problem=alarm.problem), alarm.acknowledged is None, alarm.acknowledged_by, alarm)
    raised = _event_words(store, alarm.table_id, alarm.event_seq, words, _raised_words)
    answer = (_event_words(store, alarm.table_id, alarm.answer_seq, words, _answer_words)
              if alarm.answer_seq is not None else None)
    return Shown(alarm.table_id, alarm_words(alarm.kind), raised[0] if raised else alarm.problem,
                 alarm.acknowledged is None, alarm.acknowledged_by, alarm, answered=answer)


def _raised_words(event: Event) -> str | None:
    if not isinstance(event, AlarmRaised):
        return None
    subject = alarm_subject_words(event.facts, event.subject)
    detail = alarm_detail_words(event.alarm_kind, event.facts, event.detail)
    return f"{subject}: {detail}" if detail else subject


def _answer_words(event: Event) -> str | None:
    return alarm_answer_words(event) if isinstance(event, (AlarmAcknowledged, AlarmCleared)) else None


def _event_words(store: FloorStore, table_id: str, seq: int, words: dict[tuple[str, int], Worded],
                 worded: Callable[[Event], str | None]) -> Worded | None:
    """The words of the table's event `seq` and its time, read once: a stored event never changes."""
    found = words.get((table_id, seq))
    if found is None:
        body = store.event_body(table_id, seq)
        try:
            event = decode(body) if body else None
        except CodecError:
            event = None
        text = worded(event) if event is not None else None
        if event is not None and text is not None:
            found = words[table_id, seq] = (text, event.time)
    return found


def table_answers(store: FloorStore) -> dict[tuple[str, int], AlarmAcknowledged | AlarmCleared]:
    """The tables' own events that took up or ended their alarms, by (table, seq), read at once."""
    answers: dict[tuple[str, int], AlarmAcknowledged | AlarmCleared] = {}
    for key, body in store.answer_bodies().items():
        try:
            event = decode(body)
        except CodecError:
            continue  # a body that does not read back says nothing of how the alarm ended
        if isinstance(event, (AlarmAcknowledged, AlarmCleared)):
            answers[key] = event
    return answers


def answer_kind(event: AlarmAcknowledged | AlarmCleared) -> str:
    """How the table answered, as the store's readers name it: acknowledged, cleared (by a pit boss),
    or the procedure that ended it (relief, ball-swap, correction, pin-unlocked)."""
    if isinstance(event, AlarmAcknowledged):
        return "acknowledged"
    return event.answer.value if event.answer is not None else "cleared"


def ending_words(acknowledged_by: str | None, acknowledged: str | None, answer: Worded | None = None,
                 resumed_by: str | None = None, resumed: str | None = None, *, at_table: bool = False,
                 when: Callable[[datetime], str] = lambda moment: moment.isoformat(timespec="seconds")) -> str:
    """How an alarm ended, and when, in the installed language: open; taken up on the floor by whom;
    answered at its table by the table's event (acknowledged there, or ended by a relief, a ball
    swap, a correction or a pit boss's clearing: its words and time) by whom; its table resumed by
    whom. Times as `when` writes them (ISO 8601 to the second; the view's in its language and zone)."""
    said = []
    if acknowledged is None:
        said.append(_("open"))
    elif not at_table:
        said.append(_("acknowledged on the floor by {name} at {time}").format(name=acknowledged_by,
                                                                             time=_when(acknowledged, when)))
    elif answer is None:  # its event does not read back
        said.append(_("acknowledged at the table by {name}").format(name=acknowledged_by))
    if answer is not None:
        said.append(_("{answer}, at {time}").format(answer=answer[0], time=when(answer[1])))
    if resumed_by is not None:
        said.append(_("table resumed by {name} at {time}").format(name=resumed_by, time=_when(resumed, when)))
    return "; ".join(said)


def _when(text: str | None, when: Callable[[datetime], str]) -> str:
    """A time the store keeps, as `when` writes it."""
    try:
        return when(datetime.fromisoformat(text or ""))
    except ValueError:
        return text or "?"


def shown_time(moment: datetime) -> str:
    """A time on the view: its date and time to the minute, in the view's language and time zone."""
    return stamp(moment, "short")


def name_problem(text: str) -> str | None:
    """What is wrong with a name to record (as the table checks one, and no markup), or None."""
    name = text.strip()
    if not name:
        return _("a name cannot be empty")
    if len(name) > MAX_NAME:
        return _("a name has at most {limit} characters").format(limit=MAX_NAME)
    if control_characters(name):
        return _("a name is printable text: no control characters")
    if MARKUP & set(name):
        return _("a name holds no markup: no brackets")
    return None


def acknowledge(store: FloorStore, item: Shown, by: str) -> bool:
    """A pit boss takes up `item` (checked name); False when it was no longer open."""
    if item.refusal is not None:
        return store.acknowledge_refusals(item.refusal.subject, by) > 0
    assert item.alarm is not None
    return store.acknowledge_alarm(item.alarm.table_id, item.alarm.event_seq, by)
