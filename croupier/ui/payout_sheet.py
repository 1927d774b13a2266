"""The payout sheet of one result: the winning positions in the profile's payout order, the chips
the croupier counts on each per colour, and what each colour is paid. Pure: the rules engine
decides what wins, what a bet pays, the limits and the order; this only gathers the croupier's
counts and asks it.

Bets recorded before the spin (announced and complete bets, `PT-A 25-26`) are on the sheet already
with their chips; the croupier counts only the layout positions that won. On zero, under a profile
that gives simple chances back in part (`PT-B 29` half back, `FR` en prison), the simple chances are
on the sheet too: their chips decide what goes back.

The sheet also gathers who played (`PT-A 12`): a colour with bets on record or chips counted on a
winner played; the croupier marks the colours that lost on the layout.
"""
from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from croupier.rules.bets import VALUE_CHIPS, Bet, BetError, make_bet
from croupier.rules.limits import ACCEPTED, NO_SIGN, LimitCheck, TableSign, check_player, table_limits
from croupier.rules.profiles import Profile
from croupier.rules.record import Record
from croupier.rules.settlement import OwnerTotal, Settlement, settle
from croupier.table.events import Stake
from croupier.table.payouts import paying_positions


class Row(Record, kw_only=False):
    spec: str  # the bet, in the rules' grammar: "17", "14/17", "column2", "orphelins"
    category: str  # its payout-order category
    recorded: int | None = None  # chips per unit recorded before the spin; None: counted now


def _in_order(rows: list[Row], profile: Profile) -> list[Row]:
    return sorted(rows, key=lambda row: profile.payout.rank(row.category))  # stable: layout order within


class ColourPayout(Record, kw_only=False):
    colour: str
    total: OwnerTotal | None  # None when the colour has nothing on a winning position
    settlement: Settlement | None
    problems: tuple[LimitCheck, ...]  # bets the limits refused or cut down, with the rules' message

    def _on(self, spec: str, part: str) -> Fraction:
        if self.settlement is None:
            return Fraction(0)
        return sum((getattr(line, part) for line in self.settlement.lines if line.bet.text == spec), Fraction(0))

    def won_on(self, spec: str) -> Fraction:
        """What the bet on `spec` is paid (after any cut for the limits)."""
        return self._on(spec, "won")

    def kept_on(self, spec: str) -> Fraction:
        """What of its stake goes back to the player (a simple chance on zero: `PT-B 29`, `FR`)."""
        return self._on(spec, "kept")

    def imprisoned_on(self, spec: str) -> Fraction:
        """The chip that cannot be halved on zero, held en prison for the next spin (`FR`)."""
        return self._on(spec, "imprisoned")


class PayoutSheet:
    """Chips counted per colour and position for one result, and the payouts they make."""

    def __init__(self, spin: int, number: int, profile: Profile, minimum: Decimal, chip_values: dict[str, Decimal],
                 recorded: dict[str, tuple[Stake, ...]], known_played: tuple[str, ...] = (),
                 sign: TableSign = NO_SIGN, value_only: bool = False, marked: bool = False) -> None:
        """`known_played`: the colours the table knows played (bets on record, chips en prison).
        `value_only`: a table of value chips only (`PT-B 15b`): its one owner is `VALUE_CHIPS`, worth
        1 a chip, so each position's count is the amount on it in money, and it may be any bet.
        `marked`: the table offers value-marked chips (`PT-A 16`): after the colours, the amounts of
        marked chips on each position, in money, on any bet. Without them, value chips come after
        the colours on the positions the profile lets them on (`PT-A 16` simple chances, dozens,
        columns; `PT-B 15` simple chances; `FR` any bet), in money too."""
        self.spin = spin
        self.number = number
        self.profile = profile
        self.limits = table_limits(profile, minimum, sign)
        self.value_only = value_only
        self.value_marked = marked and not value_only
        self.positions = [Row(p.name, p.category) for p in paying_positions(number, profile)]
        if value_only or self.value_marked:
            self.value_positions = self.positions
        else:  # only where the profile lets them: none on zero at a PT-A table
            self.value_positions = [row for row in self.positions if profile.value_chips_allowed(row.category)]
        self.chip_values = {VALUE_CHIPS: Decimal(1)} if value_only else dict(chip_values)
        if self.value_positions or recorded.get(VALUE_CHIPS):
            self.chip_values[VALUE_CHIPS] = Decimal(1)
        self.colours = tuple(self.chip_values)
        self.recorded = {colour: tuple(recorded.get(colour, ())) for colour in self.colours}
        self.counts: dict[tuple[str, str], int] = {}
        self.known_played = frozenset(known_played)
        self.marked: set[str] = set()  # colours the croupier marked as played

    def rows(self, colour: str) -> list[Row]:
        """The colour's rows: its recorded bets that win or give something back on this number, and
        the positions to count, in payout order (a losing recorded bet has nothing to pay)."""
        recorded = self.recorded[colour]
        payout = self.payout(colour) if recorded else None
        rows = [Row(stake.bet, self._bet(stake.bet, stake.chips, colour).category, stake.chips)
                for stake in recorded if payout is not None and (payout.won_on(stake.bet) or payout.kept_on(stake.bet))]
        return _in_order(rows + self._positions(colour), self.profile)

    def _positions(self, colour: str) -> list[Row]:
        return self.value_positions if colour == VALUE_CHIPS else self.positions

    @property
    def players(self) -> tuple[str, ...]:
        """The colours on the sheet, value chips aside: they belong to no player (`PT-A 12` counts colours)."""
        return tuple(colour for colour in self.colours if colour != VALUE_CHIPS)

    def count(self, colour: str, spec: str, chips: int) -> None:
        """The croupier counted `chips` of `colour` on the position `spec` (0 clears it)."""
        if chips < 0:
            raise ValueError("a count of chips is 0 or more")
        if chips:
            self.counts[(colour, spec)] = chips
        else:
            self.counts.pop((colour, spec), None)

    def counted(self, colour: str, spec: str) -> int:
        return self.counts.get((colour, spec), 0)

    def seen_playing(self, colour: str) -> bool:
        """Chips counted on a paying position, or bets on record: the colour played for sure."""
        return colour in self.known_played or any(c == colour for c, _spec in self.counts)

    def played(self, colour: str) -> bool:
        return colour in self.marked or self.seen_playing(colour)

    def mark_played(self, colour: str) -> bool:
        """Mark the colour as played, or unmark it; False when its bets say it played anyway."""
        if colour not in self.players:
            raise ValueError(f"{colour} is not a player's colour")
        if self.seen_playing(colour):
            return False
        self.marked ^= {colour}
        return True

    def take_back(self, counts: Iterable[tuple[str, str, int]], played: Iterable[str]) -> bool:
        """The counts and marks the croupier made on this sheet before a restart, back on it; only
        those that fit it (its colours, their positions, a colour not known to have played).
        True when every one fitted."""
        fitted = True
        for colour, spec, chips in counts:
            if colour in self.colours and chips > 0 and any(row.spec == spec for row in self._positions(colour)):
                self.count(colour, spec, chips)
            else:
                fitted = False
        for colour in played:
            if colour in self.players and not self.seen_playing(colour):
                self.marked.add(colour)
            elif colour not in self.players:
                fitted = False
        return fitted

    def played_colours(self) -> tuple[str, ...]:
        return tuple(colour for colour in self.players if self.played(colour))

    def paid(self) -> dict[str, tuple[Stake, ...]]:
        """What the croupier counted, per colour, as the table records it."""
        found = {colour: tuple(Stake(bet=row.spec, chips=self.counts[(colour, row.spec)],
                                     marked=self.value_marked and colour == VALUE_CHIPS)
                               for row in self._positions(colour) if (colour, row.spec) in self.counts)
                 for colour in self.colours}
        return {colour: stakes for colour, stakes in found.items() if stakes}

    def payout(self, colour: str) -> ColourPayout:
        bets = [self._bet(s.bet, s.chips, colour) for s in self.recorded[colour]]
        bets += [self._bet(row.spec, self.counts[(colour, row.spec)], colour)
                 for row in self._positions(colour) if (colour, row.spec) in self.counts]
        if not bets:
            return ColourPayout(colour, None, None, ())
        checks = check_player(bets, self.limits, self.chip_values[colour])
        played = [check.played for check in checks if check.played is not None]
        problems = tuple(check for check in checks if check.status != ACCEPTED)
        if not played:
            return ColourPayout(colour, None, None, problems)
        settlement = settle(self.number, played, self.profile, chip_values=self.chip_values)
        total = next(t for t in settlement.owners if t.owner == colour)
        return ColourPayout(colour, total, settlement, problems)

    def table_total(self) -> tuple[Decimal, dict[Decimal, Fraction]]:
        """What the table pays, all colours together: in money, and in chips per chip value (chips
        of different values are not added together)."""
        money, chips = Decimal(0), dict[Decimal, Fraction]()
        for colour in self.colours:
            total = self.payout(colour).total
            if total is not None and total.won:
                value = self.chip_values[colour]
                if colour != VALUE_CHIPS:  # value chips are counted in money already
                    chips[value] = chips.get(value, Fraction(0)) + total.won
                money += total.money or 0
        return money, dict(sorted(chips.items()))

    def _bet(self, spec: str, chips: int, colour: str) -> Bet:
        try:
            return make_bet(spec, chips, colour, self.profile, text=spec,
                            any_bet=(self.value_only or self.value_marked) and colour == VALUE_CHIPS)
        except BetError as exc:  # a recorded bet the profile no longer offers: the record says what it was
            raise ValueError(str(exc)) from None
