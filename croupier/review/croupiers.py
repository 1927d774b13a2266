"""Per croupier over a shift: time at the wheel, spins per hour, voids, launch-direction repeats
(`PT-A 21`), relief compliance (`PT-A 33`, `PT-B 35`, `RU 4.4`) and the chips paid out on their spins."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from croupier.journal.store import Entry
from croupier.review.ledger import chips_money
from croupier.review.procedures import Table
from croupier.table import events as ev


@dataclass
class CroupierFigures:
    name: str
    on_duty: timedelta = timedelta()
    stints: int = 0
    longest_stint: timedelta = timedelta()
    spins: int = 0
    voids: int = 0
    direction_repeats: int = 0
    overdue_reliefs: int = 0  # relieved later than the profile allows
    paid_chips: Fraction = Fraction(0)
    paid_money: Decimal = Decimal(0)
    _since: datetime | None = field(default=None, repr=False)

    @property
    def spins_per_hour(self) -> float:
        hours = self.on_duty.total_seconds() / 3600
        return self.spins / hours if hours else 0.0


def _pay(figure: CroupierFigures, outcomes, chip_values: dict[str, Decimal], sign: int) -> None:
    for outcome in outcomes:
        figure.paid_chips += sign * outcome.won
        value = chip_values.get(outcome.colour)
        if value is not None:
            figure.paid_money += sign * chips_money(outcome.won, value)


def croupier_figures(entries: Iterable[Entry], now: datetime | None = None) -> list[CroupierFigures]:
    """Figures per croupier, by name. A stint still running is counted up to `now` (default: the
    last event's time)."""
    figures: dict[str, CroupierFigures] = {}
    chip_values: dict[str, Decimal] = {}
    settled: dict[int, tuple[CroupierFigures, tuple[ev.ColourOutcome, ...]]] = {}
    on_wheel: CroupierFigures | None = None
    last_time = None

    def person(name: str) -> CroupierFigures:
        return figures.setdefault(name, CroupierFigures(name))

    def start(name: str, at: datetime) -> CroupierFigures:
        figure = person(name)
        figure._since = at
        figure.stints += 1
        return figure

    def stop(figure: CroupierFigures | None, at: datetime) -> None:
        if figure is not None and figure._since is not None:
            stint = at - figure._since
            figure.on_duty += stint
            figure.longest_stint = max(figure.longest_stint, stint)
            figure._since = None

    for entry in entries:
        event = entry.event
        last_time = event.time
        match event:
            case ev.TableOpened():
                stop(on_wheel, event.time)
                on_wheel = start(event.croupier, event.time)
            case ev.TableClosed():
                stop(on_wheel, event.time)
                on_wheel = None
            case ev.StaffRelieved() if event.role is ev.Role.CROUPIER:
                stop(on_wheel, event.time)
                if event.overdue and event.outgoing:
                    person(event.outgoing).overdue_reliefs += 1
                on_wheel = start(event.incoming, event.time)
            case ev.ColourAssigned():
                chip_values[event.colour] = event.chip_value
            case ev.ResultRecorded():
                figure = person(event.croupier)
                figure.spins += 1
                settled[event.spin] = (figure, event.outcomes)
                _pay(figure, event.outcomes, chip_values, 1)
            case ev.ResultCorrected() if event.spin in settled:
                # Settled again on the corrected number: the first payout did not stand.
                figure, outcomes = settled[event.spin]
                _pay(figure, outcomes, chip_values, -1)
                settled[event.spin] = (figure, event.outcomes)
                _pay(figure, event.outcomes, chip_values, 1)
            case ev.SpinVoided() if on_wheel is not None:
                on_wheel.voids += 1
            case ev.AlarmRaised() if event.alarm_kind is ev.AlarmKind.DIRECTION_REPEATED and on_wheel is not None:
                on_wheel.direction_repeats += 1
    if on_wheel is not None and last_time is not None:
        stop(on_wheel, now or last_time)
    return sorted(figures.values(), key=lambda figure: figure.name)


def _duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    return f"{minutes // 60}h{minutes % 60:02d}"


def croupier_table(figures: list[CroupierFigures]) -> Table:
    rows = [(f.name, _duration(f.on_duty), str(f.stints), _duration(f.longest_stint), str(f.spins),
             f"{f.spins_per_hour:.1f}", str(f.voids), str(f.direction_repeats), str(f.overdue_reliefs),
             str(f.paid_chips), f"{f.paid_money:.2f}") for f in figures]
    return Table("Croupiers", ("croupier", "at the wheel", "stints", "longest stint", "spins", "spins/hour",
                               "voids", "direction repeats", "late reliefs", "paid chips", "paid money"), rows)
