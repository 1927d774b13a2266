"""The colour ledger: each colour given out in the shift, with its statement (`SRIJ 29`): chips
issued, staked, paid, returned, lost, and what was counted at the cash-out."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from croupier.journal.store import Entry
from croupier.review.procedures import Table
from croupier.table import events as ev


def chips_money(chips: Fraction, chip_value: Decimal) -> Decimal:
    """Chips (halves happen) at a colour's chip value, in money."""
    return Decimal(chips.numerator) / chips.denominator * chip_value


@dataclass
class ColourStatement:
    colour: str
    player: str
    chip_value: Decimal
    since: datetime
    issued: int = 0
    staked: int = 0
    won: Fraction = Fraction(0)
    returned: Fraction = Fraction(0)
    lost: Fraction = Fraction(0)
    cashed_out: ev.ColourCashedOut | None = None
    late_chips: list[ev.LateChipsExchanged] = field(default_factory=list)

    @property
    def net(self) -> Fraction:
        """The player's result in chips: paid by the bank minus stakes lost."""
        return self.won - self.lost

    @property
    def net_money(self) -> Decimal:
        return chips_money(self.net, self.chip_value)


def _settle(current: dict[str, ColourStatement], outcomes: Iterable[ev.ColourOutcome], sign: int) -> None:
    for outcome in outcomes:
        statement = current.get(outcome.colour)
        if statement is not None:
            statement.staked += sign * outcome.staked
            statement.won += sign * outcome.won
            statement.returned += sign * outcome.returned
            statement.lost += sign * outcome.lost


def colour_ledger(entries: Iterable[Entry]) -> list[ColourStatement]:
    """One statement per colour assignment, in the order they were given out."""
    statements: list[ColourStatement] = []
    current: dict[str, ColourStatement] = {}
    settled: dict[int, tuple[ev.ColourOutcome, ...]] = {}
    for entry in entries:
        event = entry.event
        match event:
            case ev.ColourAssigned():
                statement = ColourStatement(event.colour, event.player, event.chip_value, event.time, event.chips)
                current[event.colour] = statement
                statements.append(statement)
            case ev.ChipsIssued() if event.colour in current:
                current[event.colour].issued += event.chips
            case ev.ResultRecorded():
                settled[event.spin] = event.outcomes
                _settle(current, event.outcomes, 1)
            case ev.PayoutsRecorded():
                _settle(current, event.outcomes, 1)
            case ev.ResultCorrected():
                # The spin is settled again on the corrected number: the first settlement is undone.
                _settle(current, settled.get(event.spin, ()), -1)
                settled[event.spin] = event.outcomes
                _settle(current, event.outcomes, 1)
            case ev.ColourCashedOut() if event.colour in current:
                current.pop(event.colour).cashed_out = event
            case ev.LateChipsExchanged():
                for statement in reversed(statements):
                    if statement.colour == event.colour:
                        statement.late_chips.append(event)
                        break
    return statements


def ledger_table(statements: list[ColourStatement]) -> Table:
    rows = []
    for s in statements:
        out = s.cashed_out
        cash = f"{out.chips} chips for {out.expected_chips} on record = {out.amount}" if out else "still in play"
        late = sum(late.chips for late in s.late_chips)
        rows.append((s.colour, s.player, str(s.chip_value), s.since.astimezone().strftime("%H:%M"), str(s.issued),
                     str(s.staked), str(s.won), str(s.returned), str(s.lost), str(s.net), f"{s.net_money:.2f}",
                     cash, str(late) if late else ""))
    return Table("Colour ledger and statements (SRIJ 29)",
                 ("colour", "player", "chip value", "since", "issued", "staked", "paid", "returned", "lost",
                  "net chips", "net money", "cash-out", "late chips"), rows)
