"""A bet: what is played (a layout position or an announced recipe), how many chips per unit of it,
and whose chips they are. Parsed from the grammar of `croupier payout`:

    BET  := SPEC [ "x" CHIPS ] [ "@" OWNER ]
    SPEC := 17 | 14/17 | 16/17/18 | 13/14/16/17 | 13/14/15/16/17/18 | dozen1 ... column2+3
          | red black even odd low high | voisins zero-spiel tiers orphelins nassa
          | neighbours:N:K | complete:N | finale:D | finale:A/B

OWNER is a colour name, or `value` for value (face-value) chips.
"""
from __future__ import annotations

import re
from enum import StrEnum

from croupier.rules import announced
from croupier.rules.layout import INSIDE_KINDS, POSITIONS, Position, parse_position
from croupier.rules.names import MARKED_VALUE_CHIPS, VALUE_CHIPS  # noqa: F401 (re-exported: the rules' names)
from croupier.rules.profiles import Profile
from croupier.rules.record import Record, field


_OWNER = r"[^\W\d_][\w-]*"  # compiled by re the first time an owner is named


class BetProblem(StrEnum):
    """Why a bet is no bet at this table, for a screen to word it in its language from the facts."""

    NOT_OFFERED = "not-offered"  # bet, rule: the regulation does not offer it
    NUMBERING = "numbering"  # bet, numbering: the wheel's (the bet needs the French)
    NEIGHBOURS = "neighbours"  # bet, allowed: the counts each side the profile takes, rule
    VALUE_CHIPS = "value-chips"  # bet, category, rule
    CHIPS = "chips"  # bet, chips: not a whole number above 0
    NOT_A_BET = "not-a-bet"  # the message says (the bet as typed does not read)


class BetError(ValueError):
    """A bet that cannot be played under the profile; the message starts with the argument.
    `reason` and `facts` say why (BetProblem)."""

    def __init__(self, message: str, reason: BetProblem = BetProblem.NOT_A_BET, **facts) -> None:
        super().__init__(message)
        self.reason = reason
        self.facts = facts


class _NotOffered(ValueError):
    def __init__(self, message: str, reason: BetProblem, **facts) -> None:
        super().__init__(message)
        self.reason, self.facts = reason, facts


class Bet(Record):
    """One bet as typed: its position, its kind and category, and the chips on it (made by
    `make_bet`, which counts its stake)."""
    text: str  # the bet as given, echoed verbatim
    spec: str  # canonical: "14/17", "dozen1+2", "voisins", "neighbours:17:2", "complete:0"
    kind: str  # a layout kind ("split") or an announced kind ("voisins", "finale-a-cheval")
    category: str  # the payout-order category: "splits", "series", "complete", ...
    recipe: tuple[tuple[Position, int], ...]  # (position, chips) for one chip per unit
    chips: int  # chips per unit of the recipe
    owner: str | None  # a colour name, VALUE_CHIPS, or None when not said
    stake: int  # chips in all: chips times the recipe's
    # For each winning number 0..36: (half-chips won, half-chips of the stake kept) at one chip
    # per unit, so settlement is a lookup.
    outcomes: tuple[tuple[int, int], ...] = field(repr=False, compare=False)

    @property
    def units(self) -> tuple[tuple[Position, int], ...]:
        """(position, chips) as they lie on the layout."""
        return tuple((position, per_unit * self.chips) for position, per_unit in self.recipe)

    @property
    def value_chips(self) -> bool:
        return self.owner == VALUE_CHIPS

    def with_chips(self, chips: int) -> Bet:
        """The same bet with `chips` per unit (what plays after a limit cut it down)."""
        return _bet(self.text, self.spec, self.kind, self.category, self.recipe, chips, self.owner, self.outcomes)


def _bet(text: str, spec: str, kind: str, category: str, recipe: tuple[tuple[Position, int], ...], chips: int,
         owner: str | None, outcomes: tuple[tuple[int, int], ...]) -> Bet:
    return Bet(text=text, spec=spec, kind=kind, category=category, recipe=recipe, chips=chips, owner=owner,
               stake=chips * sum(n for _, n in recipe), outcomes=outcomes)


_OUTCOMES: dict[str, tuple[tuple[int, int], ...]] = {}


def _outcomes(spec: str, recipe: tuple[tuple[Position, int], ...]) -> tuple[tuple[int, int], ...]:
    cached = _OUTCOMES.get(spec)
    if cached is None:
        table = []
        for number in range(37):
            hits = [(p, chips) for p, chips in recipe if number in p.numbers]
            table.append((sum(chips * p.pays_halves for p, chips in hits),
                          sum(2 * chips for _, chips in hits)))
        cached = _OUTCOMES[spec] = tuple(table)
    return cached


def _play(spec: str, profile: Profile) -> tuple[announced.Recipe, str]:
    """The recipe and payout category of a SPEC, refused if the profile does not offer it."""
    word, _, rest = spec.partition(":")
    word = word.lower()
    if word in announced.SERIES and not rest:
        recipe = announced.series(word)
    elif word == "neighbours":
        number, each_side = _numbers(rest, 2, "neighbours:N:K")
        sides = profile.neighbour_sides()
        if sides and each_side not in sides:
            allowed = " or ".join(filter(None, (", ".join(map(str, sides[:-1])), str(sides[-1]))))
            raise _NotOffered(f"{profile.id} takes {allowed} neighbours each side, not {each_side} "
                              f"({profile.bets['neighbours'].rule})", BetProblem.NEIGHBOURS, allowed=allowed,
                              rule=profile.bets["neighbours"].rule)
        recipe = announced.number_and_neighbours(number, each_side)
    elif word == "complete":
        recipe = announced.complete(*_numbers(rest, 1, "complete:N"))
    elif word == "finale" and "/" in rest:
        recipe = announced.finale_a_cheval(*_numbers(rest.replace("/", ":"), 2, "finale:A/B"))
    elif word == "finale":
        recipe = announced.finale_en_plein(*_numbers(rest, 1, "finale:D"))
    else:
        position = parse_position(spec)
        recipe = announced.Recipe(position.name, position.kind, ((position, 1),))
    if not profile.offers(recipe.kind):
        offer = profile.bets[recipe.kind]
        why = (f"it needs the French numbering and this wheel is {profile.numbering}"
               if offer.offered else offer.rule)
        message = f"{profile.id} does not offer {recipe.kind} bets ({why})"
        if offer.offered:
            raise _NotOffered(message, BetProblem.NUMBERING, numbering=profile.numbering)
        raise _NotOffered(message, BetProblem.NOT_OFFERED, rule=offer.rule)
    category = announced.CATEGORY.get(recipe.kind) or recipe.units[0][0].category
    return recipe, category


def _numbers(text: str, count: int, form: str) -> list[int]:
    parts = text.split(":")
    if len(parts) != count or not all(p.isdecimal() for p in parts):
        raise ValueError(f"write it as {form}")
    return [int(p) for p in parts]


def make_bet(spec: str, chips: int, owner: str | None, profile: Profile,
             text: str | None = None, *, any_bet: bool = False) -> Bet:
    """A bet of `chips` per unit of `spec`, owned by `owner`, checked against the profile.
    `any_bet`: value chips that may go on any bet the profile offers, value-marked chips
    (`PT-A 16`) or those of a table of value chips only (`PT-B 15b`)."""
    text = text if text is not None else spec
    try:
        recipe, category = _play(spec.strip(), profile)
    except _NotOffered as error:
        raise BetError(f"{text}: {error}", error.reason, bet=spec.strip(), **error.facts) from None
    except ValueError as error:
        raise BetError(f"{text}: {error}") from None
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
        raise BetError(f"{text}: chips must be a whole number above 0, not {chips!r}", BetProblem.CHIPS, bet=spec.strip(),
                       chips=chips)
    if owner is not None and owner != VALUE_CHIPS and not re.fullmatch(_OWNER, owner):
        raise BetError(f"{text}: {owner!r} is not a colour name")
    if owner == VALUE_CHIPS and not any_bet and not profile.value_chips_allowed(category):
        raise BetError(f"{text}: value chips may not be played on {category} under {profile.id} "
                       f"({profile.value_chips.rule})", BetProblem.VALUE_CHIPS, bet=spec.strip(), category=category,
                       rule=profile.value_chips.rule)
    return _bet(text, recipe.name, recipe.kind, category, recipe.units, chips, owner,
                _outcomes(recipe.name, recipe.units))


def parse_bet(text: str, profile: Profile) -> Bet:
    """A bet from `SPEC[xCHIPS][@OWNER]`, e.g. `orphelinsx5@blue`, `14/17@red`, `complete:17x2`,
    `17x10@value-marked` (value-marked chips: value chips on any bet, `PT-A 16`)."""
    body, at, owner = text.strip().partition("@")
    owner = owner.strip()
    if at and not owner:
        raise BetError(f"{text}: nothing after @ (write a colour name, {VALUE_CHIPS} or {MARKED_VALUE_CHIPS})")
    spec, x, chips = body.rpartition("x")  # no SPEC word holds an x
    if not x:
        spec, chips = body, "1"
    if not chips.isdecimal() or int(chips) < 1:
        raise BetError(f"{text}: x{chips} is not a number of chips (a whole number above 0)")
    if not spec.strip():
        raise BetError(f"{text}: no bet before x{chips}")
    if owner == MARKED_VALUE_CHIPS:
        if not profile.value_chips.marked_rule:
            raise BetError(f"{text}: {profile.id} has no value-marked chips ({profile.value_chips.rule})")
        return make_bet(spec, int(chips), VALUE_CHIPS, profile, text, any_bet=True)
    return make_bet(spec, int(chips), owner if at else None, profile, text)


def offered_specs(profile: Profile, *, outside: bool = True) -> list[str]:
    """Every SPEC the profile offers (at one chip), layout positions first, then the announced
    bets; without the outside bets when `outside` is false."""
    specs = [p.name for p in POSITIONS
             if profile.offers(p.kind) and (outside or p.kind in INSIDE_KINDS)]
    specs += [name for name in announced.SERIES if profile.offers(name)]
    specs += [f"neighbours:{n}:{k}" for n in range(37) for k in profile.neighbour_sides()]
    if profile.offers("complete"):
        specs += [f"complete:{n}" for n in range(37)]
    if profile.offers("finale-en-plein"):
        specs += [f"finale:{d}" for d in range(10)]
    if profile.offers("finale-a-cheval"):
        specs += [f"finale:{a}/{b}" for a, b in announced.A_CHEVAL_PAIRS]
    return specs
