"""The shift timeline: every event as one line, tagged with the croupier at the wheel, the ball in
play and the colours it concerns, so the pit boss can filter by any of them."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, time

from croupier.history.clock import local
from croupier.history.records import Entry
from croupier.i18n import N_, SOURCE_LANGUAGE, _, language
from croupier.rules.names import VALUE_CHIPS
from croupier.rules.wheel import colour as pocket_colour
from croupier.table import events as ev


@dataclass(frozen=True)
class TimelineRow:
    seq: int
    time: datetime
    kind: str
    text: str
    croupier: str | None  # at the wheel when it happened
    ball: str | None  # in play when it happened
    colours: frozenset[str]  # the colour chips it concerns
    spin: int | None  # the game it belongs to


def _number(number: int) -> str:
    return f"{number} {_(COLOURS[pocket_colour(number)])}"


# The words for the values the journal records as codes, in the table's language (the same texts
# as the table screen's, where it has them).
COLOURS = {"red": N_("red"), "black": N_("black"), "green": N_("green")}
CHIP_COLOURS = {  # colour chips as the configuration usually names them; any other name is shown as written
    **COLOURS, "blue": N_("blue"), "yellow": N_("yellow"), "purple": N_("purple"), "orange": N_("orange"),
    "white": N_("white"), "pink": N_("pink"), "brown": N_("brown"), "grey": N_("grey"),
}
SOURCES = {"sensor": N_("sensor"), "keypad": N_("keypad")}
DIRECTIONS = {"clockwise": N_("clockwise"), "anticlockwise": N_("anticlockwise")}
ROLES = {"croupier": N_("croupier"), "inspector": N_("inspector"), "pit-boss": N_("pit boss")}
VOID_REASONS = {
    "chip-fell": N_("A chip fell in the wheel"), "another-ball": N_("Another ball in the wheel"),
    "foreign-object": N_("Foreign object in the wheel"), "ball-left-wheel": N_("The ball left the wheel"),
    "same-direction": N_("Ball and wheel turned the same way"), "too-few-revolutions": N_("Too few ball revolutions"),
    "wheel-stopped": N_("The wheel stopped"), "sensor-fault": N_("Sensor fault"), "chips-scattered": N_("Chips scattered"),
}


def _coded(words: dict[str, str], value) -> str:
    code = getattr(value, "value", value)
    return _(words[code]) if code in words else str(code)


ALARMS = {
    "direction-repeated": N_("Launch direction repeated"), "ball-swap-overdue": N_("Ball swap overdue"),
    "relief-overdue": N_("Croupier relief overdue"), "wheel-fault": N_("Wheel sensor fault"),
    "result-mismatch": N_("Typed result and sensor differ"), "pin-locked": N_("PIN locked after wrong PINs"),
}
CASH_OUTS = {"left": N_("the player left"), "inactive": N_("no bets while players waited"),
             "table-closed": N_("the table closed")}


def _worded(words: dict[str, str], value) -> str:
    """A code the journal records: as it is in English, in words in any other language."""
    code = getattr(value, "value", value)
    return code if language() == SOURCE_LANGUAGE or code not in words else _(words[code])


# The bets a player names in words (the numbers need none), as the table screen names them.
POSITIONS = {
    "red": N_("red"), "black": N_("black"), "even": N_("even"), "odd": N_("odd"), "low": N_("low (1-18)"),
    "high": N_("high (19-36)"), "dozen1": N_("1st dozen"), "dozen2": N_("2nd dozen"), "dozen3": N_("3rd dozen"),
    "column1": N_("1st column"), "column2": N_("2nd column"), "column3": N_("3rd column"),
}


def bet_words(bet: str) -> str:
    """A bet as the journal names it ("17", "red", "dozen1") in English; in words in any other
    language."""
    return _worded(POSITIONS, bet)


def colour_words(name: str) -> str:
    """A colour chip's name (or the value chips') in the table's language; the value chips keep
    their code in English, as the journal names them."""
    if name == VALUE_CHIPS:
        return name if language() == SOURCE_LANGUAGE else _("value chips")
    return _coded(CHIP_COLOURS, name)


def source_words(source) -> str:
    """Who told the table: the wheel sensor or the keypad."""
    return _coded(SOURCES, source)


def role_words(role) -> str:
    """A member of staff's role: its code in English (as the journal names it), its words in any
    other language."""
    return _worded(ROLES, role)


def alarm_words(kind) -> str:
    """An alarm's kind: its code in English (as the journal names it), its words in any other language."""
    return _worded(ALARMS, kind)


def void_words(reason) -> str:
    """Why a spin was void: its code in English (as the journal and the exports name it), its words
    in any other language."""
    return _worded(VOID_REASONS, reason)


def describe(event: ev.Event) -> str:
    """What happened, in the words of the table."""
    match event:
        case ev.TableOpened():
            chips = (_("value chips only") if event.value_only
                     else _("colours {colours}").format(colours=", ".join(map(colour_words, event.colours))))
            if event.marked_values:
                chips += ", " + _("value-marked chips {values}").format(values=", ".join(map(str, event.marked_values)))
            return _("table opened ({profile}, minimum {minimum}) by {by}; croupier {croupier}, ball {ball}, "
                     "{chips}").format(profile=event.profile, minimum=event.minimum, by=event.by,
                                       croupier=event.croupier, ball=event.ball_in_play, chips=chips)
        case ev.TableClosed():
            return _("table closed by {by}").format(by=event.by)
        case ev.LimitsChanged():
            return _("minimum changed {previous} -> {minimum} by {by}: {reason}").format(
                previous=event.previous, minimum=event.minimum, by=event.by, reason=event.reason)
        case ev.ProfileChanged():
            return _("profile changed {previous} -> {profile} by {by}: {reason}").format(
                previous=event.previous, profile=event.profile, by=event.by, reason=event.reason)
        case ev.StaffRegistered():
            return (_("{role} {name} registered by {by}") if event.by else _("{role} {name} registered")).format(
                role=role_words(event.role), name=event.name, by=event.by)
        case ev.StaffRelieved():
            late = " " + _("OVERDUE") + (f" ({event.reason})" if event.reason else "") if event.overdue else ""
            return _("{role} relief: {outgoing} -> {incoming}").format(
                role=role_words(event.role), outgoing=event.outgoing or _("nobody"), incoming=event.incoming) + late
        case ev.AlarmRaised():
            return _("alarm {alarm} raised: {kind} ({subject}) {detail}").format(
                alarm=event.alarm, kind=alarm_words(event.alarm_kind), subject=event.subject, detail=event.detail)
        case ev.AlarmAcknowledged():
            return _("alarm {alarm} acknowledged by {by}").format(alarm=event.alarm, by=event.by)
        case ev.AlarmCleared():
            return _("alarm {alarm} cleared by {by}: {note}").format(alarm=event.alarm, by=event.by, note=event.note)
        case ev.CountdownStarted():
            return _("spin {spin}: betting countdown {seconds} s").format(spin=event.spin, seconds=event.seconds)
        case ev.BallLaunched():
            return _("spin {spin}: ball {ball} launched {direction} by {croupier} ({source})").format(
                spin=event.spin, ball=event.ball, direction=direction_words(event.direction), croupier=event.croupier,
                source=source_words(event.source))
        case ev.BetsClosed():
            return _("spin {spin}: no more bets ({source})").format(spin=event.spin, source=source_words(event.source))
        case ev.ResultEntered():
            return _("spin {spin}: {number} typed by {by}, to confirm").format(
                spin=event.spin, number=event.number, by=event.by)
        case ev.ResultRecorded():
            how = source_words(event.source) + (", " + _("confirmed by {name}").format(name=event.confirmed_by)
                                                if event.confirmed_by else "")
            return _("spin {spin}: result {number} ({how})").format(spin=event.spin, number=_number(event.number),
                                                                    how=how)
        case ev.PayoutsRecorded():
            paid = "; ".join(f"{colour_words(colour)} {_stakes(stakes)}" for colour, stakes in event.stakes.items()) \
                or _("no winner counted")
            return _("spin {spin}: payouts on {number} recorded by {by}: {paid}").format(
                spin=event.spin, number=event.number, by=event.by, paid=paid)
        case ev.PayoutsCompleted():
            return _("spin {spin}: payouts completed by {by}").format(spin=event.spin, by=event.by)
        case ev.SpinVoided():
            back = ", " + _("ball back in {pocket}").format(pocket=event.put_back) if event.put_back is not None else ""
            return _("spin {spin}: VOID ({reason}, {source}) by {by}").format(
                spin=event.spin, reason=void_words(event.reason), source=source_words(event.source), by=event.by) + back
        case ev.VoidAcknowledged():
            return _("spin {spin}: golpe nulo from the sensor acknowledged by {by}").format(spin=event.spin, by=event.by)
        case ev.ResultCorrected():
            return _("spin {spin}: result CORRECTED {previous} -> {number} by {by}: {reason}").format(
                spin=event.spin, previous=event.previous, number=_number(event.number), by=event.by,
                reason=event.reason)
        case ev.WinningBetsRebuilt():
            return _("spin {spin}: winning bets rebuilt by {by} for {colours}").format(
                spin=event.spin, by=event.by, colours=", ".join(map(colour_words, event.stakes)))
        case ev.BetsPlaced():
            return _("spin {spin}: {colour} bets {stakes}").format(spin=event.spin, colour=colour_words(event.colour),
                                                                   stakes=_stakes(event.stakes))
        case ev.BetsWithdrawn():
            return _("spin {spin}: {colour} took its bets back").format(spin=event.spin, colour=colour_words(event.colour))
        case ev.BallSwapped():
            return _("ball swapped {previous} -> {ball} by {by}").format(
                previous=event.previous, ball=event.ball, by=event.by) + (" (" + _("LATE") + ")" if event.late else "")
        case ev.BallReplaced():
            return _("ball {previous} replaced by {ball} ({diameter_mm} mm) by {by}: {reason}").format(
                previous=event.previous, ball=event.ball.id, diameter_mm=event.ball.diameter_mm, by=event.by,
                reason=event.reason)
        case ev.PlayerWaiting():
            return _("{player} waits for a colour").format(player=event.player)
        case ev.PlayerLeftWaitingList():
            return _("{player} left the waiting list").format(player=event.player)
        case ev.ColourAssigned():
            return _("{colour} to {player} at {value} a chip, {chips} chips, by {by}").format(
                colour=colour_words(event.colour), player=event.player, value=event.chip_value, chips=event.chips, by=event.by)
        case ev.ChipsIssued():
            return _("{colour}: {chips} more chips, by {by}").format(colour=colour_words(event.colour), chips=event.chips, by=event.by)
        case ev.ColourCashedOut():
            return _("{colour} cashed out by {player} ({reason}): {chips} chips counted for {expected} on record, "
                     "{amount}").format(colour=colour_words(event.colour), player=event.player, reason=_worded(CASH_OUTS, event.reason),
                                        chips=event.chips, expected=event.expected_chips, amount=event.amount)
        case ev.LateChipsExchanged():
            return _("{colour}: {chips} late chips at {value}, {amount}").format(
                colour=colour_words(event.colour), chips=event.chips, value=event.chip_value, amount=event.amount)
        case ev.ForeignChipsSettled():
            if not event.won:
                return _("{colour} chips of table {table} lost: {chips} taken by {by} ({rule})").format(
                    colour=colour_words(event.colour), table=event.table, chips=event.chips, by=event.by, rule=event.rule)
            paid_at = event.chip_value if event.chip_value is not None else _(
                "{minimum}, their table's minimum").format(minimum=event.table_minimum)
            return _("{colour} chips of table {table} won: {chips} paid at {paid_at}, {amount}, by {by} "
                     "({rule})").format(colour=colour_words(event.colour), table=event.table, chips=event.chips, paid_at=paid_at,
                                        amount=event.amount, by=event.by, rule=event.rule)
    return event.kind


def direction_words(direction) -> str:
    """A launch's rotor direction, or that the wheel did not report it (the `line` protocol)."""
    return _coded(DIRECTIONS, direction) if direction is not None else _("direction not reported")


def _stakes(stakes) -> str:
    return ", ".join(f"{bet_words(s.bet)} x{s.chips}" + (" " + _("(value-marked)") if s.marked else "")
                     for s in stakes)


def _colours(event: ev.Event) -> frozenset[str]:
    colour = getattr(event, "colour", None)
    if colour is not None:
        return frozenset({colour})
    if isinstance(event, (ev.ResultRecorded, ev.ResultCorrected, ev.PayoutsRecorded)):
        return frozenset(outcome.colour for outcome in event.outcomes)
    if isinstance(event, ev.WinningBetsRebuilt):
        return frozenset(event.stakes)
    return frozenset()


def timeline(entries: Iterable[Entry]) -> list[TimelineRow]:
    """One row per event, in journal order."""
    rows = []
    croupier = ball = None
    for entry in entries:
        event = entry.event
        if isinstance(event, ev.TableOpened):
            croupier, ball = event.croupier, event.ball_in_play
        elif isinstance(event, ev.StaffRelieved) and event.role is ev.Role.CROUPIER:
            croupier = event.incoming
        elif isinstance(event, ev.BallSwapped):
            ball = event.ball
        elif isinstance(event, ev.BallReplaced) and ball == event.previous:
            ball = event.ball.id
        rows.append(TimelineRow(entry.seq, event.time, event.kind, describe(event),
                                getattr(event, "croupier", None) or croupier,
                                getattr(event, "ball", None) if isinstance(getattr(event, "ball", None), str) else ball,
                                _colours(event), getattr(event, "spin", None)))
        if isinstance(event, ev.TableClosed):
            croupier = None
    return rows


KEYS = ("kind", "type", "croupier", "ball", "colour", "color", "from", "to")


@dataclass(frozen=True)
class TimelineFilter:
    """What the pit boss asked to see; empty fields match everything. Times are clock times in the
    table's time zone, both ends included (`until` 18:36 takes in 18:36:59)."""

    kinds: frozenset[str] = field(default_factory=frozenset)
    croupier: str | None = None
    ball: str | None = None
    colour: str | None = None
    since: time | None = None
    until: time | None = None

    def matches(self, row: TimelineRow) -> bool:
        if self.kinds and row.kind not in self.kinds:
            return False
        if self.croupier and (row.croupier or "").lower() != self.croupier.lower():
            return False
        if self.ball and (row.ball or "").lower() != self.ball.lower():
            return False
        if self.colour and self.colour.lower() not in {c.lower() for c in row.colours}:
            return False
        clock = local(row.time).time()
        if self.since and clock < self.since:
            return False
        # `to:18:36` takes in 18:36:59 too: a clock time names its whole minute (or second).
        if self.until and clock.replace(microsecond=0, second=clock.second if self.until.second else 0) > self.until:
            return False
        return True


FILTER_WORD = re.compile(r"(\S+?):(.*?)(?=\s+\S+?:|\s*$)")  # key:value, a value running to the next key:


def parse_filter(text: str) -> TimelineFilter:
    """A filter from words like `kind:spin-voided croupier:Ana Maria ball:B2 colour:red from:21:00 to:22:30`
    (a value may hold spaces: it runs to the next key).

    Raises ValueError naming the word it cannot read."""
    kinds: set[str] = set()
    fields: dict[str, object] = {}
    text = text.strip()
    position = 0
    while position < len(text):
        found = FILTER_WORD.match(text, position)
        if found is None or found.group(1).lower() not in KEYS or not found.group(2).strip():
            word = text[position:].split()[0]
            key = word.partition(":")[0].lower()
            if ":" in word and word.partition(":")[2] and key not in KEYS:
                raise ValueError(f"{word!r}: unknown filter {key!r}; use kind, croupier, ball, colour, from, to")
            raise ValueError(f"{word!r}: write filters as key:value (kind, croupier, ball, colour, from, to)")
        key, value = found.group(1).lower(), found.group(2).strip()
        word = found.group(0).strip()
        position = found.end()
        while position < len(text) and text[position].isspace():
            position += 1
        if key in ("kind", "type"):
            unknown = [k for k in value.split(",") if k not in ev.EVENT_TYPES]
            if unknown:
                raise ValueError(f"{unknown[0]!r} is not an event type; known: {', '.join(sorted(ev.EVENT_TYPES))}")
            kinds.update(value.split(","))
        elif key in ("croupier", "ball", "colour", "color"):
            fields["colour" if key == "color" else key] = value
        else:
            try:
                fields["since" if key == "from" else "until"] = time.fromisoformat(value)
            except ValueError:
                raise ValueError(f"{word!r}: {value!r} is not a clock time like 21:30") from None
    return TimelineFilter(kinds=frozenset(kinds), **fields)
