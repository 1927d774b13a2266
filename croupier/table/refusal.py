"""The one way a table command says no: nothing is recorded and the refusal says why.

A kind of refusal the screens word themselves is a class below, its facts typed fields; str() is
the core's English. Every other refusal is a plain `Refused` whose English template is a text of
the catalogs, filled by its facts: `Refused("ball {ball} is in play", ball="A")`. The screens give
each class its wording in the table's language (croupier.ui.text.refusal, dispatched on the class),
and a test fails for a class without one."""
from __future__ import annotations

from decimal import Decimal
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, TypeVar, dataclass_transform

E = TypeVar("E", bound=Enum)


class Refused(Exception):
    """A command the table will not carry out, with the reason (and the rule, where one decides)."""

    template: str | None = None  # a plain refusal's English, with its facts in braces
    facts: Mapping[str, Any] = MappingProxyType({})

    def __init__(self, message: str, **facts: object) -> None:
        super().__init__(message.format(**facts) if facts else message)
        self.template = message
        self.facts = facts


@dataclass_transform(eq_default=False)
class Kind(Refused):
    """A kind of refusal: each subclass is built as a dataclass is (its facts are its annotated
    fields, in order, by position or keyword), its English `english` filled by them. Built here
    rather than by `dataclasses`, whose generated code costs milliseconds at every start."""

    english: ClassVar[str] = ""
    fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.fields += tuple(vars(cls).get("__annotations__", {}))  # its own facts after its base's

    if TYPE_CHECKING:
        def __init__(self) -> None: ...  # a kind without facts; the others' is made from their fields
    else:
        def __init__(self, *args, **facts):
            name, fields = type(self).__name__, self.fields
            if len(args) > len(fields):
                raise TypeError(f"{name} takes {len(fields)} facts, not {len(args)}")
            given = dict(zip(fields, args))
            for key, value in facts.items():
                if key not in fields or key in given:
                    raise TypeError(f"{name} got {key!r} {'twice' if key in given else 'which is none of its facts'}")
                given[key] = value
            missing = [field for field in fields if field not in given]
            if missing:
                raise TypeError(f"{name} is missing {', '.join(missing)}")
            Exception.__init__(self, *given.values())
            self.__dict__.update(given)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{field}={getattr(self, field)!r}' for field in self.fields)})"

    def __str__(self) -> str:
        return self.english.format(**{field: getattr(self, field) for field in self.fields})


def kinds() -> list[type[Kind]]:
    """Every kind of refusal the core raises: the subclasses of Kind with none of their own."""
    found, todo = [], list(Kind.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        if not kind.__subclasses__():
            found.append(kind)
    return found


# --- the kinds of refusal, each with its facts ---------------------------------------------------


class TableNotOpen(Kind):
    english = "the table is not open"


class NoMoreBets(Kind):
    english = "no more bets: none is placed or changed now ({rule})"
    rule: str  # the table's betting period: PT-A 20, RU 4.12, SRIJ 13-15


class BetsClosedAtLaunch(Kind):
    english = "bets closed when the ball was launched ({rule})"
    rule: str


class BetsStandAfterVoid(Kind):
    english = "bets stand after a golpe nulo ({rule}): none is placed or taken back until the next launch"
    rule: str


class ColourValueRefused(Kind):
    """A value a colour's chips cannot be given here (croupier.rules.limits.colour_value_check)."""

    english = "{problem}"
    problem: str  # the rules' English
    value: Decimal
    rule: str


class ColourValueNotPosted(ColourValueRefused):
    """Neither the minimum nor a posted value (PT-A 9)."""

    allowed: tuple[Decimal, ...]


class ColourValueNotOneOf(ColourValueRefused):
    allowed: tuple[Decimal, ...]  # the regulation's list (RU 4.7)


class ColourValueNotMultiple(ColourValueRefused):
    minimum: Decimal


class ColourValueAboveMaximum(ColourValueRefused):
    maximum: Decimal  # the plein maximum


class ValueOnlyTable(Kind):
    english = "this table uses value chips only ({rule}): it has no colour chips"
    rule: str


class ValueOnlyNotAllowed(Kind):
    english = "{profile} has no tables of value chips only ({rule})"
    profile: str
    rule: str


class MarkedChipsNotAllowed(Kind):
    english = "{profile} has no value-marked chips ({rule})"
    profile: str
    rule: str


class MarkedChipsNotOffered(Kind):
    english = "this table offers no value-marked chips ({rule})"
    rule: str


class ForeignChipsNotSettled(Kind):
    english = "{profile}: colour chips of another table are not settled here ({rule})"
    profile: str | None
    rule: str


class ForeignChipsValue(Kind):
    english = ("chips that win are paid at their real value, or else at the minimum of their own table ({rule}): "
               "give one")
    rule: str


class LimitsUntilPaid(Kind):
    english = ("the limits change once the payouts of spin {spin} are recorded: they are checked against the limits "
               "their bets were made under")
    spin: int


class WrongPin(Kind):
    english = "wrong PIN for {name}; only the attempt is recorded"
    name: str


class PinLocked(Kind):
    name: str
    minutes: int | None  # how long it stays locked; None when the PIN's time is not known

    def __str__(self) -> str:
        more = "" if self.minutes is None else f" for {self.minutes} min more"
        return (f"the PIN of {self.name} is locked{more} after too many wrong PINs: a pit boss clears the alarm, "
                "or it is unlocked at the console")


class PinDelayed(Kind):
    name: str
    seconds: int | None  # until the next PIN is checked; None when the PIN's time is not known

    def __str__(self) -> str:
        after = "later" if self.seconds is None else f"in {self.seconds} s"
        return f"wrong PINs for {self.name}: the next is checked {after}; this one was not, and is recorded"


class NoPitBoss(Kind):
    english = ("staff are registered only when a journal is created, or by its pit boss: this journal has none; "
               "start the table on a new journal")


class SignNotAllowed(Kind):
    """A table sign the regulation's caps (or its own form) do not allow: the rules' reason and facts."""

    english = "{problem}"
    problem: str  # the rules' English
    key: str
    reason: str | None  # croupier.rules' SignError code: above-cap, below-minimum, above-maximum, ...
    details: Mapping[str, Any]  # amount, cap, minimum, maximum, rule, as the reason has them


class OpeningPinMissing(Kind):
    """An attended table opens only with its opening croupier's PIN, checked by the core."""

    english = "{name} opens the table with their PIN"
    name: str


class ContextBetweenSpins(Kind):
    english = "the currency and time zone change between spins, not while the ball is in play"


class ContextUnchanged(Kind):
    english = "the journal already has that currency and time zone"


class ContextCurrencyInvalid(Kind):
    english = "{currency} is not a currency code (three letters, e.g. EUR)"
    currency: str


class ContextCurrencyShiftStarted(Kind):
    """A shift's money is in one currency: once a spin is counted or chips move, a new currency
    takes a new shift."""

    english = "this shift already has spins or chips in its currency: close the table and open it in the new one"


class ContextZoneUnknown(Kind):
    english = "{time_zone} is not a time zone the system knows (e.g. Europe/Lisbon)"
    time_zone: str


class ContextReasonMissing(Kind):
    english = "say why the currency or time zone changes"


class SignBetweenSpins(Kind):
    english = "the table sign changes between spins, not while the ball is in play"


class SignUnchanged(Kind):
    english = "the table sign already reads so"


class SignReasonMissing(Kind):
    english = "say why the table sign changes"


class SignUnreadable(Kind):
    english = "the recorded table sign cannot be read: {problem}"
    problem: str


class ProfileUnusable(Kind):
    english = "{problem}"
    problem: str  # the regulation file's own error


class NotABet(Kind):
    """A bet that is no bet at this table (croupier.rules.bets.BetError): its reason and facts."""

    english = "{problem}"
    problem: str  # the rules' English
    reason: str | None  # not-offered, numbering, neighbours, value-chips, chips; None: the problem says
    details: Mapping[str, Any]  # bet, rule, numbering, allowed, category, as the reason has them


class OverLimits(Kind):
    checks: tuple[Any, ...]  # the refused LimitChecks (croupier.rules.limits)

    def __str__(self) -> str:
        return "; ".join(f"{check.message} ({check.rule})" for check in self.checks)


class ColoursRefused(Kind):
    refusals: tuple[tuple[str, Refused], ...]  # (colour, why), one for each colour refused

    def __str__(self) -> str:
        return "; ".join(f"{colour}: {refusal}" for colour, refusal in self.refusals)


def choice(kind: type[E], value: object) -> E:
    """`value` as one of the enum `kind`, or a refusal listing the choices."""
    try:
        return kind(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        known = ", ".join(str(member.value) for member in kind)
        raise Refused("{value} is not a {kind}; use one of: {known}", value=repr(value), kind=kind.__name__,
                      known=known) from None
