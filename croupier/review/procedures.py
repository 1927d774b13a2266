"""The shift's procedures, each as a table: voids with their reasons, result corrections, alarms
with their acknowledgement and clearing, ball swaps and replacements, croupier reliefs and breaches."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from croupier.journal.store import Entry
from croupier.table import events as ev


def _clock(moment) -> str:
    return moment.astimezone().strftime("%H:%M:%S") if moment else ""


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]


def procedure_tables(entries: Iterable[Entry]) -> list[Table]:
    voids, corrections, balls, reliefs = [], [], [], []
    alarms: dict[int, list[str]] = {}
    for entry in entries:
        event = entry.event
        match event:
            case ev.SpinVoided():
                voids.append((_clock(event.time), str(event.spin), event.reason.value, event.source.value, event.by,
                              "" if event.put_back is None else str(event.put_back)))
            case ev.ResultCorrected():
                corrections.append((_clock(event.time), str(event.spin), str(event.previous), str(event.number),
                                    event.by, event.reason))
            case ev.AlarmRaised():
                alarms[event.alarm] = [_clock(event.time), str(event.alarm), event.alarm_kind.value, event.subject,
                                       event.detail, "", "", ""]
            case ev.AlarmAcknowledged() if event.alarm in alarms:
                alarms[event.alarm][5] = f"{event.by} {_clock(event.time)}"
            case ev.AlarmCleared() if event.alarm in alarms:
                alarms[event.alarm][6] = f"{event.by} {_clock(event.time)}"
                alarms[event.alarm][7] = event.note
            case ev.BallSwapped():
                balls.append((_clock(event.time), "swap", f"{event.previous} -> {event.ball}", event.by,
                              "late" if event.late else "on time"))
            case ev.BallReplaced():
                balls.append((_clock(event.time), "replaced", f"{event.previous} -> {event.ball.id} "
                               f"({event.ball.diameter_mm} mm)", event.by, event.reason))
            case ev.StaffRelieved():
                reliefs.append((_clock(event.time), event.role.value, event.outgoing or "", event.incoming,
                                "OVERDUE" if event.overdue else "in time", event.reason or ""))
    return [
        Table("Voids (golpe nulo)", ("time", "spin", "reason", "source", "by", "ball back in"), voids),
        Table("Corrections", ("time", "spin", "was", "now", "by", "why"), corrections),
        Table("Alarms", ("raised", "alarm", "kind", "subject", "detail", "acknowledged", "cleared", "note"),
              [tuple(row) for row in alarms.values()]),
        Table("Balls", ("time", "change", "balls", "by", "note"), balls),
        Table("Reliefs", ("time", "role", "outgoing", "incoming", "relief", "reason"), reliefs),
    ]
