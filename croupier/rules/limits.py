"""Table limits: the maxima a table minimum gives under a profile's ratios (§6), lowered by the
house's table sign, the value a colour chip may be given (§7), and checking one player's bets
against them with the profile's breach handling: refused, or played up to the maximum with the
excess returned.

Limits compare money: a bet of `chips` with chips worth `chip_value` each stakes chips x value.
For value chips, `chip_value` is the face value of the pieces counted.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from croupier.rules.announced import SERIES
from croupier.rules.bets import Bet
from croupier.rules.layout import KINDS, Position
from croupier.rules.profiles import OUTSIDE_CATEGORIES, BreachAction, ColourValue, Profile
from croupier.rules.record import Record, field

ACCEPTED, ADJUSTED, REFUSED = "accepted", "adjusted", "refused"


class LimitReason(StrEnum):
    """Why the limits refuse or cut down a bet; the comment names the facts its wording takes
    (besides `bet`, which every one has). The values are what the journal records (LimitCut)."""

    MAXIMUM = "maximum"  # kind, maximum, position
    MAXIMUM_HELD = "maximum-held"  # kind, maximum, position, held
    SERIES_RANGE = "series-range"  # series, low, high, multiple, chips
    SIGN_ANNOUNCED = "sign-announced"  # series, maximum
    ANNOUNCED_TOTAL = "announced-total"  # maximum
    TABLE_MINIMUM = "table-minimum"  # amount, position, kind, least
    KIND_MINIMUM = "kind-minimum"  # amount, position, kind, least
    SIMPLE_PIECES = "simple-pieces"  # pieces
    COLUMNS_PIECES = "columns-pieces"  # pieces
    DOZENS_PIECES = "dozens-pieces"  # pieces
    NUMBERS_PIECES = "numbers-pieces"  # pieces, chips


class LimitOutcome(StrEnum):
    """What becomes of a bet the limits refuse or cut down; a cut one has the facts most and back."""

    REFUSED = REFUSED  # returned whole
    ADJUSTED = ADJUSTED  # played up to the maximum, the excess returned
    EXCESS_WIN_UNPAID = "excess-win-unpaid"  # the same, said as the regulation says it


# Each in English, filled by the check's facts: the texts the catalogs translate, worded in the
# table's language by history.words.limit_words.
REASONS = {
    LimitReason.MAXIMUM: "the {kind} maximum is {maximum} on {position}",
    LimitReason.MAXIMUM_HELD: "the {kind} maximum is {maximum} on {position}, {held} of it already the player's",
    LimitReason.SERIES_RANGE: "{series} is played with {low} to {high} chips at the minimum, in multiples of "
                              "{multiple}, not {chips}",
    LimitReason.SIGN_ANNOUNCED: "the table sign's {series} maximum is {maximum}",
    LimitReason.ANNOUNCED_TOTAL: "series and neighbours together are at most {maximum}",
    LimitReason.TABLE_MINIMUM: "{amount} on {position} is below the table minimum {least}",
    LimitReason.KIND_MINIMUM: "{amount} on {position} is below the {kind} minimum {least}",
    LimitReason.SIMPLE_PIECES: "at least {pieces} colour chips go together on a simple chance",
    LimitReason.COLUMNS_PIECES: "at least {pieces} colour chips go together on a column",
    LimitReason.DOZENS_PIECES: "at least {pieces} colour chips go together on a dozen",
    LimitReason.NUMBERS_PIECES: "at least {pieces} colour chips go on numbers in all, this player has {chips}",
}
OUTCOMES = {
    LimitOutcome.REFUSED: "refused",
    LimitOutcome.ADJUSTED: "{most} chips a unit play, {back} chips go back",
    LimitOutcome.EXCESS_WIN_UNPAID: "{most} chips a unit play, the excess wins nothing and its {back} chips go back",
}
# The pieces a colour chip bet outside the numbers lacks, by the bet's category (FR).
PIECES = {"simple": LimitReason.SIMPLE_PIECES, "columns": LimitReason.COLUMNS_PIECES,
          "dozens": LimitReason.DOZENS_PIECES}
ANNOUNCED = frozenset({*SERIES, "neighbours"})  # what PT-B 34c counts together


SIGN_SECTIONS = ("minimum", "maximum", "announced")
ANNOUNCED_TOTAL = "total"  # the sign's key for all series and neighbours together (PT-B 34c)


class SignCode(StrEnum):
    """Why a table sign is not allowed, as the screens word it from the facts."""
    SIGN_KEY = "sign-key"  # not an amount, or not a key of a sign: the problem says
    ABOVE_CAP = "above-cap"  # amount, cap, rule
    BELOW_MINIMUM = "below-minimum"  # amount, minimum
    ABOVE_MAXIMUM = "above-maximum"  # amount, maximum


class SignError(ValueError):
    """A table sign the profile does not allow; `key` is the sign's own (`maximum.plein`)."""

    def __init__(self, key: str, problem: str, code: SignCode = SignCode.SIGN_KEY, **facts: object):
        self.key, self.problem, self.code, self.facts = key, problem, code, facts
        super().__init__(f"{key}: {problem}")


class TableSign(Record, kw_only=False):
    """What the house posts on the table sign (RU 4.8, FR): per kind of bet the least and the most
    on one position, and the most on an announced bet. A kind it leaves out keeps the profile's
    limit; the sign only ever lowers a regulation's cap, and raises a minimum."""

    minima: Mapping[str, Decimal] = field(default_factory=dict)  # position kind -> least on one position
    maxima: Mapping[str, Decimal] = field(default_factory=dict)  # position kind -> most on one position
    announced: Mapping[str, Decimal] = field(default_factory=dict)  # series, neighbours, total -> most

    def as_data(self) -> dict[str, Decimal]:
        """Flat `section.kind` keys, as the journal records the sign."""
        return {f"{section}.{kind}": value
                for section, values in zip(SIGN_SECTIONS, (self.minima, self.maxima, self.announced))
                for kind, value in sorted(values.items())}

    def __bool__(self) -> bool:
        return bool(self.minima or self.maxima or self.announced)


NO_SIGN = TableSign()


def sign_from_data(data: Mapping[str, Any]) -> TableSign:
    """A sign from its tables (`{"maximum": {"plein": 100}}`) or its flat keys (`maximum.plein`);
    SignError names the key that is not an amount or not a sign's key. The profile's caps are
    checked by `sign_problem`."""
    sections: dict[str, dict[str, Decimal]] = {name: {} for name in SIGN_SECTIONS}
    for key, value in data.items():
        entries = value.items() if isinstance(value, Mapping) else [(None, value)]
        for kind, amount in entries:
            section, _, name = (key, "", kind) if kind is not None else key.partition(".")
            full = f"{section}.{name}"
            if section not in sections:
                raise SignError(key, f"unknown key; a sign has {', '.join(SIGN_SECTIONS)}")
            if not name:
                raise SignError(full, "name a kind of bet")
            sections[section][name] = _sign_amount(full, amount)
    return TableSign(*(MappingProxyType(sections[name]) for name in SIGN_SECTIONS))


def _sign_amount(key: str, value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, str, Decimal)):
        raise SignError(key, f"expected an amount, got {value!r}")
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise SignError(key, f"expected an amount, got {value!r}") from None
    if not amount.is_finite() or amount <= 0:
        raise SignError(key, f"an amount above zero, not {value}")
    return amount


def sign_problem(profile: Profile, minimum: Decimal, sign: TableSign) -> SignError | None:
    """The first entry of the sign the profile does not allow at this minimum, naming its key."""
    caps = table_limits(profile, minimum).maxima
    for kind, least in sign.minima.items():
        key = f"minimum.{kind}"
        if kind not in caps:
            return SignError(key, _not_a_kind(profile, kind, caps))
        if least < minimum:
            return _below(key, least, minimum)
        most = sign.maxima.get(kind, caps[kind])
        if least > most:
            return SignError(key, f"{least} is above the {kind} maximum {most}", SignCode.ABOVE_MAXIMUM,
                             amount=least, maximum=most)
    for kind, most in sign.maxima.items():
        key = f"maximum.{kind}"
        if kind not in caps:
            return SignError(key, _not_a_kind(profile, kind, caps))
        if most > caps[kind]:
            return _above(key, most, caps[kind], profile, minimum, profile.limits.rule)
        if most < minimum:
            return _below(key, most, minimum)
    rules = profile.announced_limits
    for name, most in sign.announced.items():
        key = f"announced.{name}"
        if name == ANNOUNCED_TOTAL:
            cap = None if rules.combined_ratio is None else rules.combined_ratio * minimum
        elif name in ANNOUNCED and profile.offers(name):
            series = rules.series.get(name)
            cap = None if series is None else series.max * minimum
        else:
            offered = [n for n in (*SERIES, "neighbours") if profile.offers(n)]
            return SignError(key, f"{profile.id} has no announced bet {name!r}; the sign may limit "
                                  f"{', '.join([*offered, ANNOUNCED_TOTAL])}")
        if cap is not None and most > cap:
            return _above(key, most, cap, profile, minimum, rules.rule)
        if most < minimum:
            return _below(key, most, minimum)
    return None


def _above(key: str, amount: Decimal, cap: Decimal, profile: Profile, minimum: Decimal, rule: str) -> SignError:
    return SignError(key, f"{amount} is above the cap of {profile.id} at minimum {minimum}: {cap} ({rule})",
                     SignCode.ABOVE_CAP, amount=amount, cap=cap, rule=rule)


def _below(key: str, amount: Decimal, minimum: Decimal) -> SignError:
    return SignError(key, f"{amount} is below the table minimum {minimum}", SignCode.BELOW_MINIMUM,
                     amount=amount, minimum=minimum)


def _not_a_kind(profile: Profile, kind: str, caps: Mapping[str, Decimal]) -> str:
    return f"{profile.id} has no bet {kind!r}; the sign may limit {', '.join(caps)}"


class TableLimits(Record, kw_only=False):
    """The table's minimum and the maxima and minima that follow from it under its profile."""
    profile: Profile
    minimum: Decimal
    maxima: Mapping[str, Decimal]  # position kind -> the largest stake on one position
    minima: Mapping[str, Decimal] = field(default_factory=dict)  # kind -> the least, where the sign raises it
    announced: Mapping[str, Decimal] = field(default_factory=dict)  # the sign's announced-bet maxima

    @property
    def announced_maximum(self) -> Decimal | None:
        """PT-B 34c: all of a player's series and neighbours bets together (or the sign's)."""
        ratio = self.profile.announced_limits.combined_ratio
        caps = [ratio * self.minimum] if ratio is not None else []
        if ANNOUNCED_TOTAL in self.announced:
            caps.append(self.announced[ANNOUNCED_TOTAL])
        return min(caps, default=None)

    def least(self, kind: str) -> Decimal:
        """The least on one position of this kind: the sign's minimum, never below the table's."""
        return max(self.minima.get(kind, self.minimum), self.minimum)


def table_limits(profile: Profile, minimum: Decimal | int | str,
                 sign: TableSign = NO_SIGN) -> TableLimits:
    """The limits of a table with this minimum stake: the profile's ratios, lowered by the sign."""
    minimum = Decimal(minimum)
    if not minimum.is_finite() or minimum <= 0:
        raise ValueError(f"{minimum} is not a table minimum: it must be an amount above 0")
    ratios = profile.limits.ratios
    maxima = {kind: min(ratios[kind] * minimum, sign.maxima.get(kind, ratios[kind] * minimum))
              for kind in ratios}
    return TableLimits(profile, minimum, maxima, dict(sign.minima), dict(sign.announced))


class ColourValueCode(StrEnum):
    """Why a colour cannot be given a value (§7)."""

    NOT_POSTED = "not-posted"  # neither the minimum nor a posted value (PT-A 9)
    ONE_OF = "one-of"  # not one of the regulation's values (RU 4.7)
    MULTIPLE = "multiple"  # not a whole multiple of the minimum (PT-B 9)
    ABOVE_PLEIN = "above-plein"  # above the plein maximum


# Each in English, filled by the facts of `colour_value_check`: the texts the catalogs translate.
COLOUR_VALUE_PROBLEMS = {
    ColourValueCode.NOT_POSTED:
        "{value} is not a value of this table: the minimum or a posted value, {allowed} ({rule})",
    ColourValueCode.ONE_OF: "a colour chip is worth one of {allowed}, not {value} ({rule})",
    ColourValueCode.MULTIPLE: "{value} is not the table minimum {minimum} or a whole multiple of it ({rule})",
    ColourValueCode.ABOVE_PLEIN: "{value} is above the plein maximum {maximum} ({rule})",
}


def colour_value_check(limits: TableLimits, value: Decimal,
                       posted: Sequence[Decimal] = ()) -> tuple[ColourValueCode, dict] | None:
    """Why a colour cannot be given this value at this table, as (code, facts), or None if it can
    (§7). Facts: value, minimum, rule, and `allowed` (the values it may be) or `maximum` (the plein's).

    `posted` are the other values the table displays (PT-A 9; FR "se non diversamente indicato").
    """
    chips, minimum = limits.profile.colour_chips, limits.minimum
    value = Decimal(value)
    facts = {"value": value, "minimum": minimum, "rule": chips.rule}
    if chips.value == ColourValue.ONE_OF:
        if value not in chips.values:
            return ColourValueCode.ONE_OF, {**facts, "allowed": tuple(chips.values)}
    elif chips.value == ColourValue.MULTIPLE_OF_MINIMUM:
        if value < minimum or value % minimum:
            return ColourValueCode.MULTIPLE, facts
    elif value != minimum and value not in posted:
        return ColourValueCode.NOT_POSTED, {**facts, "allowed": tuple(sorted({minimum, *posted}))}
    plein = limits.maxima["plein"]
    if chips.up_to_plein_maximum and value > plein:
        return ColourValueCode.ABOVE_PLEIN, {**facts, "maximum": plein}
    return None


def colour_value_problem(limits: TableLimits, value: Decimal,
                         posted: Sequence[Decimal] = ()) -> str | None:
    """`colour_value_check` in words (English, as the configuration's errors are)."""
    found = colour_value_check(limits, value, posted)
    if found is None:
        return None
    code, facts = found
    allowed = ", ".join(str(each) for each in facts.get("allowed", ()))
    return COLOUR_VALUE_PROBLEMS[code].format(**{**facts, "allowed": allowed})


class LimitCheck(Record, kw_only=False):
    """What happens to one bet: accepted as it is, adjusted down with the excess returned, or
    refused (returned whole). The table session records it as it stands."""

    status: str  # ACCEPTED, ADJUSTED or REFUSED
    bet: Bet  # as the player placed it
    played: Bet | None  # what plays: the bet, the bet cut down, or None when refused
    returned_chips: int  # chips handed back now
    message: str  # empty when accepted: "{bet}: {reason}; {outcome}" in English
    rule: str  # the rule that decided, empty when accepted
    reason: LimitReason | None = None  # None when accepted
    outcome: LimitOutcome | None = None
    facts: Mapping[str, object] = field(default_factory=dict)  # what the templates are filled with


Breach = tuple[LimitReason, dict[str, object], str]  # why a bet is refused whole: reason, facts, rule


def _check(status: str, bet: Bet, played: Bet | None, returned: int, reason: LimitReason,
           outcome: LimitOutcome, facts: Mapping[str, object], rule: str) -> LimitCheck:
    facts = {"bet": bet.text, **facts}
    message = f"{bet.text}: {REASONS[reason].format(**facts)}; {OUTCOMES[outcome].format(**facts)}"
    return LimitCheck(status, bet, played, returned, message, rule, reason, outcome, facts)


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
            reason, facts, rule = problem
            checks.append(_check(REFUSED, bet, None, bet.stake, reason, LimitOutcome.REFUSED, facts, rule))
            continue
        most, why = _most_chips(bet, limits, chip_value, on_position, announced_total)
        if most >= bet.chips or why is None:  # nothing lowered it
            check = LimitCheck(ACCEPTED, bet, bet, 0, "", "")
        elif profile.breach.above_maximum == BreachAction.REFUSE or most < 1 or why[3]:
            check = _check(REFUSED, bet, None, bet.stake, why[0], LimitOutcome.REFUSED, why[1], why[2])
        else:
            played = bet.with_chips(most)
            back = bet.stake - played.stake
            outcome = (LimitOutcome.EXCESS_WIN_UNPAID if profile.breach.above_maximum == BreachAction.EXCESS_WIN_UNPAID
                       else LimitOutcome.ADJUSTED)
            check = _check(ADJUSTED, bet, played, back, why[0], outcome, {**why[1], "most": most, "back": back},
                           _both_rules(why[2], profile.breach.rule))
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


def _most_chips(bet: Bet, limits: TableLimits, chip_value: Decimal, on_position: Mapping[Position, Decimal],
                announced_total: Decimal) -> tuple[int, tuple[LimitReason, dict[str, object], str, bool] | None]:
    """The most chips per unit the bet may carry, and (reason, facts, rule, whole-bet-only) when
    that is fewer than it has. Whole-bet-only breaches (a series outside its range) cannot be cut."""
    profile, most = limits.profile, bet.chips
    why: tuple[LimitReason, dict[str, object], str, bool] | None = None
    for position, per_unit in bet.recipe if _counts_per_position(bet, profile) else ():
        already = on_position.get(position, 0)
        room = limits.maxima[position.kind] - already
        fits = int(room // (per_unit * chip_value)) if room > 0 else 0
        if fits < most:
            most = fits
            why = (LimitReason.MAXIMUM_HELD if already else LimitReason.MAXIMUM,
                   {"kind": position.kind, "maximum": limits.maxima[position.kind], "position": position.name,
                    "held": already}, profile.limits.rule, False)
    series_range = profile.announced_limits.series.get(bet.kind)
    if series_range is not None:  # PT-A 32c, in chips at the table minimum
        at_minimum = bet.stake * chip_value / limits.minimum
        if at_minimum > series_range.max or at_minimum % series_range.multiple:
            return 0, (LimitReason.SERIES_RANGE, {"series": bet.kind, "low": series_range.min, "high": series_range.max,
                        "multiple": series_range.multiple, "chips": at_minimum},
                       profile.announced_limits.rule, True)
    posted = limits.announced.get(bet.kind)
    if posted is not None:  # the table sign's maximum for this announced bet
        fits = int(posted // (bet.stake // bet.chips * chip_value))
        if fits < most:
            most = fits
            why = (LimitReason.SIGN_ANNOUNCED, {"series": bet.kind, "maximum": posted},
                   profile.announced_limits.rule, False)
    ceiling = limits.announced_maximum
    if ceiling is not None and bet.kind in ANNOUNCED:  # PT-B 34c
        fits = int((ceiling - announced_total) // (bet.stake // bet.chips * chip_value))
        if fits < most:
            most = max(fits, 0)
            why = (LimitReason.ANNOUNCED_TOTAL, {"maximum": ceiling},
                   profile.announced_limits.rule, False)
    return most, why


def _below_minimum(bet: Bet, limits: TableLimits, chip_value: Decimal) -> Breach | None:
    """Every position of a bet carries at least the minimum of its kind (RU 4.8: the sign's minimum
    per kind of bet, else the table's; below it the bet is void and returned)."""
    for position, chips in bet.units:
        least = limits.least(position.kind)
        if chips * chip_value < least:
            return (LimitReason.TABLE_MINIMUM if least == limits.minimum else LimitReason.KIND_MINIMUM,
                    {"amount": chips * chip_value, "position": position.name, "kind": position.kind, "least": least},
                    limits.profile.breach.rule)
    return None


def _pieces_problems(bets: Sequence[Bet], profile: Profile) -> dict[int, Breach]:
    """FR: colour chips go at least 5 together on a simple chance, column or dozen, and at least
    5 in all on numbers (one per combination allowed); value chips are exempt."""
    need = profile.colour_minimum
    problems: dict[int, Breach] = {}
    colour_bets = [bet for bet in bets if not bet.value_chips]
    numbers_total = sum(bet.stake for bet in colour_bets if bet.category not in OUTSIDE_CATEGORIES)
    for bet in colour_bets:
        if bet.category in OUTSIDE_CATEGORIES:
            if bet.stake < need.outside_pieces:
                problems[id(bet)] = (PIECES[bet.category], {"pieces": need.outside_pieces}, need.rule)
        elif numbers_total < need.numbers_pieces:
            problems[id(bet)] = (LimitReason.NUMBERS_PIECES, {"pieces": need.numbers_pieces, "chips": numbers_total}, need.rule)
    return problems
