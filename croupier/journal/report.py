"""The shift report: one dict assembled from the journal's records, for `croupier report`.

It works on the plain records (`Journal.records`), not on decoded events, so a year of spins is read
in seconds. Money is written as decimal strings, chips as numbers (halves are exact), times as
recorded (ISO 8601, UTC). `build_report` is the one place the report is put together: a new
section (the wheel statistics, say) is one more key there.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO
from decimal import Decimal
from fractions import Fraction

from croupier.export.redaction import redacted
from croupier.rules.profiles import numbering_of
from croupier.stats import summary
from croupier.stats.spins import CountedSpin
from croupier.table.events import AlarmKind

REPORT_KINDS = (
    "table-opened", "table-closed", "limits-changed", "profile-changed", "result-recorded", "result-corrected",
    "spin-voided", "ball-swapped", "ball-replaced", "staff-relieved", "alarm-raised", "alarm-acknowledged",
    "alarm-cleared", "colour-assigned", "chips-issued", "colour-cashed-out", "late-chips-exchanged",
    "winning-bets-rebuilt", "payouts-recorded", "void-acknowledged",
)
BREACHES = (AlarmKind.RELIEF_OVERDUE.value, AlarmKind.BALL_SWAP_OVERDUE.value)


def _chips(text: str | int) -> Fraction:
    return Fraction(text)


def _number(chips: Fraction) -> int | float:
    """Chips as a JSON number: whole, or an exact binary fraction (halves)."""
    return chips.numerator if chips.denominator == 1 else chips.numerator / chips.denominator


def _money(chips: Fraction, value: Decimal) -> str:
    return str(value * chips.numerator / chips.denominator)


class SpinList(Sequence):
    """The counted spins, kept as tuples (a year is half a million of them, on a Pi with little
    memory); each reads as a dict with SpinList.FIELDS, and "corrected_from" when corrected."""

    FIELDS = ("spin", "number", "source", "time", "ball", "croupier", "direction", "wheel_game", "event")

    def __init__(self) -> None:
        self._rows: list[tuple] = []
        self._corrected_from: dict[int, int] = {}
        self._index: dict[int, int] = {}  # spin -> position

    def add(self, seq: int, record: dict) -> None:
        word = sys.intern  # the same few names on every spin
        self._index[record["spin"]] = len(self._rows)
        self._rows.append((record["spin"], record["number"], word(record["source"]), record["time"],
                           word(record["ball"]), word(record["croupier"]),
                           record["direction"] and word(record["direction"]), record["wheel_game"], seq))

    def correct(self, spin: int, number: int) -> None:
        at = self._index.get(spin)
        if at is not None:
            self._corrected_from.setdefault(at, self._rows[at][1])
            self._rows[at] = self._rows[at][:1] + (number,) + self._rows[at][2:]

    def __len__(self) -> int:
        return len(self._rows)

    def counted(self) -> Iterator[CountedSpin]:
        """The spins as the wheel statistics take them, with corrected numbers; without their time,
        which the report's statistics (over every spin) do not use and a year takes long to parse."""
        for _spin, number, _source, _time, _ball, croupier, direction, *_ in self._rows:
            yield CountedSpin(number, croupier, direction)

    def __getitem__(self, at):
        if isinstance(at, slice):
            return [self._entry(i) for i in range(*at.indices(len(self)))]
        return self._entry(range(len(self._rows))[at])  # negative indices, and IndexError past the end

    def _entry(self, at: int) -> dict:
        entry = dict(zip(self.FIELDS, self._rows[at]))
        if at in self._corrected_from:
            entry["corrected_from"] = self._corrected_from[at]
        return entry


class _Colour:
    """One colour assignment and its statement (`SRIJ 29`)."""

    __slots__ = ("record", "value", "issued", "staked", "won", "returned", "lost", "cashed_out")

    def __init__(self, record: dict):
        self.record = record
        self.value = Decimal(record["chip_value"])
        self.issued = record["chips"]
        self.staked, self.won, self.returned, self.lost = 0, Fraction(0), Fraction(0), Fraction(0)
        self.cashed_out: dict | None = None

    def settle(self, outcome: dict, sign: int = 1) -> None:
        self.staked += sign * outcome["staked"]
        self.won += sign * _chips(outcome["won"])
        self.returned += sign * _chips(outcome["returned"])
        self.lost += sign * _chips(outcome["lost"])

    def entry(self) -> dict:
        net = self.won - self.lost
        return {
            "colour": self.record["colour"], "player": self.record["player"], "chip_value": str(self.value),
            "since": self.record["time"], "issued": self.issued, "staked": self.staked, "won": _number(self.won),
            "returned": _number(self.returned), "lost": _number(self.lost), "net": _number(net),
            "staked_money": _money(Fraction(self.staked), self.value), "paid_money": _money(self.won, self.value),
            "net_money": _money(net, self.value), "cashed_out": self.cashed_out,
        }


def _settle(in_play: dict[str, _Colour], outcomes: Iterable[dict], sign: int = 1) -> None:
    for outcome in outcomes:
        colour = in_play.get(outcome["colour"])
        if colour is not None:
            colour.settle(outcome, sign)


def build_report(records: Iterable[tuple[int, dict]], head: tuple[int, str], currency: str | None = None) -> dict:
    """The report of the journal whose REPORT_KINDS records are given, in order. The journal does
    not record the currency: `currency` is the configuration's, None when unknown."""
    spins = SpinList()
    outcomes_of: dict[int, list] = {}  # spin -> outcomes, for spins that settled bets
    voids, corrections, swaps, replacements, reliefs, rebuilt = [], [], [], [], [], []
    limits, late_chips, tables = [], [], []
    alarms: dict[int, dict] = {}
    ledger: list[_Colour] = []
    in_play: dict[str, _Colour] = {}
    profile = None  # the profile in force at the end, for the wheel's numbering

    for seq, r in records:
        kind = r["kind"]
        if kind == "result-recorded":
            spins.add(seq, r)
            if r["outcomes"]:
                outcomes_of[r["spin"]] = r["outcomes"]
                _settle(in_play, r["outcomes"])
        elif kind == "payouts-recorded":
            # The winners counted on the layout after the result (the spin detail is in the review).
            _settle(in_play, r["outcomes"])
        elif kind == "result-corrected":
            corrections.append({k: r[k] for k in ("spin", "previous", "number", "reason", "by", "time")})
            spins.correct(r["spin"], r["number"])
            _settle(in_play, outcomes_of.get(r["spin"], ()), -1)
            _settle(in_play, r["outcomes"])
            outcomes_of[r["spin"]] = r["outcomes"]
        elif kind == "spin-voided":
            voids.append({**{k: r[k] for k in ("spin", "reason", "time", "put_back", "source", "by")},
                          "acknowledged_by": None})
        elif kind == "void-acknowledged":  # a golpe nulo from the sensor, seen by the croupier
            for void in reversed(voids):
                if void["spin"] == r["spin"]:
                    void["acknowledged_by"] = r["by"]
                    break
        elif kind == "ball-swapped":
            swaps.append({k: r[k] for k in ("time", "ball", "previous", "late", "by")})
        elif kind == "ball-replaced":
            replacements.append({"time": r["time"], "previous": r["previous"], "ball": r["ball"]["id"],
                                 "diameter_mm": r["ball"]["diameter_mm"], "reason": r["reason"], "by": r["by"]})
        elif kind == "staff-relieved":
            reliefs.append({k: r[k] for k in ("time", "role", "outgoing", "incoming", "overdue", "reason")})
        elif kind == "alarm-raised":
            alarms[r["alarm"]] = {"alarm": r["alarm"], "kind": r["alarm_kind"], "subject": r["subject"],
                                  "detail": r["detail"], "time": r["time"], "acknowledged_by": None,
                                  "cleared_by": None, "cleared_note": None}
        elif kind == "alarm-acknowledged":
            alarms[r["alarm"]]["acknowledged_by"] = r["by"]
        elif kind == "alarm-cleared":
            alarms[r["alarm"]].update(cleared_by=r["by"], cleared_note=r["note"])
        elif kind == "colour-assigned":
            in_play[r["colour"]] = _Colour(r)
            ledger.append(in_play[r["colour"]])
        elif kind == "chips-issued":
            in_play[r["colour"]].issued += r["chips"]
        elif kind == "colour-cashed-out":
            colour = in_play.pop(r["colour"])
            colour.cashed_out = {k: r[k] for k in ("time", "chips", "expected_chips", "amount", "reason", "by")}
        elif kind == "late-chips-exchanged":
            late_chips.append({k: r[k] for k in ("time", "colour", "chips", "chip_value", "amount", "by")})
        elif kind in ("limits-changed", "profile-changed"):
            profile = r.get("profile", profile)
            limits.append(redacted(r))  # the whole record: any secret a future version adds stays out
        elif kind in ("table-opened", "table-closed"):
            profile = r.get("profile", profile)
            tables.append({"kind": kind, "time": r["time"], "by": r["by"],
                           **({"profile": r["profile"], "minimum": r["minimum"], "sensor_only": r["sensor_only"]}
                              if kind == "table-opened" else {})})
        elif kind == "winning-bets-rebuilt":
            rebuilt.append({"time": r["time"], "spin": r["spin"], "by": r["by"]})

    alarm_list = list(alarms.values())
    repeats = [a for a in alarm_list if a["kind"] == AlarmKind.DIRECTION_REPEATED.value]
    statements = [c.entry() for c in ledger]
    return {
        "head": {"event": head[0], "sha256": head[1]},
        "currency": currency,
        "table": tables,
        "limits": limits,
        "spins": spins,
        "voids": voids,
        "corrections": corrections,
        "ball_swaps": swaps,
        "ball_replacements": replacements,
        "reliefs": reliefs,
        "breaches": [a for a in alarm_list if a["kind"] in BREACHES],
        "direction_repeats": repeats,
        "alarms": alarm_list,
        "colour_ledger": statements,
        "late_chips": late_chips,
        "winning_bets_rebuilt": rebuilt,
        # The same wheel-integrity summary the review app shows, over every counted spin.
        "statistics": summary(spins.counted(), numbering_of(profile)),
        "totals": {
            "spins": len(spins), "voids": len(voids), "corrections": len(corrections),
            "direction_repeats": len(repeats), "ball_swaps": len(swaps), "reliefs": len(reliefs),
            "overdue_reliefs": sum(1 for r in reliefs if r["overdue"]),
            "breaches": sum(1 for a in alarm_list if a["kind"] in BREACHES),
            "alarms_open": sum(1 for a in alarm_list if a["cleared_by"] is None),
            "staked_money": str(sum((Decimal(s["staked_money"]) for s in statements), Decimal(0))),
            "paid_money": str(sum((Decimal(s["paid_money"]) for s in statements), Decimal(0))),
            "players_net_money": str(sum((Decimal(s["net_money"]) for s in statements), Decimal(0))),
            "late_chips_money": str(sum((Decimal(x["amount"]) for x in late_chips), Decimal(0))),
        },
    }


def write_json(report: dict, out: TextIO, chunk: int = 10_000) -> None:
    """The report as one JSON object, the spins encoded a chunk at a time so the whole text of a
    year of spins is never in memory at once."""
    rest = json.dumps({k: v for k, v in report.items() if k != "spins"}, ensure_ascii=False, separators=(",", ":"))
    out.write(rest[:-1] + ',"spins":[')
    spins = report["spins"]
    for start in range(0, len(spins), chunk):
        # dumps, not dump: only the one-shot encoder is the fast C one.
        out.write(("," if start else "") + json.dumps(spins[start:start + chunk], ensure_ascii=False,
                                                         separators=(",", ":"))[1:-1])
    out.write("]}\n")
