"""The words for what the journal records as codes (colours, sources, directions, roles, void
reasons, alarms, bets), in the language installed (croupier.i18n), for every projection's text.

In English a code the journal names itself ("chip-fell", "pit-boss") stays as the journal and the
exports write it; in any other language it is worded with the table screen's own texts. An alarm's
detail is worded from the facts it was recorded with; one naming moments (a clock jump) in English
too, its moments in the reader's time zone as every other time it shows."""
from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from croupier.history.clock import stamp
from croupier.i18n import N_, SOURCE_LANGUAGE, _, formats, language, ngettext
from croupier.rules.limits import OUTCOMES, REASONS, LimitOutcome, LimitReason
from croupier.rules.names import VALUE_CHIPS
from croupier.rules.spin import VoidReason
from croupier.table.events import AlarmAcknowledged, AlarmAnswer, AlarmCleared, AlarmKind, CashOutReason

COLOURS = {"red": N_("red"), "black": N_("black"), "green": N_("green")}
CHIP_COLOURS = {  # colour chips as the configuration usually names them; any other name is shown as written
    **COLOURS, "blue": N_("blue"), "yellow": N_("yellow"), "purple": N_("purple"), "orange": N_("orange"),
    "white": N_("white"), "pink": N_("pink"), "brown": N_("brown"), "grey": N_("grey"),
}
SOURCES = {"sensor": N_("sensor"), "keypad": N_("keypad")}
DIRECTIONS = {"clockwise": N_("clockwise"), "anticlockwise": N_("anticlockwise")}
ROLES = {"croupier": N_("croupier"), "inspector": N_("inspector"), "pit-boss": N_("pit boss")}
VOID_REASONS = {
    VoidReason.CHIP_FELL: N_("A chip fell in the wheel"), VoidReason.ANOTHER_BALL: N_("Another ball in the wheel"),
    VoidReason.FOREIGN_OBJECT: N_("Foreign object in the wheel"), VoidReason.BALL_LEFT_WHEEL: N_("The ball left the wheel"),
    VoidReason.SAME_DIRECTION: N_("Ball and wheel turned the same way"), VoidReason.TOO_FEW_REVOLUTIONS: N_("Too few ball revolutions"),
    VoidReason.WHEEL_STOPPED: N_("The wheel stopped"), VoidReason.SENSOR_FAULT: N_("Sensor fault"), VoidReason.CHIPS_SCATTERED: N_("Chips scattered"),
}
ALARMS = {
    AlarmKind.DIRECTION_REPEATED: N_("Launch direction repeated"), AlarmKind.BALL_SWAP_OVERDUE: N_("Ball swap overdue"),
    AlarmKind.RELIEF_OVERDUE: N_("Croupier relief overdue"), AlarmKind.WHEEL_FAULT: N_("Wheel sensor fault"),
    AlarmKind.RESULT_MISMATCH: N_("Typed result and sensor differ"), AlarmKind.PIN_LOCKED: N_("PIN locked after wrong PINs"),
    AlarmKind.CLOCK_JUMPED: N_("System clock jumped"),
    AlarmKind.FLOOR_RECEIPT: N_("Floor receipt refused"),
    AlarmKind.PAYOUTS_UNRECORDED: N_("Payouts not recorded"),
}
# Kinds of bet as the table sign lists them; the announced ones by their position's name.
BET_KINDS = {
    "plein": N_("Plein"), "split": N_("Split"), "street": N_("Street"), "corner": N_("Corner"), "line": N_("Line"),
    "dozen": N_("Dozen"), "column": N_("Column"), "two-dozens": N_("Two dozens"), "two-columns": N_("Two columns"),
    "simple": N_("Simple chances"), "neighbours": N_("Neighbours"), "total": N_("Series and neighbours together"),
}
# The reasons the table's menus offer for a limit change and a correction: recorded in the table's
# language; one recorded in English is shown in the reader's, any other as recorded.
LIMIT_REASONS = (N_("management decision"), N_("busy table"), N_("quiet table"))
SENSOR_MISREAD = N_("sensor misread the pocket")  # offered only where a sensor reads the wheel
CORRECTION_REASONS = (N_("wrong number typed"), SENSOR_MISREAD, N_("ball jumped after the reading"))
CASH_OUTS = {CashOutReason.LEFT: N_("the player left"),
             CashOutReason.INACTIVE: N_("no bets while players waited"),
             CashOutReason.TABLE_CLOSED: N_("the table closed")}
# The bets in words (the numbers need none), as the table screen names them.
POSITIONS = {
    "red": N_("red"), "black": N_("black"), "even": N_("even"), "odd": N_("odd"),
    "low": N_("low (1-18)"), "high": N_("high (19-36)"),
    "dozen1": N_("1st dozen"), "dozen2": N_("2nd dozen"), "dozen3": N_("3rd dozen"),
    "column1": N_("1st column"), "column2": N_("2nd column"), "column3": N_("3rd column"),
    "dozen1+2": N_("dozens 1+2"), "dozen2+3": N_("dozens 2+3"),
    "column1+2": N_("columns 1+2"), "column2+3": N_("columns 2+3"),
    "voisins": N_("voisins du zéro"), "tiers": N_("tiers du cylindre"), "orphelins": N_("orphelins"),
    "zero-spiel": N_("jeu zéro"), "nassa": N_("nassa"),
}


def _code(value) -> str:
    return getattr(value, "value", value)


def _coded(words: Mapping[Any, str], value) -> str:
    """A code in words in every language, English included."""
    code = _code(value)
    return _(words[code]) if code in words else str(code)


def _worded(words: Mapping[Any, str], value) -> str:
    """A code the journal records: as it is in English, in words in any other language."""
    code = _code(value)
    return code if language() == SOURCE_LANGUAGE or code not in words else _(words[code])


def pocket_words(colour: str) -> str:
    """A pocket's colour: red, black or green."""
    return _coded(COLOURS, colour)


def colour_words(name: str) -> str:
    """A colour chip's name (or the value chips') in the table's language; the value chips keep
    their code in English, as the journal names them."""
    if name == VALUE_CHIPS:
        return name if language() == SOURCE_LANGUAGE else _("value chips")
    return _coded(CHIP_COLOURS, name)


def source_words(source) -> str:
    """Who told the table: the wheel sensor or the keypad."""
    return _coded(SOURCES, source)


def direction_words(direction) -> str:
    """A launch's rotor direction, or that the wheel did not report it (the `line` protocol)."""
    return _coded(DIRECTIONS, direction) if direction is not None else _("direction not reported")


def bet_words(bet: str) -> str:
    """A bet as the journal names it ("17", "red", "dozen1")."""
    return _worded(POSITIONS, bet)


def role_words(role) -> str:
    return _worded(ROLES, role)


def plural_of(count) -> int:
    """The number a chip count's plural is chosen by (ngettext's n): a half counts as more than one."""
    number = Fraction(str(count))
    return int(number) if number.denominator == 1 else 2


def chips_words(count) -> str:
    """`count` chips ("35", "1/2", 2.5 or a Fraction), with the plural its number takes."""
    count = Fraction(str(count))
    return ngettext("{count} chip", "{count} chips", plural_of(count)).format(count=formats.chips(count))


def reason_words(reason: str) -> str:
    """A recorded reason: one the menus offer in the table's language, another as it was typed."""
    return _(reason) if reason in LIMIT_REASONS or reason in CORRECTION_REASONS else reason


def alarm_words(kind) -> str:
    return _worded(ALARMS, kind)


def void_words(reason) -> str:
    return _worded(VOID_REASONS, reason)


def put_back_words(pocket: int | None) -> str:
    """The pocket the ball goes back to after a golpe nulo (`PT-A 22`): the previous result's; a
    journal's first spin has none."""
    return _("no earlier result") if pocket is None else str(pocket)


def cash_out_words(reason) -> str:
    return _worded(CASH_OUTS, reason)


def alarm_detail_words(kind: AlarmKind | str, facts, detail: str, *, from_facts: bool = False) -> str:
    """What an alarm is about: in English the record's own words but for a clock jump's, which name
    moments in UTC (`from_facts`: worded from its facts as in any language, as the table screen
    does); in another language worded from its facts (`AlarmFacts`, None for an alarm recorded
    without them), else only the rule the record cites.
    `kind`: the alarm's kind, or its code as a report's plain rows hold it."""
    kind = AlarmKind(kind)
    # The record writes a moment in UTC as ISO 8601 does: worded from the facts instead, English too,
    # each moment in the reader's language and time zone as its other times.
    timed = facts is not None and kind is AlarmKind.CLOCK_JUMPED and facts.wall_clock and facts.table_clock
    if language() == SOURCE_LANGUAGE and not from_facts and not timed:
        return detail
    if facts is not None and kind is AlarmKind.RELIEF_OVERDUE:
        return _("{name} has been {role} for more than {minutes} min ({rule})").format(
            name=facts.name, role=_coded(ROLES, facts.role), minutes=facts.minutes, rule=facts.rule)
    if facts is not None and kind is AlarmKind.BALL_SWAP_OVERDUE:
        return _("Ball {ball} has been in play for more than {minutes} min: change and announce it ({rule})").format(
            ball=facts.ball, minutes=facts.minutes, rule=facts.rule)
    if facts is not None and kind is AlarmKind.DIRECTION_REPEATED:
        direction = direction_words(facts.direction) if facts.direction is not None else "?"
        repeated = (_("Ball launched {direction} twice in a row: the launch alternates ({rule})").format(
            direction=direction, rule=facts.rule) if facts.rule else
            _("Ball launched {direction} twice in a row: the house alternates the launch").format(direction=direction))
        if facts.wheel_restarted:
            return repeated + " " + _("The wheel was powered down and up since the last launch: the repeat is the wheel's.")
        return repeated
    if facts is not None and kind is AlarmKind.RESULT_MISMATCH:
        return _("Spin {spin} was typed as {typed}; the wheel sensor read {read}: the pit boss corrects the result "
                 "if the sensor is right").format(spin=facts.spin, typed=facts.typed, read=facts.read)
    if facts is not None and kind is AlarmKind.PIN_LOCKED and facts.minutes is not None:
        return _("Wrong PINs in a row for {name}: the PIN is locked for {minutes} min, or until a pit boss clears "
                 "this alarm or it is unlocked at the console").format(name=facts.name, minutes=facts.minutes)
    if timed:
        jumped = (_("The system clock jumped back: it read {wall} when the table's clock read {table}; the table "
                    "keeps its own time") if facts.wall_clock < facts.table_clock else
                  _("The system clock jumped forward: it read {wall} when the table's clock read {table}; the table "
                    "keeps its own time"))
        return jumped.format(wall=stamp(facts.wall_clock), table=stamp(facts.table_clock))
    if facts is not None and kind is AlarmKind.PIN_LOCKED:
        return _("Wrong PINs in a row for {name}: the PIN is locked until a pit boss clears this alarm").format(
            name=facts.name)
    if facts is not None and kind is AlarmKind.WHEEL_FAULT and facts.first_state_five is not None:
        return _("The wheel gave two numbers for spin {spin} on its state-5 lines: {first}, then {five}; neither was "
                 "recorded: type the number the ball is in").format(
            spin=facts.spin, first=facts.first_state_five, five="--" if facts.state_five is None else facts.state_five)
    if facts is not None and kind is AlarmKind.WHEEL_FAULT and facts.number_line is not None:
        return _("The wheel gave two numbers for spin {spin}: {line} on its winning-number line, {five} on its "
                 "state-5 line; neither was recorded: type the number the ball is in").format(
            spin=facts.spin, line=facts.number_line, five="--" if facts.state_five is None else facts.state_five)
    if facts is not None and kind is AlarmKind.WHEEL_FAULT and facts.link is not None:
        return _link_words(facts.link, facts.seconds)
    if facts is not None and kind is AlarmKind.WHEEL_FAULT and facts.spin is not None:
        return _("The wheel launched again before spin {spin} had a result: none was recorded for that launch").format(
            spin=facts.spin)
    if facts is not None and kind is AlarmKind.PAYOUTS_UNRECORDED and facts.spin is not None:
        return _("The wheel gave the next result before the payouts of spin {spin} were recorded: the pit boss "
                 "checks what was paid on it").format(spin=facts.spin)
    if language() == SOURCE_LANGUAGE:
        return detail
    cited = re.search(r"\(([^()]*)\)\s*$", detail)
    return cited.group(1) if cited else ""


def alarm_answer_words(event: AlarmAcknowledged | AlarmCleared) -> str:
    """How the table took up or ended one of its alarms, as the floor says it: the procedure that
    answered it (relief, ball swap, correction), a pit boss's clearing, or an acknowledgement."""
    if isinstance(event, AlarmAcknowledged):
        return _("acknowledged at the table by {name}").format(name=event.by)
    if event.answer is AlarmAnswer.RELIEF:
        return _("ended at the table: relief done by {name}").format(name=event.by)
    if event.answer is AlarmAnswer.BALL_SWAP:
        return _("ended at the table: ball swapped by {name}").format(name=event.by)
    if event.answer is AlarmAnswer.PIN_UNLOCKED:
        return _("ended at the table: PIN unlocked at the console by {name}").format(name=event.by)
    if event.answer is AlarmAnswer.CORRECTION:
        return _("ended at the table: result corrected by {name}: {reason}").format(
            name=event.by, reason=reason_words(event.note))
    return _("cleared at the table by {name}: {note}").format(name=event.by, note=event.note)


def _link_words(link: str, seconds: int | None) -> str:
    """Why the wheel sensor's link is down, and that the keypad takes over."""
    if link == "silent" and seconds is not None:
        why = _("nothing from the wheel for {seconds} s: check its cable and power").format(seconds=seconds)
    elif link == "noise" and seconds is not None:
        why = _("only noise from the wheel for {seconds} s: check the link's speed against the wheel's").format(
            seconds=seconds)
    elif link in ("lost", "cannot-open"):
        why = _("the wheel's serial port is gone or cannot be opened: check its cable")
    else:
        why = _("the wheel sensor's link is down")
    return _("{why}; type the results at the keypad meanwhile").format(why=why)


def alarm_subject_words(facts, subject: str) -> str:
    """Whom or what an alarm is about: in English the record's own words; in another language the
    member of staff, ball or spin its facts name."""
    if language() == SOURCE_LANGUAGE or facts is None:
        return subject
    if facts.wall_clock is not None:
        return _("system clock")
    if facts.link is not None:
        return _("wheel sensor link")
    if facts.name is not None:
        return facts.name
    if facts.ball is not None:
        return _("ball {ball}").format(ball=facts.ball)
    if facts.spin is not None:
        return _("spin {spin}").format(spin=facts.spin)
    return subject


# The facts of a limit's note that are money; the others are chips, names and positions.
LIMIT_AMOUNTS = frozenset({"amount", "maximum", "least", "held"})


def limit_facts(cut) -> dict:
    """A recorded LimitCut's facts, its amounts as decimals again."""
    from decimal import Decimal

    return {key: Decimal(value) if key in LIMIT_AMOUNTS else value for key, value in cut.facts.items()}


def limit_words(reason: LimitReason, outcome: LimitOutcome, facts: dict) -> str:
    """Why the limits refused or cut down a bet and what became of it, from facts already worded."""
    return _("{bet}: {reason}; {outcome}").format(bet=facts["bet"], reason=_(REASONS[reason]).format(**facts),
                                                  outcome=_(OUTCOMES[outcome]).format(**facts))


def limit_cut_words(cut, currency: str | None = None) -> str:
    """A recorded LimitCut for the review and the papers: "red: 17: the plein maximum is ...", with its rule."""
    facts = {}
    for key, value in limit_facts(cut).items():
        if key in LIMIT_AMOUNTS:
            value = formats.money(value, currency)
        elif key in ("position", "bet"):
            value = bet_words(value)
        elif key in ("kind", "series"):
            value = (_(BET_KINDS[value]).lower() if value in BET_KINDS else
                     _(POSITIONS[value]) if value in POSITIONS else value)
        facts[key] = value
    return f"{colour_words(cut.colour)}: {limit_words(cut.reason, cut.outcome, facts)} ({cut.rule})"
