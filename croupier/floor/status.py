"""`croupier floor status`: per table what the floor holds, the chain's state, the last anchor and the lag."""
from __future__ import annotations

from datetime import datetime, timezone

from croupier.floor.store import FloorStore


def _age_s(text: str | None, now: datetime) -> float | None:
    if not text:
        return None
    try:
        then = datetime.fromisoformat(text)
    except ValueError:
        return None
    return round((now - then).total_seconds(), 3)


def floor_status(store: FloorStore, now: datetime | None = None) -> dict:
    now = now or datetime.now(timezone.utc)
    tables = []
    for t in store.tables():
        tables.append({
            "table": t.table_id,
            "last_seq": t.head_seq,
            "head_hash": t.head_hash,
            "chain": "intact" if t.broken_at is None else "broken",
            "first_bad_event": t.broken_at,
            "problem": t.problem,
            "last_anchor": None if t.anchor_seq is None else {"seq": t.anchor_seq, "hash": t.anchor_hash,
                                                              "time": t.anchor_time},
            # how late the last stored event arrived, and how long since the table was last heard
            "lag_s": (_age_s(t.last_event_time, datetime.fromisoformat(t.last_received))
                      if t.last_received and t.last_event_time else None),
            "last_heard_s": _age_s(t.last_heard, now),
        })
    alarms = [{"table": a.table_id, "event": a.event_seq, "problem": a.problem, "raised": a.raised,
               "acknowledged_by": a.acknowledged_by} for a in store.alarms()]
    return {"tables": tables, "alarms": alarms}


def format_status(status: dict) -> str:
    lines = [f"{'table':<10} {'last seq':>8}  {'chain':<20} {'anchor':>7}  {'lag s':>7}  {'heard s ago':>11}  head"]
    for t in status["tables"]:
        chain = "intact" if t["chain"] == "intact" else f"broken at {t['first_bad_event']}"
        anchor = t["last_anchor"]["seq"] if t["last_anchor"] else "-"
        lag = "-" if t["lag_s"] is None else f"{t['lag_s']:.3f}"
        heard = "-" if t["last_heard_s"] is None else f"{t['last_heard_s']:.0f}"
        lines.append(f"{t['table']:<10} {t['last_seq']:>8}  {chain:<20} {anchor:>7}  {lag:>7}  {heard:>11}  "
                     f"{t['head_hash'][:16]}")
    for a in status["alarms"]:
        who = f"acknowledged by {a['acknowledged_by']}" if a["acknowledged_by"] else "open"
        lines.append(f"ALARM table {a['table']} event {a['event']}: {a['problem']} ({who})")
    return "\n".join(lines)
