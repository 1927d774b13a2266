"""The words the screens show for the table's values: phases, alarms, notices, void reasons,
directions, roles, colour names, bet positions, chips and money, each through the table's language
(croupier.i18n)."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import singledispatch
from typing import Any, Mapping

from croupier.history import words
from croupier.screens.words import NUMBER_STYLE, PHASES, colour_name, number_markup, phase  # noqa: F401 (the screens' words)
from croupier.i18n import N_, _, current, formats, language
from croupier.rules.bets import BetProblem
from croupier.rules.limits import LimitCheck, SignCode
from croupier.rules.spin import Direction, VoidReason
from croupier.table.events import AlarmKind, LimitCut, Role
from croupier.table import notices
from croupier.table.notices import Notice
from croupier.table import refusal as no
from croupier.table.refusal import Refused
from croupier.table.state import Alarm

_AMOUNTS = {"amount", "maximum", "minimum", "least", "cap", "held", "new"}  # refusal facts that are money
CATEGORIES = {
    "columns": N_("Columns"), "simple": N_("Simple chances"), "dozens": N_("Dozens"),
    "neighbours": N_("Neighbours"), "series": N_("Series"), "finales": N_("Finales"),
    "complete": N_("Complete"), "lines": N_("Lines"), "streets": N_("Streets"), "corners": N_("Corners"),
    "splits": N_("Splits"), "pleins": N_("Pleins"),
}
BET_KINDS = words.BET_KINDS


def alarm(kind: AlarmKind) -> str:
    return _(words.ALARMS[kind])


def alarm_detail(alarm: Alarm) -> str:
    """What an alarm is about, worded from its facts. An alarm without them (the wheel link's, or
    one recorded before the table kept them) shows the record's English whole in English, and only
    the rule it cites in another language (the title is already translated)."""
    return words.alarm_detail_words(alarm.kind, alarm.facts, alarm.detail, from_facts=True)


@singledispatch
def refusal(refused: Refused) -> str:
    """Why the table said no, in the table's language: a kind of refusal (croupier.table.refusal)
    by its own English template through the catalogs, filled by its facts as the table's language
    writes them, or by the wording registered below for a kind whose facts need more."""
    if isinstance(refused, no.Kind) and refused.template():
        return _(refused.template()).format(**worded(refused.facts))
    return str(refused)


def _worded(*kinds: type[no.Kind]):
    """Register the wording of one or more kinds of refusal (their facts as fields)."""
    def register(wording):
        for kind in kinds:
            refusal.register(kind)(wording)
        return wording
    return register


def _values(values: tuple[Decimal, ...]) -> str:
    return " · ".join(money(value, shown_currency()) for value in values)


@_worded(no.ColourValueRefused)
def _colour_value(refused: no.ColourValueRefused) -> str:
    facts = {key: _values(value) if key == "allowed" else money(value, shown_currency()) if isinstance(value, Decimal)
             else value for key, value in refused.facts.items()}
    return _(refused.template()).format(**facts)


@_worded(no.SignNotAllowed)
def _sign_not_allowed(refused: no.SignNotAllowed) -> str:
    return sign_problem({**refused.details, "key": refused.key, "reason": refused.reason})


@_worded(no.NotABet)
def _not_a_bet(refused: no.NotABet) -> str:
    return bet_error(refused.reason, {**refused.details, "problem": refused.problem})


@_worded(no.ProfileUnusable, no.SignUnreadable)
def _regulation_unusable(refused: no.ProfileUnusable | no.SignUnreadable) -> str:
    return _("the regulation's file cannot be used: {problem}").format(problem=str(refused))


@_worded(no.OverLimits)
def _over_limits(refused: no.OverLimits) -> str:
    return "; ".join(f"{limit_check(check)} ({check.rule})" for check in refused.checks)


@_worded(no.ColoursRefused)
def _colours_refused(refused: no.ColoursRefused) -> str:
    return "; ".join(f"{colour_name(colour)}: {refusal(each)}" for colour, each in refused.refusals)


def limit_check(check: LimitCheck) -> str:
    """Why the limits refused or cut down a bet (a rules LimitCheck), in the table's language."""
    if check.reason is None or check.outcome is None:
        return check.message
    return words.limit_words(check.reason, check.outcome, worded(check.facts))


def limit_cut(cut: LimitCut) -> str:
    """A bet the limits cut down as the journal records it (a LimitCut), with its rule."""
    return f"{words.limit_words(cut.reason, cut.outcome, worded(words.limit_facts(cut)))} ({cut.rule})"


def worded(facts: Mapping[str, object]) -> dict[str, object]:
    """A refusal's facts as the table's language writes them: colours, kinds of bet, positions,
    roles and amounts; names, numbers and rules as they are."""
    found: dict[str, object] = {}  # not `words`: the module of the words is read below
    for key, value in facts.items():
        if key == "colour" and isinstance(value, str):
            value = colour_name(value)
        elif key == "colours" and isinstance(value, tuple):
            value = ", ".join(colour_name(colour) for colour in value)
        elif key in ("kind", "series") and isinstance(value, str):
            value = bet_kind(value).lower()  # within a sentence
        elif key in ("position", "bet") and isinstance(value, str):
            value = position(value)
        elif key in ("to", "what") and isinstance(value, str):
            value = _(value)  # what a PIN is asked for, what an amount is: the core's phrases
        elif key == "role" and value in words.ROLES:
            value = _(words.ROLES[value])
        elif key in _AMOUNTS and isinstance(value, Decimal):
            value = money(value, shown_currency())
        found[key] = value
    return found


def sign_entry(key: str) -> str:
    """An entry of the table sign: `Plein maximum`, `Split minimum`."""
    section, _dot, kind = key.partition(".")
    wording = _("{kind} minimum") if section == "minimum" else _("{kind} maximum")
    return wording.format(kind=bet_kind(kind))


def sign_problem(facts: dict) -> str:
    """Why the table sign cannot read so, from the core's facts."""
    entry, reason = sign_entry(facts["key"]), facts.get("reason")
    if reason is SignCode.ABOVE_CAP:
        return _("{entry}: {amount} is above the regulation's cap {cap} ({rule})").format(
            entry=entry, amount=money(facts["amount"]), cap=money(facts["cap"]), rule=facts["rule"])
    if reason is SignCode.BELOW_MINIMUM:
        return _("{entry}: {amount} is below the table minimum {minimum}").format(
            entry=entry, amount=money(facts["amount"]), minimum=money(facts["minimum"]))
    if reason is SignCode.ABOVE_MAXIMUM:
        return _("{entry}: {amount} is above the maximum {maximum}").format(
            entry=entry, amount=money(facts["amount"]), maximum=money(facts["maximum"]))
    return _("{entry} cannot be posted on the table sign").format(entry=entry)


def notice(found: Notice) -> str:
    """A notice of something falling due, in the table's language."""
    match found:
        case notices.ReliefDue():
            wording = (_("Relieve {role} {name} within {minutes} min ({rule})") if found.minutes
                       else _("Relieve {role} {name} now ({rule})"))
            return wording.format(role=role(found.role), name=found.name, minutes=found.minutes, rule=found.rule)
        case notices.BallSwapDue():
            wording = (_("Ball swap due in {minutes} min: announce it and put the other ball in play ({rule})")
                       if found.minutes
                       else _("Ball swap due now: announce it and put the other ball in play ({rule})"))
            return wording.format(minutes=found.minutes, rule=found.rule)
        case notices.ExchangeColour():
            return _("{colour} ({player}) has not bet for {spins} spins while players wait: it exchanges its chips "
                     "({rule})").format(colour=colour_name(found.colour), player=found.player, spins=found.spins,
                                        rule=found.rule)
        case notices.InviteToEnd():
            return _("{colour} ({player}) has not bet for {spins} spins: invite them to end the session "
                     "({rule})").format(colour=colour_name(found.colour), player=found.player, spins=found.spins,
                                        rule=found.rule)
        case notices.Countdown():
            return _("Bets close in {seconds} s ({rule})").format(seconds=found.seconds, rule=found.rule)
    raise ValueError(f"no wording for a {type(found).__name__} notice")


def role(value: Role) -> str:
    return _(words.ROLES[value.value])


def void_reason(reason: VoidReason) -> str:
    return _(words.VOID_REASONS[reason])


def direction(value: Direction | None) -> str:
    return "?" if value is None else _(words.DIRECTIONS[value.value])


def bet_kind(kind: str) -> str:
    """A kind of bet on the table sign: `Plein`, `Two dozens`, `voisins du zéro`."""
    if kind in BET_KINDS:
        return _(BET_KINDS[kind])
    return _(words.POSITIONS[kind]) if kind in words.POSITIONS else kind


BET_PROBLEMS = {  # why a bet is no bet at this table (croupier.rules.bets.BetProblem)
    BetProblem.NOT_OFFERED: N_("{bet}: this table's regulation does not offer it ({rule})"),
    BetProblem.NUMBERING: N_("{bet}: it needs the French numbering, and this wheel's is {numbering}"),
    BetProblem.NEIGHBOURS: N_("{bet}: this table takes {allowed} neighbours each side ({rule})"),
    BetProblem.VALUE_CHIPS: N_("{bet}: value chips may not be played on {category} ({rule})"),
    BetProblem.CHIPS: N_("{bet}: the chips must be a whole number above 0"),
    BetProblem.NOT_A_BET: N_("not a bet of this table: {problem}"),
}


def bet_error(reason: BetProblem, facts: Mapping[str, Any]) -> str:
    """Why a bet is no bet at this table, from the rules' reason and facts (croupier.rules.bets.BetError)."""
    shown = dict(facts)
    if "bet" in shown:
        shown["bet"] = position(shown["bet"])
    if "allowed" in shown:
        shown["allowed"] = shown["allowed"].replace(" or ", " / ")
    if "category" in shown:
        shown["category"] = category(shown["category"])
    return _(BET_PROBLEMS[reason]).format(**shown)


def category(name: str) -> str:
    return _(CATEGORIES.get(name, name))


def position(spec: str) -> str:
    """A bet as the croupier calls it: `17`, `14/17`, `2nd dozen`, `neighbours 17 (2)`."""
    if spec in words.POSITIONS:
        return _(words.POSITIONS[spec])
    word, _sep, rest = spec.partition(":")
    if word == "neighbours":
        number, sides = rest.split(":")
        return _("{number} and {sides} neighbours").format(number=number, sides=sides)
    if word == "complete":
        return _("complete {number}").format(number=rest)
    if word == "finale":
        return _("finale {digits}").format(digits=rest)
    numbers = spec.split("/")
    if len(numbers) in (3, 6) and "0" not in numbers:
        return f"{numbers[0]}-{numbers[-1]}"  # a street or a line, as croupiers call it: 16-18, 13-18
    return spec


def chips(amount: Fraction | int) -> str:
    """A chip count; halves happen (zero on simple chances, two-dozen bets)."""
    return formats.chips(amount)


def shown_currency() -> str | None:
    """The table's currency, written after the amounts a refusal or a limit quotes: the shown
    presentation's (the table screen's follows its journal)."""
    return current().currency


def money(amount: Decimal, currency: str | None = None) -> str:
    """An amount as the table's language writes it: 1 234,50 EUR in Portuguese, 1,234.50 EUR in English."""
    return formats.money(amount, currency)


def stacks(count: int, rest: Fraction) -> str:
    """A payment as the croupier builds it: `count` stacks of 20 and the rest (PT-A 30)."""
    if not count:
        return chips(rest)
    text = _("{count} × 20").format(count=count)
    return f"{text} + {chips(rest)}" if rest else text
