"""`croupier floor status`: per table what the floor holds, the chain's state, the last anchor, and
how far the store is behind the stream; above them, whether the ingester is storing.

A stall of any kind shows here within seconds: the ingester writes its word every couple of seconds
(a word that stops is a stalled or stopped ingester, or a store it cannot write), and with it each
table's last event the stream delivered, so a table held back (a gap, a quarantine) shows as behind
the stream, not as quiet."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from croupier.floor.alarms import answer_kind, ending_words, table_answers
from croupier.floor.store import FloorStore, IngesterRecord, TableRecord
from croupier.history.words import alarm_answer_words
from croupier.table.events import AlarmCleared
from croupier.i18n import _

SILENT_S = 6.0  # an ingester whose word is older than this is stalled (it writes every 2 s)


def _age_s(text: str | None, now: datetime) -> float | None:
    if not text:
        return None
    try:
        then = datetime.fromisoformat(text)
    except ValueError:
        return None
    return round((now - then).total_seconds(), 3)


@dataclass(frozen=True)
class IngesterWord:
    holder: str | None
    state: str | None
    word_s_ago: float | None
    pending: int | None
    problem: str | None  # None: storing, nothing held up

    def as_dict(self) -> dict:
        return {"holder": self.holder, "state": self.state, "word_s_ago": self.word_s_ago, "pending": self.pending,
                "stalled": self.problem is not None, "problem": self.problem}


def ingester_word(record: IngesterRecord | None, now: datetime) -> IngesterWord:
    if record is None:
        return IngesterWord(None, None, None, None, _("no ingester has written to this store"))
    age = _age_s(record.beat, now)
    if age is None or age > SILENT_S:
        problem = (_("ingester silent for {seconds} s (it last said: {state})").format(seconds=f"{age:.0f}",
                                                                                       state=record.state)
                   if age is not None else _("the ingester has not said how it is"))
    elif record.state != "storing":
        problem = _("ingester: {state}").format(state=record.state)
    else:
        problem = None
    return IngesterWord(record.holder, record.state, age, record.pending, problem)


@dataclass(frozen=True)
class TableLag:
    behind: int  # events the stream delivered that the store does not hold
    lag_s: float | None  # how long the first of them has waited (None: unknown, the ingester is silent)


def table_lag(record: TableRecord, now: datetime, word: IngesterWord) -> TableLag:
    behind = max(0, (record.seen_seq or 0) - record.head_seq)
    if word.word_s_ago is None or word.word_s_ago > SILENT_S:
        return TableLag(behind, None)
    since = _age_s(record.behind_since, now) if behind else 0.0
    return TableLag(behind, since if since is not None else 0.0)


def floor_status(store: FloorStore, now: datetime | None = None) -> dict:
    now = now or store.now()
    word = ingester_word(store.ingester(), now)
    tables = []
    for t in store.tables():
        lag = table_lag(t, now, word)
        tables.append({
            "table": t.table_id,
            "last_seq": t.head_seq,
            "head_hash": t.head_hash,
            "chain": "intact" if t.broken_at is None else "broken",
            "quarantined": t.broken_at is not None,
            "first_bad_event": t.broken_at,
            "problem": t.problem,
            "last_anchor": None if t.anchor_seq is None else {"seq": t.anchor_seq, "hash": t.anchor_hash,
                                                              "time": t.anchor_time},
            "stream_seq": max(t.head_seq, t.seen_seq or 0),  # the last event the stream delivered
            "behind": lag.behind,
            "lag_s": lag.lag_s,  # how long the store has been behind the stream for this table
            "last_heard_s": _age_s(t.last_heard, now),
        })
    stored = store.alarms()
    answers = table_answers(store)
    alarms = []
    for a in stored:
        answer = answers.get((a.table_id, a.answer_seq)) if a.answer_seq is not None else None
        alarms.append({
            "table": a.table_id, "event": a.event_seq, "kind": a.kind, "problem": a.problem, "raised": a.raised,
            "acknowledged_by": a.acknowledged_by, "acknowledged": a.acknowledged,
            # where it was first taken up: on the floor, or at its table (by the table's event `answer`)
            "acknowledged_where": None if a.acknowledged is None else "table" if a.acknowledged_at_table
            else "floor",
            "answer": None if answer is None else {  # the table's latest event on it: how it ended there, when
                "event": a.answer_seq, "kind": answer_kind(answer), "by": answer.by,
                "time": answer.time.isoformat(), "note": answer.note if isinstance(answer, AlarmCleared) else None},
            "resumed_by": a.resumed_by, "resumed": a.resumed,
            "ended": ending_words(a.acknowledged_by, a.acknowledged,
                                  None if answer is None else (alarm_answer_words(answer), answer.time),
                                  a.resumed_by, a.resumed, at_table=a.acknowledged_at_table)})
    refusals = [{"subject": r.subject, "reason": r.reason, "messages": r.messages, "detail": r.detail,
                 "raised": r.raised, "last_seen": r.last_seen, "acknowledged_by": r.acknowledged_by,
                 "acknowledged": r.acknowledged, "ended": ending_words(r.acknowledged_by, r.acknowledged)}
                for r in store.refusals()]
    return {"ingester": word.as_dict(), "tables": tables, "alarms": alarms, "refusals": refusals}


def format_status(status: dict) -> str:
    word = status["ingester"]
    if word["problem"]:
        lines = [f"STALLED: {word['problem']}"]
    else:
        lines = [f"ingester {word['holder']}: storing, {word['pending'] if word['pending'] is not None else '?'} "
                 f"message(s) pending in the stream"]
    lines.append(f"{'table':<10} {'last seq':>8}  {'chain':<24} {'anchor':>7}  {'behind':>6}  {'lag s':>7}  "
                 f"{'heard s ago':>11}  head")
    for t in status["tables"]:
        chain = ("intact" if t["chain"] == "intact" else
                 f"quarantined at {t['first_bad_event']}")
        anchor = t["last_anchor"]["seq"] if t["last_anchor"] else "-"
        lag = "?" if t["lag_s"] is None else f"{t['lag_s']:.1f}"
        heard = "-" if t["last_heard_s"] is None else f"{t['last_heard_s']:.0f}"
        lines.append(f"{t['table']:<10} {t['last_seq']:>8}  {chain:<24} {anchor:>7}  {t['behind']:>6}  {lag:>7}  "
                     f"{heard:>11}  {t['head_hash'][:16]}")
        if t["behind"] and not t["quarantined"]:
            lines.append(f"  table {t['table']} waits for event {t['last_seq'] + 1}: the stream holds it up to "
                         f"{t['stream_seq']}")
    for a in status["alarms"]:
        lines.append(f"ALARM table {a['table']} event {a['event']} {a['kind']}: {a['problem']} ({a['ended']})")
    for r in status["refusals"]:
        lines.append(f"REFUSED {r['messages']} message(s) on {r['subject']}: {r['reason']}: {r['detail']} "
                     f"({r['ended']})")
    return "\n".join(lines)
