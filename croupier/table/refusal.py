"""The one way a table command says no: nothing is recorded and the refusal says why.

Each kind of refusal is a class below, its facts typed fields, its English `english` a template
filled by them (what str() gives). That template is also the text the catalogs translate: the
screens word a refusal in the table's language from it (croupier.ui.text.refusal), unless a kind
registers its own wording there, so a new kind is a class here and its entries in the catalogs;
a test fails for a kind that has neither."""
from __future__ import annotations

from decimal import Decimal
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, TypeVar, dataclass_transform

from croupier.rules.bets import BetProblem
from croupier.rules.limits import COLOUR_VALUE_PROBLEMS, ColourValueCode, SignCode

E = TypeVar("E", bound=Enum)


class Refused(Exception):
    """A command the table will not carry out, with the reason (and the rule, where one decides).
    The core raises only its kinds (Kind below); a plain one carries a message in English."""


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

    @classmethod
    def templates(cls) -> tuple[str, ...]:
        """Every English template the kind says itself in: the texts the catalogs translate."""
        return (cls.english,) if cls.english else ()

    def template(self) -> str:
        """The template this refusal is said in (a kind with more than one picks by its facts)."""
        return self.english

    @property
    def facts(self) -> dict[str, Any]:
        return {field: getattr(self, field) for field in self.fields}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{field}={getattr(self, field)!r}' for field in self.fields)})"

    def __str__(self) -> str:
        return self.template().format(**{field: ", ".join(value) if _names(value) else value
                                         for field, value in self.facts.items()})


def _names(value: Any) -> bool:
    """A fact that is a list of names (colours): said as one, comma-separated."""
    return isinstance(value, tuple) and bool(value) and all(isinstance(item, str) for item in value)


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
    english = "no more bets: no bet is placed or changed now ({rule})"
    rule: str  # the table's betting period: PT-A 20, RU 4.12, SRIJ 13-15


class BetsClosedAtLaunch(Kind):
    english = "bets closed when the ball was launched ({rule})"
    rule: str


class BetsStandAfterVoid(Kind):
    english = "bets stand after a golpe nulo ({rule}): none is placed or taken back until the next launch"
    rule: str


class RulesProblem(Kind):
    """A refusal the rules word in English (`problem`); the screens word it from its other facts."""

    problem: str

    def __str__(self) -> str:
        return self.problem


class ColourValueRefused(RulesProblem):
    """A value a colour's chips cannot be given here (croupier.rules.limits.colour_value_check): its
    template is the rules' English for its code, the problem that template filled in English."""

    value: Decimal
    rule: str


class ColourValueNotPosted(ColourValueRefused):
    english = COLOUR_VALUE_PROBLEMS[ColourValueCode.NOT_POSTED]  # PT-A 9
    allowed: tuple[Decimal, ...]  # the minimum and the posted values


class ColourValueNotOneOf(ColourValueRefused):
    english = COLOUR_VALUE_PROBLEMS[ColourValueCode.ONE_OF]
    allowed: tuple[Decimal, ...]  # the regulation's list (RU 4.7)


class ColourValueNotMultiple(ColourValueRefused):
    english = COLOUR_VALUE_PROBLEMS[ColourValueCode.MULTIPLE]
    minimum: Decimal


class ColourValueAboveMaximum(ColourValueRefused):
    english = COLOUR_VALUE_PROBLEMS[ColourValueCode.ABOVE_PLEIN]
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
    english = "wrong PIN for {name}: only the attempt is recorded"
    name: str


class PinLocked(Kind):
    english = "the PIN of {name} is locked after too many wrong PINs: a pit boss clears the alarm"
    english_for = ("the PIN of {name} is locked for {minutes} min more after too many wrong PINs: a pit boss clears "
                   "the alarm")
    name: str
    minutes: int | None  # how long it stays locked; None when the PIN's time is not known

    @classmethod
    def templates(cls) -> tuple[str, ...]:
        return cls.english, cls.english_for

    def template(self) -> str:
        return self.english if self.minutes is None else self.english_for


class PinDelayed(Kind):
    english = "wrong PINs for {name}: the next is checked later; this attempt is recorded"
    english_in = "wrong PINs for {name}: the next is checked in {seconds} s; this attempt is recorded"
    name: str
    seconds: int | None  # until the next PIN is checked; None when the PIN's time is not known

    @classmethod
    def templates(cls) -> tuple[str, ...]:
        return cls.english, cls.english_in

    def template(self) -> str:
        return self.english if self.seconds is None else self.english_in


class NoPitBoss(Kind):
    english = "this journal has no pit boss: staff are registered only in a new journal"


class SignNotAllowed(RulesProblem):
    """A table sign the regulation's caps (or its own form) do not allow: the rules' reason and facts."""

    key: str
    reason: SignCode  # croupier.rules' SignError code
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


class ProfileUnusable(RulesProblem):
    """The regulation file's own error."""


class NotABet(RulesProblem):
    """A bet that is no bet at this table (croupier.rules.bets.BetError): its reason and facts."""

    reason: BetProblem
    details: Mapping[str, Any]  # bet, rule, numbering, allowed, category, as the reason has them


class OverLimits(Kind):
    checks: tuple[Any, ...]  # the refused LimitChecks (croupier.rules.limits)

    def __str__(self) -> str:
        return "; ".join(f"{check.message} ({check.rule})" for check in self.checks)


class ColoursRefused(Kind):
    refusals: tuple[tuple[str, Refused], ...]  # (colour, why), one for each colour refused

    def __str__(self) -> str:
        return "; ".join(f"{colour}: {refusal}" for colour, refusal in self.refusals)

# --- the table, its limits, profile and sign -----------------------------------------------------------------


class TableAlreadyOpen(Kind):
    english = "the table is already open"


class NotAnAmount(Kind):
    english = "{value} is not an amount"
    value: str


class AmountNotAbove0(Kind):
    """`what` is the core's phrase for the amount, worded through the catalogs."""

    english = "{what} must be above 0, not {value}"
    what: str
    value: Decimal


class NotAChoice(Kind):
    """`what` is the core's phrase for what is chosen, worded through the catalogs."""

    english = "{value} is not {what}; use one of: {known}"
    value: str
    what: str
    known: str


class ColourChipsNotListed(Kind):
    english = "list the table's colour chips, each once (PT-A 8)"


class ReliefNotConfigurable(Kind):
    english = "{profile} does not let the house set the relief interval ({rule})"
    profile: str
    rule: str


class ReliefIntervalInvalid(Kind):
    english = "the relief interval is a number of minutes above 0"


class CroupierNotNamed(Kind):
    english = "name the croupier at the wheel"


class CloseMidSpin(Kind):
    english = "finish the spin and its payouts before closing the table"


class CloseWithChipsInPlay(Kind):
    english = "exchange the colour chips still in play first: {colours} ({rule})"
    colours: tuple[str, ...]  # in the order they were given
    rule: str


class LimitsBetweenSpins(Kind):
    english = "limits change between spins, not while the ball is in play"


class MinimumUnchanged(Kind):
    english = "the table minimum is already {new}"
    new: Decimal


class LimitsReasonMissing(Kind):
    english = "say why the limits change"


class ProfileUnchanged(Kind):
    english = "the table already plays {profile}"
    profile: str


class ProfileBetweenSpins(Kind):
    english = "change the profile between spins, with no bets on the layout"


class ProfileWithChipsInPlay(Kind):
    english = "colour values depend on the profile: exchange the colour chips in play first"


class ProfileReasonMissing(Kind):
    english = "say why the profile changes"


class SignAboveColourChip(Kind):
    english = "a colour chip of {amount} is above the plein maximum {maximum} of this sign ({rule})"
    amount: Decimal
    maximum: Decimal
    rule: str


# --- the spin cycle: countdown, launch, result, payouts, golpe nulo ------------------------------------------


class CountdownOutsideBetting(Kind):
    english = "a countdown runs while bets are open"


class CountdownRunning(Kind):
    english = "a countdown is already running"


class CountdownTooShort(Kind):
    english = "the betting period lasts at least {seconds} s ({rule})"
    seconds: int
    rule: str


class DirectionMissing(Kind):
    english = "say which way the ball is launched (PT-A 21)"


class LaunchBeforePayouts(Kind):
    english = "finish the payouts before launching the ball (PT-A 19)"


class BallAlreadyInPlay(Kind):
    english = "the ball is already in play for spin {spin}"
    spin: int


class LaunchDuringCountdown(Kind):
    english = "bets are open for {left:.0f} s more: the ball is launched when the countdown ends ({rule})"
    left: float
    rule: str


class LaunchTooEarly(Kind):
    english = "the betting period lasts at least {minimum} s: {left:.0f} s left ({rule})"
    minimum: int
    left: float
    rule: str


class LaunchWithoutBets(Kind):
    english = "a spin needs at least {bets} bet on the layout ({rule}): the croupier says they are down"
    bets: int
    rule: str


class NoMoreBetsOutOfTurn(Kind):
    english = "no more bets is called once the ball is launched, before the result"


class ResultBeforeLaunch(Kind):
    english = "a result is entered after the launch (launch the ball first)"


class NoResultToConfirm(Kind):
    english = "there is no entered result to confirm"


class ResultMismatch(Kind):
    english = "{number} does not match the entered {pending}: enter the result again"
    number: int
    pending: int


class WheelGameRepeated(Kind):
    english = "the wheel reports game {wheel_game} again with {number}; {number2} was recorded"
    wheel_game: int
    number: int
    number2: int


class NotTheTypedResult(Kind):
    english = "spin {spin} is not the last result, typed at the keypad"
    spin: int


class TypedAndReadDiffer(Kind):
    english = ("spin {spin} was typed as {typed} and the wheel sensor read {read}: a pit boss confirms the "
               "typed number (clears the alarm) or corrects the result before it is paid")
    spin: int
    typed: int
    read: int | None


class NotANumber(Kind):
    english = "{number} is not a number on the wheel (0-36)"
    number: str


class NoPayoutsUnderWay(Kind):
    english = "there are no payouts under way"


class PayoutsOfAnotherSpin(Kind):
    english = "the payouts under way are for spin {spin}, not spin {spin2}"
    spin: int
    spin2: int


class VoidOutOfTurn(Kind):
    english = "a spin is void only between the launch and the confirmed result (PT-A 22)"


class NoVoidToAcknowledge(Kind):
    english = "there is no golpe nulo from the sensor to acknowledge"


class CorrectionReasonMissing(Kind):
    english = "say why the result is corrected"


class SpinNotKept(Kind):
    english = "spin {spin} is not among the last {recent} results the table keeps"
    spin: int
    recent: int


class ResultUnchanged(Kind):
    english = "spin {spin} is already recorded as {number}"
    spin: int
    number: int


# --- the balls -----------------------------------------------------------------------------------------------


class BallBetweenSpins(Kind):
    english = "change the ball between spins, not while it is in play"


class BallNotNamed(Kind):
    english = "name the ball to put in play: {others}"
    others: str


class BallInPlayAlready(Kind):
    english = "ball {ball} is in play already"
    ball: str


class NotABall(Kind):
    english = "{ball2} is not one of the table's balls ({balls})"
    ball2: str
    balls: str


class NotABallReplaced(Kind):
    english = "{previous} is not one of the table's balls ({balls})"
    previous: str
    balls: str


class BallInPlayReplaced(Kind):
    english = "the ball is in play: declare the spin void first (PT-A 22)"


class BallRegistered(Kind):
    english = "ball {ball} is already registered at this table"
    ball: str


class BallDiameterChanged(Kind):
    english = ("ball {previous} is {diameter_mm} mm: its replacement must be the same diameter, not "
               "{diameter_mm2} mm (PT-A 18)")
    previous: str
    diameter_mm: Decimal
    diameter_mm2: Decimal


class BallReasonMissing(Kind):
    english = "say why the ball is replaced (defective, broken, lost)"


class BallWithoutId(Kind):
    english = "a ball needs an id"


class BallDiameter(Kind):
    english = "ball {ball} is {diameter_mm} mm: a ball is {low}-{high} mm across (PT-A 17)"
    ball: str
    diameter_mm: Decimal
    low: Decimal
    high: Decimal


class TwoBallsNeeded(Kind):
    english = "a table has two balls with different ids (PT-A 17)"


class BallNotListed(Kind):
    english = "ball {ball} is not one of the table's balls"
    ball: str


# --- colours, players and chips ------------------------------------------------------------------------------


class ChipsNotWhole(Kind):
    english = "a number of chips is a whole number above 0, not {chips}"
    chips: str


class ColourNotInPlay(Kind):
    english = "{colour} is not in play"
    colour: str


class NotAColour(Kind):
    """`colour2` is the name as given, quoted: no colour of the table."""

    english = "{colour2} is not one of this table's colours ({colours})"
    colour2: str
    colours: str


class NotAColourToAssign(Kind):
    english = "{colour} is not one of this table's colours ({colours})"
    colour: str
    colours: str


class PlayerNotNamed(Kind):
    english = "name the player (a seat or a description will do)"


class PlayerWaitingAlready(Kind):
    english = "{player} is already on the waiting list"
    player: str


class PlayerHasColour(Kind):
    english = "{player} already plays a colour (one colour per player, PT-A 8)"
    player: str


class PlayerNotWaiting(Kind):
    english = "{player} is not on the waiting list"
    player: str


class ColourTaken(Kind):
    english = "{colour} is taken by {player} (one player per colour, PT-A 8); free: {free}"
    colour: str
    player: str
    free: str


class OtherPlayerWaiting(Kind):
    english = "{waiting} is first on the waiting list"
    waiting: str


class CountNotWhole(Kind):
    english = "the chips counted are a whole number, not {chips}"
    chips: str


class ExchangeWithBets(Kind):
    english = "{colour} has bets on the layout: settle or take them back before exchanging its chips"
    colour: str


class InactivityNotApplying(Kind):
    english = "{colour} keeps its colour: the inactivity rule does not apply ({rule})"
    colour: str
    rule: str


class ChipsNotOfTable(Kind):
    english = "{colour} is not one of this table's colours: its chips are not valid here (PT-A 7)"
    colour: str


class ForeignColourNotNamed(Kind):
    english = "name the colour of the chips"


class ForeignTableNotNamed(Kind):
    english = "name the table the chips belong to"


class ForeignIsThisTable(Kind):
    english = "{table} is this table: the chips are not another table's"
    table: str


# --- bets and their payouts ----------------------------------------------------------------------------------


class SensorOnlyTable(Kind):
    english = "this table is driven by the wheel sensor alone: bets are not recorded"


class BettingColourNotInPlay(Kind):
    english = "{colour} is not in play: assign the colour before it bets"
    colour: str


class NoBetGiven(Kind):
    english = "no bet given"


class ChipsShort(Kind):
    english = "{colour} holds {held} chips, not the {total} these bets need"
    colour: str
    held: str  # exactly, halves as 12.5
    total: int


class NoBetsToWithdraw(Kind):
    english = "{colour} has no bets on the layout"
    colour: str


class NoSpinToRebuild(Kind):
    english = "no recorded spin to rebuild"


class NoWinningBets(Kind):
    english = "spin {spin} had no winning bet on record"
    spin: int


class MarkedChipsOfColour(Kind):
    english = "{bet}: value-marked chips are value chips, not {colour}'s"
    bet: str
    colour: str


class NotPaidOn(Kind):
    english = "{colour}: {bet} is not paid on {number}"
    colour: str
    bet: str
    number: int


class PaidChipsNotWhole(Kind):
    english = "{colour}: the chips on {bet} are a whole number above 0, not {chips}"
    colour: str
    bet: str
    chips: str


# --- alarms --------------------------------------------------------------------------------------------------


class NoOpenAlarm(Kind):
    english = "there is no open alarm {alarm}"
    alarm: int


class AlarmAcknowledgedAlready(Kind):
    english = "alarm {alarm} was already acknowledged by {acknowledged_by}"
    alarm: int
    acknowledged_by: str


class AlarmReasonMissing(Kind):
    english = "say why the alarm is cleared"


# --- staff, PINs and relief ----------------------------------------------------------------------------------


class NotRegisteredAs(Kind):
    english = "{name} is not registered as {role}"
    name: str
    role: str


class PitBossNotRelieved(Kind):
    english = "the pit boss is not relieved at the table"


class ReliefMidSpin(Kind):
    english = "the croupier is relieved between spins, not while the ball is in play"


class AlreadyOnDuty(Kind):
    english = "{incoming} is already the {role}"
    incoming: str
    role: str


class ForceMajeureMissing(Kind):
    english = ("{name} stayed longer than {minutes} min: record the force majeure that kept them on, for the "
               "gaming inspectors ({rule})")
    name: str
    minutes: int | None
    rule: str


class NotStaff(Kind):
    english = "{name} is not registered staff at this table"
    name: str


class PinFormat(Kind):
    english = "a PIN is {start} to {stop} digits"
    start: int
    stop: int


class PinNeeded(Kind):
    """`to` is the core's phrase for what is asked, worded through the catalogs."""

    english = "to {to}, a {roles} must give their name and PIN"
    to: str
    roles: str


class RoleNotAllowed(Kind):
    english = "{name} is {role}: only a {roles} may {to}"
    name: str
    role: str
    roles: str
    to: str


class PinNotLocked(Kind):
    english = "the PIN of {name} is neither locked nor delayed"
    name: str


class StaffNotNamed(Kind):
    english = "staff need a name"


class SaltTooShort(Kind):
    english = "a PIN salt is at least {salt} random bytes"
    salt: int


class PitBossFirst(Kind):
    english = "register a pit boss first: only a pit boss registers other staff"



def choice(kind: type[E], value: object, what: str) -> E:
    """`value` as one of the enum `kind`, or a refusal naming `what` is chosen (the core's phrase:
    "a role") and listing the choices."""
    try:
        return kind(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        known = ", ".join(str(member.value) for member in kind)
        raise NotAChoice(value=repr(value), what=what, known=known) from None
