"""Per croupier: time at the wheel, spins dealt and spins per hour, voids, corrections of their
results, launch-direction repeats (`PT-A 21`), relief compliance (`PT-A 33`, `PT-B 35`, `RU 4.4`)
and what was paid on their spins: settled with the result and counted at the payouts."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from array import array
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from croupier.history.money import amounts_words, chips_money, json_number, owner_values
from croupier.history.procedures import Table
from croupier.history.projection import Projection, reads
from croupier.table.events import (AlarmKind, AlarmRaised, ColourAssigned, ColourOutcome, ContextChanged, Event, PayoutsRecorded,
                                   ResultCorrected, ResultRecorded, Role, SpinVoided, StaffRelieved, TableClosed,
                                   TableOpened)
from croupier.i18n import _, formats

UNKNOWN_VALUE = "unknown"  # the key of chips paid to a colour whose value the journal never gave


def by_value_words(paid_by_value: dict[str, Fraction]) -> str:
    """Chips per chip value, never added together: "35 x 5.00, 2 x 10.00" ("0": none); a value of
    another currency's chips is named with it ("3 x 100.00 RUB")."""
    def value_words(key: str) -> str:
        value, currency = split_value(key)
        return UNKNOWN_VALUE if value is None else formats.money(value, currency)

    return formats.chips(0) if not paid_by_value else ", ".join(
        f"{formats.chips(chips)} x {value_words(key)}"
        for key, chips in sorted(paid_by_value.items(), key=lambda item: _value_order(item[0])))


def split_value(key: str) -> tuple[Decimal | None, str | None]:
    """A chip value key ("5", "5 EUR", "unknown") as its value (None: unknown) and currency."""
    value, _space, currency = key.partition(" ")
    return (None if value == UNKNOWN_VALUE else Decimal(value)), currency or None


def _value_order(key: str) -> tuple[str, Decimal]:
    value, currency = split_value(key)
    return currency or "", Decimal("Infinity") if value is None else value


@dataclass
class CroupierFigures:
    name: str
    on_duty: timedelta = timedelta()
    stints: int = 0
    longest_stint: timedelta = timedelta()
    spins: int = 0
    voids: int = 0
    corrections: int = 0  # results of their spins corrected by the pit boss
    direction_repeats: int = 0
    overdue_reliefs: int = 0  # relieved later than the profile allows
    # Chips paid per currency and chip value (chips of different values are never added together),
    # and in money per currency (None: the journal records no currency).
    paid_in: dict[str | None, dict[str, Fraction]] = field(default_factory=dict)
    money_in: dict[str | None, Decimal] = field(default_factory=dict)
    _since: datetime | None = field(default=None, repr=False)

    @property
    def paid_by_value(self) -> dict[str, Fraction]:
        """Chips per chip value; with more than one currency, each value named with its own ("5 EUR")."""
        if len(self.paid_in) <= 1:
            return next(iter(self.paid_in.values()), {})
        return {key if currency is None or key == UNKNOWN_VALUE else f"{key} {currency}": chips
                for currency, paid in self.paid_in.items() for key, chips in paid.items()}

    @property
    def paid_money(self) -> Decimal | None:
        """What was paid, in money; None when it was paid in more than one currency (see `money_in`)."""
        if len(self.money_in) > 1:
            return None
        return next(iter(self.money_in.values()), Decimal(0))

    @property
    def spins_per_hour(self) -> float:
        hours = self.on_duty.total_seconds() / 3600
        return self.spins / hours if hours else 0.0

    def entry(self) -> dict:
        return {"croupier": self.name, "on_duty_seconds": int(self.on_duty.total_seconds()), "stints": self.stints,
                "spins": self.spins, "spins_per_hour": round(self.spins_per_hour, 1), "voids": self.voids,
                "corrections": self.corrections, "direction_repeats": self.direction_repeats,
                "overdue_reliefs": self.overdue_reliefs,
                "paid_chips_by_value": {value: json_number(chips) for value, chips in self.paid_by_value.items()},
                "paid_money": None if (money := self.paid_money) is None else str(money),
                "paid_by_currency": [{"currency": currency, "money": str(self.money_in.get(currency, Decimal(0))),
                                      "chips_by_value": {v: json_number(c) for v, c in paid.items()}}
                                     for currency, paid in self.paid_in.items()]}


class Croupiers(Projection):
    """Folds the table's openings, reliefs, spins and payouts, in journal order."""

    def __init__(self) -> None:
        self.figures: dict[str, CroupierFigures] = {}
        self._values: dict[str, Decimal] = owner_values()
        # Who dealt each spin and what its result paid, for a correction to move: a year holds half
        # a million spins, so the dealer is a code per spin number and only a paying result is kept.
        self._dealer = array("H")  # spin -> index in _dealers + 1 (0: not dealt here)
        self._dealers: list[CroupierFigures] = []
        self._codes: dict[str, int] = {}  # croupier -> code in _dealer
        self._outcomes: dict[int, tuple[ColourOutcome, ...]] = {}
        self._on_wheel: CroupierFigures | None = None
        self._last_time: datetime | None = None
        self._currency: str | None = None  # in force (the opening's, then the pit boss's changes)
        self._currencies: dict[str, str | None] = {}  # each colour: the currency it was given in

    def _person(self, name: str) -> CroupierFigures:
        return self.figures.setdefault(name, CroupierFigures(name))

    def _dealt(self, spin: int, figure: CroupierFigures, outcomes: tuple[ColourOutcome, ...]) -> None:
        code = self._codes.get(figure.name)
        if code is None:
            self._dealers.append(figure)
            code = self._codes[figure.name] = len(self._dealers)
        if spin == len(self._dealer):  # the next spin, as spins come
            self._dealer.append(code)
            return self._keep(spin, outcomes)
        if spin > len(self._dealer):
            self._dealer.frombytes(bytes(2 * (spin + 1 - len(self._dealer))))
        self._dealer[spin] = code
        self._keep(spin, outcomes)

    def _keep(self, spin: int, outcomes: tuple[ColourOutcome, ...]) -> None:
        if outcomes:
            self._outcomes[spin] = outcomes
        else:
            self._outcomes.pop(spin, None)

    def _dealer_of(self, spin: int) -> CroupierFigures | None:
        code = self._dealer[spin] if 0 <= spin < len(self._dealer) else 0
        return self._dealers[code - 1] if code else None

    def _start(self, name: str, at: datetime) -> None:
        self._on_wheel = self._person(name)
        self._on_wheel._since = at
        self._on_wheel.stints += 1

    def _stop(self, at: datetime) -> None:
        figure = self._on_wheel
        if figure is not None and figure._since is not None:
            stint = at - figure._since
            figure.on_duty += stint
            figure.longest_stint = max(figure.longest_stint, stint)
            figure._since = None
        self._on_wheel = None

    def _pay(self, figure: CroupierFigures, outcomes: Iterable[ColourOutcome], sign: int) -> None:
        for outcome in outcomes:
            won = outcome.won
            value = self._values.get(outcome.colour)
            currency = self._currencies.get(outcome.colour, self._currency)
            key = UNKNOWN_VALUE if value is None else str(value)
            paid = figure.paid_in.setdefault(currency, {})
            chips = paid.get(key, Fraction(0)) + sign * won
            if chips:
                paid[key] = chips
            else:
                paid.pop(key, None)
            if value is not None:
                figure.money_in[currency] = figure.money_in.get(currency, Decimal(0)) + sign * chips_money(won, value)

    def add(self, seq: int, event: Event) -> None:
        self._last_time = event.time  # a stint still running is counted up to the last event given
        handler = self.HANDLERS.get(type(event))
        if handler is not None:
            handler(self, seq, event)

    def add_all(self, events: Iterable[tuple[int, Event]]) -> None:
        for seq, event in events:
            self.add(seq, event)

    def handler(self, event_class: type[Event]) -> Callable[[int, Any], None]:
        return self.add

    @reads(ResultRecorded)
    def _result(self, seq: int, e: ResultRecorded) -> None:
        figure = self.figures.get(e.croupier) or self._person(e.croupier)
        figure.spins += 1
        self._dealt(e.spin, figure, e.outcomes)
        if e.outcomes:
            self._pay(figure, e.outcomes, 1)

    @reads(PayoutsRecorded)
    def _payouts(self, seq: int, e: PayoutsRecorded) -> None:
        if (dealer := self._dealer_of(e.spin)) is not None:
            self._pay(dealer, e.outcomes, 1)

    @reads(ResultCorrected)
    def _corrected(self, seq: int, e: ResultCorrected) -> None:
        if (dealer := self._dealer_of(e.spin)) is not None:
            # The bets recorded before the spin are settled again on the corrected number.
            dealer.corrections += 1
            self._pay(dealer, self._outcomes.get(e.spin, ()), -1)
            self._dealt(e.spin, dealer, e.outcomes)
            self._pay(dealer, e.outcomes, 1)

    @reads(ColourAssigned)
    def _assigned(self, seq: int, e: ColourAssigned) -> None:
        self._values[e.colour] = e.chip_value
        self._currencies[e.colour] = self._currency

    @reads(ContextChanged)
    def _context(self, seq: int, e: ContextChanged) -> None:
        self._currency = e.currency or self._currency

    @reads(TableOpened)
    def _opened(self, seq: int, e: TableOpened) -> None:
        self._currency = e.currency or None
        self._stop(e.time)
        self._start(e.croupier, e.time)

    @reads(TableClosed)
    def _closed(self, seq: int, e: TableClosed) -> None:
        self._stop(e.time)

    @reads(StaffRelieved)
    def _relieved(self, seq: int, e: StaffRelieved) -> None:
        if e.role is Role.CROUPIER:
            self._stop(e.time)
            if e.overdue and e.outgoing:
                self._person(e.outgoing).overdue_reliefs += 1
            self._start(e.incoming, e.time)

    @reads(SpinVoided)
    def _voided(self, seq: int, e: SpinVoided) -> None:
        if self._on_wheel is not None:
            self._on_wheel.voids += 1

    @reads(AlarmRaised)
    def _alarm(self, seq: int, e: AlarmRaised) -> None:
        if e.alarm_kind is AlarmKind.DIRECTION_REPEATED and self._on_wheel is not None:
            self._on_wheel.direction_repeats += 1

    def result(self, now: datetime | None = None) -> list[CroupierFigures]:
        """The figures by name; a stint still running is counted up to `now` (default: the last
        event's time), on copies, so the fold can go on."""
        figures = {name: replace(figure, paid_in={c: dict(paid) for c, paid in figure.paid_in.items()},
                                  money_in=dict(figure.money_in)) for name, figure in self.figures.items()}
        running = self._on_wheel
        if running is not None and running._since is not None and self._last_time is not None:
            figure = figures[running.name]
            stint = (now or self._last_time) - running._since
            figure.on_duty += stint
            figure.longest_stint = max(figure.longest_stint, stint)
        return sorted(figures.values(), key=lambda f: f.name)


def croupier_figures(events: Iterable[tuple[int, Event]], now: datetime | None = None) -> list[CroupierFigures]:
    fold = Croupiers()
    fold.add_all(events)
    return fold.result(now)


def _duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    return f"{minutes // 60}h{minutes % 60:02d}"


def croupier_table(figures: Iterable[CroupierFigures]) -> Table:
    rows = [(f.name, _duration(f.on_duty), str(f.stints), _duration(f.longest_stint), formats.number(f.spins),
             formats.fixed(f.spins_per_hour, 1), str(f.voids), str(f.corrections), str(f.direction_repeats),
             str(f.overdue_reliefs), by_value_words(f.paid_by_value), amounts_words(f.money_in)) for f in figures]
    return Table(_("Croupiers"), (_("croupier"), _("at the wheel"), _("stints"), _("longest stint"), _("spins"),
                                  _("spins/hour"), _("voids"), _("corrections"), _("direction repeats"),
                                  _("late reliefs"), _("paid chips"), _("paid money")), rows)
