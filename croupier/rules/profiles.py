"""Regulation profiles: one TOML file per regulation, every value beside the rule it comes from.
A malformed, missing or unknown key is a ProfileError naming the file and the key.

Profiles are found from their files: the packaged `profiles/*.toml`, and a house directory's
`profiles/*.toml` (named in the configuration), whose file wins over a packaged one of the same id.
A profile's id is its file's name. Only the profile asked for is read.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType

from croupier.rules.announced import CATEGORY as ANNOUNCED_CATEGORY
from croupier.rules.announced import SERIES
from croupier.rules.layout import CATEGORY as LAYOUT_CATEGORY
from croupier.rules.layout import KINDS as LAYOUT_KINDS
from croupier.rules.names import DEFAULT_PROFILE  # noqa: F401 (re-exported)
from croupier.rules.parsed_profiles import parsed
from croupier.rules.record import Record, field
from croupier.rules.toml_file import MISSING, FileProblem, expected, not_one_of, parse, read_text, unknown_key
from croupier.rules.wheel import NUMBERINGS

TYPE_CHECKING = False  # typing's flag, which mypy reads, without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, TypeVar

    Choice = TypeVar("Choice", bound=StrEnum)

PACKAGED_PROFILES = os.path.join(os.path.dirname(__file__), "profiles")
HOUSE_PROFILES = "profiles"  # the folder of a house directory that holds its own profiles

ALWAYS_OFFERED = ("plein", "split", "street", "corner", "line", "dozen", "column", "simple")
OPTIONAL_BETS = ("two-dozens", "two-columns", *ANNOUNCED_CATEGORY)
CATEGORIES = ("columns", "dozens", "simple", "neighbours", "series", "finales", "complete",
              "lines", "streets", "corners", "splits", "pleins")
OUTSIDE_CATEGORIES = ("columns", "dozens", "simple")
WHEEL_BETS = frozenset({*SERIES, "neighbours"})  # need the French ring (PT-A 25)



# The choices a profile makes, each value as its file writes it.
class ZeroChances(StrEnum):
    """What the simple chances do when zero wins (dozens and columns always lose)."""
    LOSE = "lose"  # PT-A 28, SRIJ 21
    HALF_BACK = "half-back"  # PT-B 29, RU 4.11
    EN_PRISON = "en-prison"  # FR


class BreachAction(StrEnum):
    """What becomes of a bet above the maximum."""
    REFUSE = "refuse"
    PLAY_TO_MAXIMUM = "play-to-maximum"
    EXCESS_WIN_UNPAID = "excess-win-unpaid"


class ColourValue(StrEnum):
    """What a colour chip may be worth (§7)."""
    TABLE_MINIMUM = "table-minimum"
    MINIMUM_OR_POSTED = "minimum-or-posted"
    MULTIPLE_OF_MINIMUM = "multiple-of-minimum"
    ONE_OF = "one-of"  # the profile's values


class InactivityAction(StrEnum):
    """What happens to a colour that sat out too many spins."""
    LOSE_COLOUR = "lose-colour"  # PT-A 12
    INVITE_TO_END = "invite-to-end"  # SRIJ 31-32


class ReliefKind(StrEnum):
    """How long a croupier may stay on duty."""
    NONE = "none"
    AT_MOST = "at-most"
    AT_MOST_OR_FORCE_MAJEURE = "at-most-or-force-majeure"  # longer only with a reason
    EQUAL_INTERVALS = "equal-intervals"  # the inspectors too


class AfterVoid(StrEnum):
    """Bets after a golpe nulo: they stand, or the players may change them."""
    STAND = "stand"
    PLAYERS_CHOICE = "players-choice"



class ProfileError(ValueError):
    """A profile that cannot be loaded; the message names the file and the key."""


# A profile's parts are Records given in order: `croupier payout` defines them at every start.
class Offer(Record, kw_only=False):
    offered: bool
    rule: str
    sides: tuple[int, ...] = ()  # number and neighbours: neighbours each side allowed


class ZeroRule(Record, kw_only=False):
    simple_chances: ZeroChances  # dozens and columns always lose, zero's positions win
    rule: str


class PayoutOrder(Record, kw_only=False):
    order: tuple[str, ...]  # categories, first paid first
    multiple_chances_by_owner: bool  # FR: after the outside bets, owner by owner
    colour_before_value: bool  # FR: colour chips paid before value chips
    rule: str

    def rank(self, category: str) -> int:
        return self.order.index(category)


class LimitRatios(Record, kw_only=False):
    ratios: Mapping[str, int]  # position kind -> maximum as a multiple of the table minimum
    rule: str


class Breach(Record, kw_only=False):
    above_maximum: BreachAction
    rule: str


class SeriesRange(Record, kw_only=False):
    min: int  # chips counted at the table minimum
    max: int
    multiple: int


class AnnouncedLimits(Record, kw_only=False):
    series: Mapping[str, SeriesRange]  # PT-A 32c
    neighbours_with_pleins: bool  # PT-A 32d: neighbours plus the player's pleins <= plein maximum
    combined_ratio: int | None  # PT-B 34c: all series and neighbours <= this x minimum
    per_position: bool  # RU 4.17: every position of the bet within its own maximum
    rule: str


class ColourChips(Record, kw_only=False):
    value: ColourValue
    values: tuple[Decimal, ...]  # for "one-of"
    up_to_plein_maximum: bool
    rule: str
    foreign_rule: str = ""  # FR: colour chips of another table played here by mistake are settled; "": not said
    exchange_rule: str = ""  # a player leaving exchanges the colour's chips (PT-A 15); "": `rule` is cited


class ColourMinimum(Record, kw_only=False):
    outside_pieces: int  # FR: colour chips together on one simple chance, column or dozen
    numbers_pieces: int  # FR: colour chips on numbers in all, one per combination allowed
    rule: str


class ValueChips(Record, kw_only=False):
    categories: frozenset[str]  # where value chips may be played
    rule: str
    value_only_rule: str = ""  # PT-B 15b: a table may use value chips only; "": the text does not allow it
    marked_rule: str = ""  # PT-A 16: value-marked chips, where offered, go on any bet; "": not allowed


class Inactivity(Record, kw_only=False):
    after_spins: int | None  # consecutive spins without a bet before the action
    action: InactivityAction | None
    only_when_waiting: bool  # PT-A 12: only while someone waits for a colour
    rule: str


class Relief(Record, kw_only=False):
    kind: ReliefKind
    minutes: int | None
    configurable: bool
    rule: str


class BettingPeriod(Record, kw_only=False):
    min_seconds: int | None
    countdown_required: bool
    rule: str
    after_void: AfterVoid = AfterVoid.STAND
    after_void_rule: str = ""


class Profile(Record, kw_only=False):
    """A regulation profile as its TOML file states it: bets, payouts, limits, procedures."""
    id: str
    name: str
    rule_set: str
    numbering: str
    bets: Mapping[str, Offer]
    zero: ZeroRule
    payout: PayoutOrder
    limits: LimitRatios
    breach: Breach
    announced_limits: AnnouncedLimits
    colour_chips: ColourChips
    colour_minimum: ColourMinimum
    value_chips: ValueChips
    inactivity: Inactivity
    relief: Relief
    ball_swap_minutes: int | None
    betting_period: BettingPeriod
    min_ball_revolutions: int | None
    min_bets_per_spin: int
    rules: Mapping[str, str]  # topic -> the rule it comes from
    text: str = field(default="", compare=False, repr=False)  # the file as read: what the journal records

    def offers(self, kind: str) -> bool:
        """Whether a bet of this kind (a layout kind or an announced kind) may be played."""
        if kind in ALWAYS_OFFERED:
            return True
        offer = self.bets.get(kind)
        if offer is None or not offer.offered:
            return False
        return self.numbering == "french" or kind not in WHEEL_BETS

    def neighbour_sides(self) -> tuple[int, ...]:
        return self.bets["neighbours"].sides if self.offers("neighbours") else ()

    def value_chips_allowed(self, category: str) -> bool:
        return category in self.value_chips.categories


# --- reading and checking the TOML ---------------------------------------------------------


class _Reader:
    """Checks one file's keys, raising ProfileError with the file and the dotted key."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, problem: str) -> ProfileError:
        return ProfileError(f"{self.source}: {key}: {problem}")

    def table(self, data: Mapping[str, Any], key: str, known: Mapping[str, bool],
              path: str = "") -> dict:
        """`data[key]` as a table whose keys are `known` (key -> required)."""
        path = f"{path}.{key}" if path else key
        value = data.get(key)
        if not isinstance(value, dict):
            raise self.fail(path, MISSING if value is None else expected("a table", value))
        for name in value:
            if name not in known:
                raise self.fail(f"{path}.{name}", unknown_key(known))
        for name, required in known.items():
            if required and name not in value:
                raise self.fail(f"{path}.{name}", MISSING)
        return value

    def get(self, data: Mapping, key: str, path: str, check: Callable[[Any], Any], default=None):
        if key not in data:
            return default
        try:
            return check(data[key])
        except (TypeError, ValueError) as error:
            raise self.fail(f"{path}.{key}" if path else key, str(error)) from None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(expected("text", value))
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(expected("true or false", value))
    return value


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(expected("a whole number, 0 or more", value))
    return value


def _positive(value: Any) -> int:
    if _count(value) == 0:
        raise ValueError(expected("a whole number above 0", value))
    return value


def _member_of(choices: type[Choice]) -> Callable[[Any], Choice]:
    def check(value: Any) -> Choice:
        if value not in choices.__members__.values():
            raise ValueError(not_one_of(value, tuple(choices)))
        return choices(value)

    return check


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices:
            raise ValueError(not_one_of(value, choices))
        return value

    return check


def _list_of(check: Callable[[Any], Any]) -> Callable[[Any], tuple]:
    def check_list(value: Any) -> tuple:
        if not isinstance(value, list):
            raise ValueError(expected("a list", value))
        items = tuple(check(item) for item in value)
        if len(set(items)) != len(items):
            raise ValueError("lists a value twice")
        return items

    return check_list


def _money(value: Any) -> Decimal:
    """An amount, written as a string ("2.50") or a whole number; floats would not be exact."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    try:
        amount = Decimal(_text(value))
    except (InvalidOperation, ValueError):
        raise ValueError(f"{value!r} is not an amount (write it like \"2.50\")") from None
    if not amount.is_finite() or amount <= 0:
        raise ValueError(f"{value!r} is not an amount above 0")
    return amount


def _sides(value: Any) -> tuple[int, ...]:
    sides = _list_of(_positive)(value)
    if any(side > 3 for side in sides):
        raise ValueError("neighbours each side must be 1, 2 or 3")
    return tuple(sorted(sides))


_TOPICS: dict[str, dict[str, bool]] = {
    "wheel": {"numbering": True, "rule": True},
    "zero": {"simple_chances": True, "rule": True},
    "payout": {"order": True, "multiple_chances_by_owner": True, "colour_before_value": True,
               "rule": True},
    "breach": {"above_maximum": True, "rule": True},
    "announced_limits": {"series": True, "neighbours_with_pleins": True, "combined_ratio": True,
                         "per_position": True, "rule": True},
    "colour_chips": {"value": True, "values": False, "up_to_plein_maximum": True, "foreign_rule": False,
                     "exchange_rule": False, "rule": True},
    "colour_minimum": {"outside_pieces": True, "numbers_pieces": True, "rule": True},
    "value_chips": {"categories": True, "value_only_rule": False, "marked_rule": False, "rule": True},
    "inactivity": {"after_spins": False, "action": False, "only_when_waiting": False, "rule": True},
    "relief": {"kind": True, "minutes": False, "configurable": True, "rule": True},
    "ball_swap": {"minutes": False, "rule": True},
    "betting_period": {"min_seconds": False, "countdown_required": False, "after_void": False,
                       "after_void_rule": False, "rule": True},
    "min_ball_revolutions": {"value": False, "rule": True},
    "min_bets_per_spin": {"value": True, "rule": True},
}
# The rule a leaving player's colour exchange cites, for a profile recorded in a journal before
# `colour_chips.exchange_rule` was written in the profiles (the files say it since).
_EXCHANGE_RULES = {"PT-A": "PT-A 15", "PT-B": "PT-B 16", "RU": "RU 4.7", "FR": "FR"}

_TOP_KEYS = {"id": True, "name": True, "rule_set": True, "bets": True, "limits": True,
             **{topic: True for topic in _TOPICS}}


def parse_profile(data: Mapping[str, Any], source: str, text: str = "") -> Profile:
    """A Profile from the parsed TOML `data`; `source` names the file in error messages, `text`
    is the file as read."""
    read = _Reader(source)
    for key in data:
        if key not in _TOP_KEYS:
            raise read.fail(key, unknown_key(_TOP_KEYS))
    for key in ("id", "name", "rule_set"):
        if key not in data:
            raise read.fail(key, MISSING)
    header = {key: read.get(data, key, "", _text) for key in ("id", "name", "rule_set")}
    t = {topic: read.table(data, topic, known) for topic, known in _TOPICS.items()}
    rules = {topic: read.get(t[topic], "rule", topic, _text) for topic in _TOPICS}

    bets = _read_bets(read, data)
    numbering = read.get(t["wheel"], "numbering", "wheel", _one_of(tuple(NUMBERINGS)))
    rules["bets"] = "; ".join(dict.fromkeys(offer.rule for offer in bets.values()))
    limits = _read_limits(read, data, bets)
    rules["limits"] = limits.rule
    offered = {kind for kind, offer in bets.items() if offer.offered}

    payout_t = t["payout"]
    order = read.get(payout_t, "order", "payout", _list_of(_one_of(CATEGORIES)))
    needed = {LAYOUT_CATEGORY[k] for k in ALWAYS_OFFERED}
    needed |= {ANNOUNCED_CATEGORY.get(k) or LAYOUT_CATEGORY[k] for k in offered}
    missing = [c for c in CATEGORIES if c in needed and c not in order]
    if missing:
        raise read.fail("payout.order", f"does not place {', '.join(missing)}")
    payout = PayoutOrder(
        order,
        read.get(payout_t, "multiple_chances_by_owner", "payout", _flag),
        read.get(payout_t, "colour_before_value", "payout", _flag),
        rules["payout"],
    )

    colour_t = t["colour_chips"]
    colour_value = read.get(colour_t, "value", "colour_chips", _member_of(ColourValue))
    values = read.get(colour_t, "values", "colour_chips", _list_of(_money), ())
    if (colour_value == ColourValue.ONE_OF) != bool(values):
        raise read.fail("colour_chips.values", 'lists the values exactly when value = "one-of"')

    inactivity_t = t["inactivity"]
    after = read.get(inactivity_t, "after_spins", "inactivity", _positive)
    action = read.get(inactivity_t, "action", "inactivity", _member_of(InactivityAction))
    if (after is None) != (action is None):
        raise read.fail("inactivity.action" if after else "inactivity.after_spins",
                        "after_spins and action go together")

    relief_t = t["relief"]
    relief_kind = read.get(relief_t, "kind", "relief", _member_of(ReliefKind))
    relief_minutes = read.get(relief_t, "minutes", "relief", _positive)
    if (relief_kind == ReliefKind.NONE) != (relief_minutes is None):
        raise read.fail("relief.minutes", 'is given exactly when kind is not "none"')

    announced_t = t["announced_limits"]
    zero_t, breach_t, minimum_t, period_t = (t["zero"], t["breach"], t["colour_minimum"],
                                             t["betting_period"])
    return Profile(
        id=header["id"],
        name=header["name"],
        rule_set=header["rule_set"],
        numbering=numbering,
        bets=MappingProxyType(bets),
        zero=ZeroRule(read.get(zero_t, "simple_chances", "zero", _member_of(ZeroChances)),
                      rules["zero"]),
        payout=payout,
        limits=limits,
        breach=Breach(read.get(breach_t, "above_maximum", "breach", _member_of(BreachAction)),
                      rules["breach"]),
        announced_limits=AnnouncedLimits(
            _read_series(read, announced_t),
            read.get(announced_t, "neighbours_with_pleins", "announced_limits", _flag),
            read.get(announced_t, "combined_ratio", "announced_limits", _count) or None,
            read.get(announced_t, "per_position", "announced_limits", _flag),
            rules["announced_limits"],
        ),
        colour_chips=ColourChips(
            colour_value, values,
            read.get(colour_t, "up_to_plein_maximum", "colour_chips", _flag),
            rules["colour_chips"],
            read.get(colour_t, "foreign_rule", "colour_chips", _text, ""),
            read.get(colour_t, "exchange_rule", "colour_chips", _text, _EXCHANGE_RULES.get(header["rule_set"], "")),
        ),
        colour_minimum=ColourMinimum(
            read.get(minimum_t, "outside_pieces", "colour_minimum", _count),
            read.get(minimum_t, "numbers_pieces", "colour_minimum", _count),
            rules["colour_minimum"],
        ),
        value_chips=ValueChips(
            frozenset(read.get(t["value_chips"], "categories", "value_chips",
                               _list_of(_one_of(CATEGORIES)))),
            rules["value_chips"],
            read.get(t["value_chips"], "value_only_rule", "value_chips", _text, ""),
            read.get(t["value_chips"], "marked_rule", "value_chips", _text, ""),
        ),
        inactivity=Inactivity(
            after, action,
            read.get(inactivity_t, "only_when_waiting", "inactivity", _flag, False),
            rules["inactivity"],
        ),
        relief=Relief(relief_kind, relief_minutes,
                      read.get(relief_t, "configurable", "relief", _flag), rules["relief"]),
        ball_swap_minutes=read.get(t["ball_swap"], "minutes", "ball_swap", _positive),
        betting_period=BettingPeriod(
            read.get(period_t, "min_seconds", "betting_period", _positive),
            read.get(period_t, "countdown_required", "betting_period", _flag, False),
            rules["betting_period"],
            read.get(period_t, "after_void", "betting_period", _member_of(AfterVoid), AfterVoid.STAND),
            read.get(period_t, "after_void_rule", "betting_period", _text, rules["betting_period"]),
        ),
        min_ball_revolutions=read.get(t["min_ball_revolutions"], "value",
                                      "min_ball_revolutions", _positive),
        min_bets_per_spin=read.get(t["min_bets_per_spin"], "value", "min_bets_per_spin", _count),
        rules=MappingProxyType(rules),
        text=text,
    )


def _read_bets(read: _Reader, data: Mapping[str, Any]) -> dict[str, Offer]:
    table = read.table(data, "bets", {kind: True for kind in OPTIONAL_BETS})
    bets = {}
    for kind in OPTIONAL_BETS:
        known = {"offered": True, "rule": True}
        if kind == "neighbours":
            known["sides"] = True
        entry = read.table(table, kind, known, "bets")
        path = f"bets.{kind}"
        offered = read.get(entry, "offered", path, _flag)
        sides = read.get(entry, "sides", path, _sides, ())
        if kind == "neighbours" and offered and not sides:
            raise read.fail(f"{path}.sides", "lists no number of neighbours for an offered bet")
        bets[kind] = Offer(offered, read.get(entry, "rule", path, _text), sides)
    return bets


def _read_limits(read: _Reader, data: Mapping[str, Any], bets: Mapping[str, Offer]) -> LimitRatios:
    # A two-way bet the profile does not offer needs no maximum.
    known = {kind: kind not in bets or bets[kind].offered for kind in LAYOUT_KINDS}
    table = read.table(data, "limits", {**known, "rule": True})
    ratios = {kind: read.get(table, kind, "limits", _positive)
              for kind in LAYOUT_KINDS if kind in table}
    return LimitRatios(MappingProxyType(ratios), read.get(table, "rule", "limits", _text))


def _read_series(read: _Reader, announced: Mapping[str, Any]) -> Mapping[str, SeriesRange]:
    table = read.table(announced, "series", {name: False for name in SERIES}, "announced_limits")
    ranges = {}
    for name in table:
        path = f"announced_limits.series.{name}"
        entry = read.table(table, name, {"min": True, "max": True, "multiple": True},
                           "announced_limits.series")
        low, high, step = (read.get(entry, key, path, _positive)
                           for key in ("min", "max", "multiple"))
        if low > high or low % step or high % step:
            raise read.fail(path, f"min {low} and max {high} must be multiples of {step}, "
                                  "min <= max")
        ranges[name] = SeriesRange(low, high, step)
    return MappingProxyType(ranges)


def _directories(house: str | os.PathLike[str] | None) -> list[str]:
    """Where profiles are looked for, the house's first."""
    return ([os.path.join(house, HOUSE_PROFILES)] if house else []) + [PACKAGED_PROFILES]


def profile_ids(house: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """Every profile a table can run: one per `*.toml` file, packaged or the house's."""
    ids: set[str] = set()
    for directory in _directories(house):
        try:
            names = os.listdir(directory)
        except OSError:
            continue  # a house without profiles of its own
        ids.update(name[:-5] for name in names if name.endswith(".toml") and not name.startswith("."))
    return tuple(sorted(ids))


def profile_file(profile_id: str, house: str | os.PathLike[str] | None = None) -> str:
    """The file a profile id stands for; ProfileError listing the known ids when there is none."""
    if profile_id and os.sep not in profile_id and "/" not in profile_id and not profile_id.startswith("."):
        for directory in _directories(house):
            path = os.path.join(directory, f"{profile_id}.toml")
            if os.path.isfile(path):
                return path
    raise ProfileError(f"{profile_id!r} is not a profile; use one of {', '.join(profile_ids(house))}")


def load_profile_file(path: str | os.PathLike[str]) -> Profile:
    """A profile from an explicit file (a house's own, or a test's malformed one)."""
    try:
        text = read_text(path)
    except FileProblem as problem:
        raise ProfileError(str(problem)) from None
    return profile_from_text(text, str(path))


@lru_cache(maxsize=32)
def profile_from_text(text: str, source: str = "recorded rules") -> Profile:
    """A profile from the text of its file, as a journal records it."""
    data = parsed(text)
    if data is None:
        try:
            data = parse(text, source)
        except FileProblem as problem:
            raise ProfileError(str(problem)) from None
    return parse_profile(data, source, text)


@lru_cache(maxsize=None)
def load_profile(profile_id: str = DEFAULT_PROFILE, house: str | os.PathLike[str] | None = None) -> Profile:
    """A profile by id (its file's name), from the house directory or the packaged ones."""
    path = profile_file(profile_id, house)
    profile = load_profile_file(path)
    if profile.id != profile_id:
        raise ProfileError(f"{path}: id: says {profile.id!r}, not {profile_id!r} as its file's name")
    return profile


def numbering_of(profile_id: str | None) -> str:
    """The wheel numbering a journal's profile id stands for; French for one this program does not
    know (a journal written by another version), so statistics still read in wheel order."""
    try:
        return load_profile(profile_id).numbering if profile_id else "french"
    except ProfileError:
        return "french"
