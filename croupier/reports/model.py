"""The report's model: typed values every renderer reads by attribute (the text report, `--json`,
the report CSV, the PDF and the review). Money is Decimal and chips Fraction here; `entry()` writes
the JSON form `croupier report --json` prints (money as decimal strings, chips as numbers).

The procedures (voids, corrections, reliefs, alarms...) are the typed records their projection keeps
(`croupier.history.procedures`), their fields as recorded: plain values, the same in the fold a
report saves and takes up again."""
from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date
from decimal import Decimal
from collections.abc import Iterable

from croupier.history.croupiers import CroupierFigures
from croupier.history.ledger import ColourStatement
from croupier.history.payouts import Overpayment
from croupier.history.procedures import (AlarmRecord, ClosingRecord, CorrectionRecord, LateChipsRecord, OpeningRecord,
                                         Procedure, RebuiltRecord, ReliefRecord, ReplacementRecord, SwapRecord,
                                         VoidRecord)
from croupier.history.shift_results import ShiftResult
from croupier.history.spins import SpinList



def entries(records: Iterable[Procedure]) -> list[dict]:
    """Procedures as the report's JSON writes them: each record's fields, as recorded."""
    return [record.entry() for record in records]


@dataclass(frozen=True)
class Head:
    """The journal's head when the report was made: `croupier verify` prints the same."""

    event: int
    sha256: str

    def entry(self) -> dict:
        return {"event": self.event, "sha256": self.sha256}


@dataclass(frozen=True)
class Range:
    """The days the report covers, in the table's time zone (None: no bound), or the one shift."""

    since: date | None = None
    until: date | None = None
    shift: int | None = None  # one shift's report: its number (1 is the oldest), as `--shift` names it

    @property
    def bounded(self) -> bool:
        return self.since is not None or self.until is not None

    def entry(self) -> dict:
        return {"from": self.since and self.since.isoformat(), "to": self.until and self.until.isoformat(),
                "shift": self.shift}


@dataclass(frozen=True)
class Checkpoint:
    """The table's own signed fold the report started from."""

    event: int
    sha256: str
    signed_by: str

    def entry(self) -> dict:
        return {"event": self.event, "sha256": self.sha256, "signed_by": self.signed_by}


@dataclass(frozen=True)
class MoneyTotals:
    """The table's money in one currency: never added to another's."""

    currency: str | None  # None: the journal records none and no configuration names it
    bought_money: Decimal
    cashed_out_money: Decimal
    late_chips_money: Decimal
    players_result_money: Decimal
    foreign_chips_money: Decimal
    table_result_money: Decimal
    colours_in_play: int
    overpaid_money: Decimal  # to recover from the players after corrections of paid spins
    owed_money: Decimal  # owed to them

    def entry(self) -> dict:
        return {f.name: str(value) if isinstance(value := getattr(self, f.name), Decimal) else value
                for f in fields(self)}


@dataclass(frozen=True)
class Totals:
    """The counts, and the money of a report in one currency (None where it holds several: see
    `ShiftReport.money`, one MoneyTotals per currency)."""

    spins: int
    voids: int
    corrections: int
    direction_repeats: int
    ball_swaps: int
    reliefs: int
    overdue_reliefs: int
    breaches: int
    alarms_open: int
    bought_money: Decimal | None
    cashed_out_money: Decimal | None
    late_chips_money: Decimal | None
    players_result_money: Decimal | None
    foreign_chips_money: Decimal | None
    table_result_money: Decimal | None
    colours_in_play: int
    overpaid_money: Decimal | None
    owed_money: Decimal | None

    def entry(self) -> dict:
        return {f.name: str(value) if isinstance(value := getattr(self, f.name), Decimal) else value
                for f in fields(self)}


@dataclass(frozen=True)
class ShiftReport:
    """The report of a journal, of a date range of it, or of one shift."""

    head: Head
    table_id: str | None
    currency: str | None  # the journal's one currency, else the configuration's; None when unknown or several
    table: tuple[OpeningRecord | ClosingRecord, ...]  # openings and closings
    limits: tuple[dict, ...]  # each change of limits or profile, its whole record as stored
    spins: SpinList
    voids: tuple[VoidRecord, ...]
    corrections: tuple[CorrectionRecord, ...]
    overpayments: tuple[Overpayment, ...]  # per corrected spin and colour, what to recover
    ball_swaps: tuple[SwapRecord, ...]
    ball_replacements: tuple[ReplacementRecord, ...]
    reliefs: tuple[ReliefRecord, ...]
    breaches: tuple[AlarmRecord, ...]
    direction_repeats: tuple[AlarmRecord, ...]
    alarms: tuple[AlarmRecord, ...]
    colour_ledger: tuple[ColourStatement, ...]
    late_chips: tuple[LateChipsRecord, ...]
    croupiers: tuple[CroupierFigures, ...]
    shift_results: tuple[ShiftResult, ...]
    foreign_chips: tuple[dict, ...]  # FR: another table's colour chips settled here
    winning_bets_rebuilt: tuple[RebuiltRecord, ...]
    statistics: dict  # the wheel-integrity summary the review shows (croupier.stats)
    totals: Totals
    raised: dict[int, dict | None]  # each alarm's facts as recorded, to word its detail in any language
    money: tuple[MoneyTotals, ...] = ()  # the table's money per currency, in the order they came
    range: Range = Range()
    checked_before: int = 0  # events up to this one were folded by the table or an earlier report
    checkpoint: Checkpoint | None = None

    @property
    def currencies(self) -> tuple[str | None, ...]:
        return tuple(m.currency for m in self.money) or (self.currency,)

    @property
    def mixed_shifts(self) -> tuple[ShiftResult, ...]:
        """Parts of shifts whose currency changed with money already moved."""
        return tuple(s for s in self.shift_results if s.mixed)

    @property
    def mixed_colours(self) -> tuple[ColourStatement, ...]:
        """Colours in play across a change of currency: in no currency's totals."""
        return tuple(s for s in self.colour_ledger if s.currency_changed)

    def entry(self) -> dict:
        """The report as JSON, every section but the spins (`write_json` streams them)."""
        return {
            "head": self.head.entry(), "table_id": self.table_id, "currency": self.currency,
            "table": entries(self.table), "limits": list(self.limits), "voids": entries(self.voids),
            "corrections": entries(self.corrections),
            "overpayments": [{"spin": o.spin, "colour": o.colour, "paid_on": o.paid_on, "number": o.number,
                              "chips": str(o.chips), "won": str(o.won), "kept": str(o.kept),
                              "money": None if o.money is None else str(o.money),
                              "positions": list(o.positions), "currency": o.currency} for o in self.overpayments],
            "ball_swaps": entries(self.ball_swaps), "ball_replacements": entries(self.ball_replacements),
            "reliefs": entries(self.reliefs), "breaches": entries(self.breaches),
            "direction_repeats": entries(self.direction_repeats), "alarms": entries(self.alarms),
            "colour_ledger": [s.entry() for s in self.colour_ledger], "late_chips": entries(self.late_chips),
            "croupiers": [f.entry() for f in self.croupiers],
            "shift_results": [s.entry() for s in self.shift_results],
            "foreign_chips": list(self.foreign_chips), "winning_bets_rebuilt": entries(self.winning_bets_rebuilt),
            "statistics": self.statistics, "totals": self.totals.entry(),
            "currencies": list(self.currencies), "money_by_currency": [m.entry() for m in self.money],
            "range": self.range.entry(),
            "checked_before": self.checked_before,
            "checkpoint": self.checkpoint.entry() if self.checkpoint else None,
        }
