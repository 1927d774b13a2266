"""Table limits: the maxima a table minimum gives under a profile's ratios (§6), the value a colour
chip may be given (§7), and checking one player's bets against them with the profile's breach
handling: refused, or played up to the maximum with the excess returned.

Limits compare money: a bet of `chips` with chips worth `chip_value` each stakes chips x value.
For value chips, `chip_value` is the face value of the pieces counted.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from croupier.rules.announced import SERIES
from croupier.rules.bets import Bet
from croupier.rules.layout import KINDS, Position
from croupier.rules.profiles import OUTSIDE_CATEGORIES, Profile

ACCEPTED, ADJUSTED, REFUSED = "accepted", "adjusted", "refused"
ANNOUNCED = frozenset({*SERIES, "neighbours"})  # what PT-B 34c counts together


@dataclass(frozen=True)
class TableLimits:
    profile: Profile
    minimum: Decimal
    maxima: Mapping[str, Decimal]  # position kind -> the largest stake on one position

    @property
    def announced_maximum(self) -> Decimal | None:
        """PT-B 34c: all of a player's series and neighbours bets together."""
        ratio = self.profile.announced_limits.combined_ratio
        return None if ratio is None else ratio * self.minimum


def table_limits(profile: Profile, minimum: Decimal | int | str) -> TableLimits:
    """The limits of a table with this minimum stake, from the profile's ratios."""
    minimum = Decimal(minimum)
    if not minimum.is_finite() or minimum <= 0:
        raise ValueError(f"{minimum} is not a table minimum: it must be an amount above 0")
    ratios = profile.limits.ratios
    return TableLimits(profile, minimum, {kind: ratios[kind] * minimum for kind in ratios})


def colour_value_problem(limits: TableLimits, value: Decimal,
                         posted: Sequence[Decimal] = ()) -> str | None:
    """Why a colour cannot be given this value at this table, or None if it can (§7).

    `posted` are the other values the table displays (PT-A 9; FR "se non diversamente indicato").
    """
    chips, minimum = limits.profile.colour_chips, limits.minimum
    rule = chips.rule
    value = Decimal(value)
    if chips.value == "one-of":
        if value not in chips.values:
            allowed = ", ".join(str(v) for v in chips.values)
            return f"a colour chip is worth one of {allowed}, not {value} ({rule})"
    elif chips.value == "multiple-of-minimum":
        if value < minimum or value % minimum:
            return f"{value} is not the table minimum {minimum} or a whole multiple of it ({rule})"
    elif value != minimum and value not in posted:
        shown = "the table minimum" if chips.value == "table-minimum" else "the minimum"
        return f"{value} is neither {shown} {minimum} nor a value posted at the table ({rule})"
    plein = limits.maxima["plein"]
    if chips.up_to_plein_maximum and value > plein:
        return f"{value} is above the plein maximum {plein} ({rule})"
    return None


@dataclass(frozen=True)
class LimitCheck:
    """What happens to one bet: accepted as it is, adjusted down with the excess returned, or
    refused (returned whole). The table session records it as it stands."""

    status: str  # ACCEPTED, ADJUSTED or REFUSED
    bet: Bet  # as the player placed it
    played: Bet | None  # what plays: the bet, the bet cut down, or None when refused
    returned_chips: int  # chips handed back now
    message: str  # empty when accepted
    rule: str  # the rule that decided, empty when accepted


def check_bet(bet: Bet, limits: TableLimits, chip_value: Decimal) -> LimitCheck:
    """One bet on its own against the table limits."""
    return check_player([bet], limits, chip_value)[0]


def check_player(bets: Sequence[Bet], limits: TableLimits,
                 chip_value: Decimal) -> list[LimitCheck]:
    """One player's bets, in the order placed, against the table limits: a position's maximum
    counts everything the player has on it, so a later bet is the one cut down or refused."""
    chip_value = Decimal(chip_value)
    if not chip_value.is_finite() or chip_value <= 0:
        raise ValueError(f"{chip_value} is not a chip value: it must be an amount above 0")
    profile = limits.profile
    pieces = _pieces_problems(bets, profile)
    on_position: dict[Position, Decimal] = {}  # money already on each position
    announced_total = Decimal(0)
    checks = []
    for bet in bets:
        problem = pieces.get(id(bet)) or _below_minimum(bet, limits, chip_value)
        if problem:
            checks.append(LimitCheck(REFUSED, bet, None, bet.stake, *problem))
            continue
        most, why = _most_chips(bet, limits, chip_value, on_position, announced_total)
        if most >= bet.chips:
            check = LimitCheck(ACCEPTED, bet, bet, 0, "", "")
        elif profile.breach.above_maximum == "refuse" or most < 1 or why[2]:
            check = LimitCheck(REFUSED, bet, None, bet.stake,
                               f"{bet.text}: {why[0]}; refused", why[1])
        else:
            played = bet.with_chips(most)
            back = bet.stake - played.stake
            outcome = (f"the excess wins nothing and its {back} chips go back"
                       if profile.breach.above_maximum == "excess-win-unpaid"
                       else f"{back} chips go back")
            check = LimitCheck(ADJUSTED, bet, played, back,
                               f"{bet.text}: {why[0]}; {most} chips a unit play, {outcome}",
                               _both_rules(why[1], profile.breach.rule))
        if check.played is not None:
            if _counts_per_position(check.played, profile):
                for position, chips in check.played.units:
                    on_position[position] = on_position.get(position, 0) + chips * chip_value
            if check.played.kind in ANNOUNCED:
                announced_total += check.played.stake * chip_value
        checks.append(check)
    return checks


def _both_rules(limit_rule: str, breach_rule: str) -> str:
    return breach_rule if limit_rule in breach_rule else f"{limit_rule}; {breach_rule}"


def _counts_per_position(bet: Bet, profile: Profile) -> bool:
    """Whether the bet's positions count against (and add to) the positions' maxima."""
    rules = profile.announced_limits
    if bet.kind in KINDS or bet.kind == "complete":  # layout bets (PT-A 26: within the limits)
        return True
    if bet.kind == "neighbours" and rules.neighbours_with_pleins:  # PT-A 32d
        return True
    return rules.per_position and bet.kind not in rules.series  # RU 4.17


def _most_chips(bet: Bet, limits: TableLimits, chip_value: Decimal,
                on_position: Mapping[Position, Decimal], announced_total: Decimal):
    """The most chips per unit the bet may carry, and (reason, rule, whole-bet-only) when that
    is fewer than it has. Whole-bet-only breaches (a series outside its range) cannot be cut."""
    profile, most, why = limits.profile, bet.chips, None
    for position, per_unit in bet.recipe if _counts_per_position(bet, profile) else ():
        already = on_position.get(position, 0)
        room = limits.maxima[position.kind] - already
        fits = int(room // (per_unit * chip_value)) if room > 0 else 0
        if fits < most:
            most = fits
            held = f", {already} of it already the player's" if already else ""
            why = (f"the {position.kind} maximum is {limits.maxima[position.kind]} on "
                   f"{position.name}{held}", profile.limits.rule, False)
    series_range = profile.announced_limits.series.get(bet.kind)
    if series_range is not None:  # PT-A 32c, in chips at the table minimum
        at_minimum = bet.stake * chip_value / limits.minimum
        if at_minimum > series_range.max or at_minimum % series_range.multiple:
            return 0, (f"{bet.kind} is played with {series_range.min} to {series_range.max} chips "
                       f"at the minimum, in multiples of {series_range.multiple}, not {at_minimum}",
                       profile.announced_limits.rule, True)
    ceiling = limits.announced_maximum
    if ceiling is not None and bet.kind in ANNOUNCED:  # PT-B 34c
        fits = int((ceiling - announced_total) // (bet.stake // bet.chips * chip_value))
        if fits < most:
            most = max(fits, 0)
            why = (f"series and neighbours together are at most {ceiling}",
                   profile.announced_limits.rule, False)
    return most, why


def _below_minimum(bet: Bet, limits: TableLimits, chip_value: Decimal) -> tuple[str, str] | None:
    """Every position of a bet carries at least the table minimum (RU 4.8: void and returned)."""
    smallest = min(chips for _, chips in bet.units) * chip_value
    if smallest < limits.minimum:
        return (f"{bet.text}: {smallest} on a position is below the table minimum "
                f"{limits.minimum}; refused", limits.profile.breach.rule)
    return None


_OUTSIDE_WORDS = {"simple": "simple chance", "columns": "column", "dozens": "dozen"}


def _pieces_problems(bets: Sequence[Bet], profile: Profile) -> dict[int, tuple[str, str]]:
    """FR: colour chips go at least 5 together on a simple chance, column or dozen, and at least
    5 in all on numbers (one per combination allowed); value chips are exempt."""
    need = profile.colour_minimum
    problems = {}
    colour_bets = [bet for bet in bets if not bet.value_chips]
    numbers_total = sum(bet.stake for bet in colour_bets if bet.category not in OUTSIDE_CATEGORIES)
    for bet in colour_bets:
        if bet.category in OUTSIDE_CATEGORIES:
            if bet.stake < need.outside_pieces:
                where = _OUTSIDE_WORDS[bet.category]
                problems[id(bet)] = (f"{bet.text}: at least {need.outside_pieces} colour chips go "
                                     f"together on a {where}; refused", need.rule)
        elif numbers_total < need.numbers_pieces:
            problems[id(bet)] = (f"{bet.text}: at least {need.numbers_pieces} colour chips go on "
                                 f"numbers in all, this player has {numbers_total}; refused",
                                 need.rule)
    return problems
