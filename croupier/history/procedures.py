"""The procedures of a shift or a journal: voids with their reasons, result corrections, alarms with
their acknowledgement and clearing, ball swaps and replacements, reliefs and breaches, the table's
openings and changes of limits. One fold over the journal's records (`Procedures`), which the report
gives as JSON and the review and the PDF as tables (`procedure_tables`)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from croupier.history.redaction import redacted
from croupier.history.words import (alarm_detail_words, alarm_subject_words, alarm_words, reason_words, role_words,
                                    source_words, void_words)
from croupier.i18n import _
from croupier.table.events import AlarmKind

BREACHES = (AlarmKind.RELIEF_OVERDUE.value, AlarmKind.BALL_SWAP_OVERDUE.value)


@dataclass(frozen=True)
class Table:
    """A titled table of text cells, as the review and the PDF show it."""

    title: str
    columns: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]


class Procedures:
    KINDS = ("table-opened", "table-closed", "limits-changed", "profile-changed", "result-corrected",
             "spin-voided", "void-acknowledged", "ball-swapped", "ball-replaced", "staff-relieved", "alarm-raised",
             "alarm-acknowledged", "alarm-cleared", "late-chips-exchanged", "winning-bets-rebuilt")

    def __init__(self) -> None:
        self.voids: list[dict] = []
        self.corrections: list[dict] = []
        self.swaps: list[dict] = []
        self.replacements: list[dict] = []
        self.reliefs: list[dict] = []
        self.rebuilt: list[dict] = []
        self.limits: list[dict] = []
        self.late_chips: list[dict] = []
        self.tables: list[dict] = []  # openings and closings
        self._alarms: dict[int, dict] = {}
        self.raised: dict[int, dict] = {}  # alarm -> its alarm-raised record, whose facts word it in any language
        self.profile: str | None = None  # in force at the end
        self.table_id: str | None = None  # as the last opening recorded it

    @property
    def alarms(self) -> list[dict]:
        return list(self._alarms.values())

    @property
    def breaches(self) -> list[dict]:
        return [a for a in self._alarms.values() if a["kind"] in BREACHES]

    @property
    def direction_repeats(self) -> list[dict]:
        return [a for a in self._alarms.values() if a["kind"] == AlarmKind.DIRECTION_REPEATED.value]

    def add(self, seq: int, r: Mapping) -> None:
        kind = r["kind"]
        if kind == "result-corrected":
            self.corrections.append({k: r[k] for k in ("spin", "previous", "number", "reason", "by", "time")})
        elif kind == "spin-voided":
            self.voids.append({**{k: r[k] for k in ("spin", "reason", "time", "put_back", "source", "by")},
                               "acknowledged_by": None})
        elif kind == "void-acknowledged":  # a golpe nulo from the sensor, seen by the croupier
            for void in reversed(self.voids):
                if void["spin"] == r["spin"]:
                    void["acknowledged_by"] = r["by"]
                    break
        elif kind == "ball-swapped":
            self.swaps.append({k: r[k] for k in ("time", "ball", "previous", "late", "by")})
        elif kind == "ball-replaced":
            self.replacements.append({"time": r["time"], "previous": r["previous"], "ball": r["ball"]["id"],
                                      "diameter_mm": r["ball"]["diameter_mm"], "reason": r["reason"], "by": r["by"]})
        elif kind == "staff-relieved":
            self.reliefs.append({k: r[k] for k in ("time", "role", "outgoing", "incoming", "overdue", "reason")})
        elif kind == "alarm-raised":
            self._alarms[r["alarm"]] = {"alarm": r["alarm"], "kind": r["alarm_kind"], "subject": r["subject"],
                                        "detail": r["detail"], "time": r["time"], "acknowledged_by": None,
                                        "acknowledged": None, "cleared_by": None, "cleared": None,
                                        "cleared_note": None}
            self.raised[r["alarm"]] = dict(r)
        elif kind == "alarm-acknowledged" and r["alarm"] in self._alarms:
            self._alarms[r["alarm"]].update(acknowledged_by=r["by"], acknowledged=r["time"])
        elif kind == "alarm-cleared" and r["alarm"] in self._alarms:
            self._alarms[r["alarm"]].update(cleared_by=r["by"], cleared=r["time"], cleared_note=r["note"])
        elif kind == "late-chips-exchanged":
            self.late_chips.append({k: r[k] for k in ("time", "colour", "chips", "chip_value", "amount", "by")})
        elif kind in ("limits-changed", "profile-changed"):
            self.profile = r.get("profile", self.profile)
            self.limits.append(redacted(dict(r)))  # the whole record: a secret a future version adds stays out
        elif kind in ("table-opened", "table-closed"):
            self.profile = r.get("profile", self.profile)
            opened = kind == "table-opened"
            if opened:
                self.table_id = r.get("table_id") or self.table_id
            self.tables.append({"kind": kind, "time": r["time"], "by": r["by"],
                                **({"profile": r["profile"], "minimum": r["minimum"], "sensor_only": r["sensor_only"],
                                    "table_id": r.get("table_id")} if opened else {})})
        elif kind == "winning-bets-rebuilt":
            self.rebuilt.append({"time": r["time"], "spin": r["spin"], "by": r["by"]})


def alarm_facts(record: Mapping | None):
    """The facts an alarm-raised record holds, to word it in any language; None without them."""
    from croupier.table.events import AlarmRaised, from_record

    event = from_record(dict(record)) if record else None
    return event.facts if isinstance(event, AlarmRaised) else None


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def procedure_tables(records: Iterable[tuple[int, Mapping]],
                     clock: Callable[[datetime], str] = lambda moment: moment.strftime("%H:%M:%S")) -> list[Table]:
    """The procedures as tables; `clock` words a moment (in the table's time zone)."""
    fold = Procedures()
    for seq, record in records:
        fold.add(seq, record)

    def at(text: str | None) -> str:
        moment = _time(text)
        return clock(moment) if moment else ""

    voids = [(at(v["time"]), str(v["spin"]), void_words(v["reason"]), source_words(v["source"]), v["by"],
              "" if v["put_back"] is None else str(v["put_back"])) for v in fold.voids]
    corrections = [(at(c["time"]), str(c["spin"]), str(c["previous"]), str(c["number"]), c["by"], reason_words(c["reason"]))
                   for c in fold.corrections]
    facts = {alarm: alarm_facts(record) for alarm, record in fold.raised.items()}
    alarms = [(at(a["time"]), str(a["alarm"]), alarm_words(a["kind"]),
               alarm_subject_words(facts[a["alarm"]], a["subject"]),
               alarm_detail_words(a["kind"], facts[a["alarm"]], a["detail"]),
               f"{a['acknowledged_by']} {at(a['acknowledged'])}" if a["acknowledged_by"] else "",
               f"{a['cleared_by']} {at(a['cleared'])}" if a["cleared_by"] else "", a["cleared_note"] or "")
              for a in fold.alarms]
    changes = sorted([("swap", b) for b in fold.swaps] + [("replaced", b) for b in fold.replacements],
                     key=lambda change: change[1]["time"])
    balls = [(at(b["time"]), _("swap"), f"{b['previous']} -> {b['ball']}", b["by"],
              _("late") if b["late"] else _("on time"))
             if what == "swap" else
             (at(b["time"]), _("replaced"), f"{b['previous']} -> {b['ball']} ({b['diameter_mm']} mm)", b["by"],
              b["reason"])
             for what, b in changes]
    reliefs = [(at(r["time"]), role_words(r["role"]), r["outgoing"] or "", r["incoming"],
                _("OVERDUE") if r["overdue"] else _("in time"), r["reason"] or "") for r in fold.reliefs]
    return [
        Table(_("Voids (golpe nulo)"), (_("time"), _("spin"), _("reason"), _("source"), _("by"), _("ball back in")),
              voids),
        Table(_("Corrections"), (_("time"), _("spin"), _("was"), _("now"), _("by"), _("why")), corrections),
        Table(_("Alarms"), (_("raised"), _("alarm"), _("kind"), _("subject"), _("detail"), _("acknowledged"),
                            _("cleared"), _("note")), alarms),
        Table(_("Balls"), (_("time"), _("change"), _("balls"), _("by"), _("note")), balls),
        Table(_("Reliefs"), (_("time"), _("role"), _("outgoing"), _("incoming"), _("relief"), _("reason")), reliefs),
    ]
