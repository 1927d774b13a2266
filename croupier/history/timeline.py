"""The shift timeline: every event as one line, tagged with the croupier at the wheel, the ball in
play and the colours it concerns, so the pit boss can filter by any of them."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from datetime import datetime, time

from croupier.history.clock import local, stamp
from croupier.history.records import Entry
from croupier.history.words import (alarm_answer_words, alarm_detail_words, alarm_subject_words, alarm_words,
                                    bet_words, cash_out_words, colour_words, direction_words, plural_of, pocket_words,
                                    role_words, source_words, void_words)
from croupier.i18n import _, ngettext
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
    return f"{number} {pocket_words(pocket_colour(number))}"


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
        case ev.SignChanged():
            sign = "; ".join(f"{key} {amount}" for key, amount in sorted(event.sign.items()))
            return _("table sign changed by {by}: {sign} ({reason})").format(
                by=event.by, sign=sign or _("the profile's caps"), reason=event.reason)
        case ev.FloorAnchored():
            return _("floor receipt: the floor holds this table's events up to {seq}, as of {time}").format(
                seq=event.seq, time=stamp(event.anchored_at))
        case ev.ProfileChanged():
            return _("profile changed {previous} -> {profile} by {by}: {reason}").format(
                previous=event.previous, profile=event.profile, by=event.by, reason=event.reason)
        case ev.ContextChanged():
            changes = [_("currency {previous} -> {new}").format(previous=event.previous_currency or "-",
                                                                new=event.currency)] if event.currency else []
            if event.time_zone:
                changes.append(_("time zone {previous} -> {new}").format(previous=event.previous_time_zone or "-",
                                                                         new=event.time_zone))
            return _("{changes} by {by}: {reason}").format(changes=", ".join(changes), by=event.by,
                                                           reason=event.reason)
        case ev.StaffRegistered():
            return (_("{role} {name} registered by {by}") if event.by else _("{role} {name} registered")).format(
                role=role_words(event.role), name=event.name, by=event.by)
        case ev.StaffRelieved():
            late = " " + _("OVERDUE") + (f" ({event.reason})" if event.reason else "") if event.overdue else ""
            return _("{role} relief: {outgoing} -> {incoming}").format(
                role=role_words(event.role), outgoing=event.outgoing or _("nobody"), incoming=event.incoming) + late
        case ev.PinRefused():
            if event.unchecked:
                return _("a PIN typed for {name} while it waits: not checked").format(name=event.name)
            if event.locked:
                return _("wrong PIN for {name} ({failures} in a row): locked for {minutes} min").format(
                    name=event.name, failures=event.failures, minutes=event.wait_seconds // 60)
            if event.wait_seconds:
                return _("wrong PIN for {name} ({failures} in a row): not checked again for {seconds} s").format(
                    name=event.name, failures=event.failures, seconds=event.wait_seconds)
            return _("wrong PIN for {name} ({failures} in a row)").format(name=event.name, failures=event.failures)
        case ev.PinUnlocked():
            return _("the PIN of {name} unlocked at the console by {operator}").format(
                name=event.name, operator=event.operator)
        case ev.AlarmRaised():
            return _("alarm {alarm} raised: {kind} ({subject}) {detail}").format(
                alarm=event.alarm, kind=alarm_words(event.alarm_kind),
                subject=alarm_subject_words(event.facts, event.subject),
                detail=alarm_detail_words(event.alarm_kind, event.facts, event.detail))
        case ev.ClockChecked():
            answer = {True: _("yes"), False: _("no"), None: _("cannot be told")}
            return _("clock at start: synchronised with a time server: {synced}; battery clock: {rtc}").format(
                synced=answer[event.synchronised], rtc=answer[event.rtc])
        case ev.AlarmAcknowledged():
            return _("alarm {alarm} acknowledged by {by}").format(alarm=event.alarm, by=event.by)
        case ev.AlarmCleared() if event.answer is not None:  # ended by the procedure that answered it
            return _("alarm {alarm}: {answer}").format(alarm=event.alarm, answer=alarm_answer_words(event))
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
            return _("spin {spin}: golpe nulo from the sensor acknowledged by {by}").format(
                spin=event.spin, by=event.by)
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
            return _("spin {spin}: {colour} took its bets back").format(
                spin=event.spin, colour=colour_words(event.colour))
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
            return ngettext("{colour} to {player} at {value} a chip, {chips} chip, by {by}",
                            "{colour} to {player} at {value} a chip, {chips} chips, by {by}", event.chips).format(
                colour=colour_words(event.colour), player=event.player, value=event.chip_value, chips=event.chips,
                by=event.by)
        case ev.ChipsIssued():
            return ngettext("{colour}: {chips} more chip, by {by}", "{colour}: {chips} more chips, by {by}",
                            event.chips).format(
                colour=colour_words(event.colour), chips=event.chips, by=event.by)
        case ev.ColourCashedOut():
            return ngettext("{colour} cashed out by {player} ({reason}): {chips} chip counted for {expected} on "
                            "record, {amount}", "{colour} cashed out by {player} ({reason}): {chips} chips counted for "
                            "{expected} on record, {amount}", plural_of(event.chips)).format(
                colour=colour_words(event.colour), player=event.player, reason=cash_out_words(event.reason),
                chips=event.chips, expected=event.expected_chips, amount=event.amount)
        case ev.LateChipsExchanged():
            return ngettext("{colour}: {chips} late chip at {value}, {amount}",
                            "{colour}: {chips} late chips at {value}, {amount}", event.chips).format(
                colour=colour_words(event.colour), chips=event.chips, value=event.chip_value, amount=event.amount)
        case ev.ForeignChipsSettled():
            colour = colour_words(event.colour)
            if not event.won:
                return _("{colour} chips of table {table} lost: {chips} taken by {by} ({rule})").format(
                    colour=colour, table=event.table, chips=event.chips, by=event.by, rule=event.rule)
            paid_at = event.chip_value if event.chip_value is not None else _(
                "{minimum}, their table's minimum").format(minimum=event.table_minimum)
            return _("{colour} chips of table {table} won: {chips} paid at {paid_at}, {amount}, by {by} "
                     "({rule})").format(colour=colour, table=event.table, chips=event.chips, paid_at=paid_at,
                                        amount=event.amount, by=event.by, rule=event.rule)
    return event.kind


# Events the timeline shows by their kind alone, on purpose: none today. A new event class is
# described in `describe` (and in every catalog) or named here; a test holds every class to one.
SILENT: frozenset[type[ev.Event]] = frozenset()


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
    """One row per event, in journal order. A result a correction replaced says so on its own row,
    so a filter that shows the result but not the correction does not show it as standing."""
    entries = list(entries)
    corrections = {entry.event.spin: entry.event for entry in entries if isinstance(entry.event, ev.ResultCorrected)}
    rows = []
    croupier = ball = None
    for entry in entries:
        event = entry.event
        text = describe(event)
        if isinstance(event, ev.ResultRecorded) and event.spin in corrections:
            correction = corrections[event.spin]
            text += " " + _("- CORRECTED to {number} by {by}").format(number=_number(correction.number),
                                                                    by=correction.by)
        if isinstance(event, ev.TableOpened):
            croupier, ball = event.croupier, event.ball_in_play
        elif isinstance(event, ev.StaffRelieved) and event.role is ev.Role.CROUPIER:
            croupier = event.incoming
        elif isinstance(event, ev.BallSwapped):
            ball = event.ball
        elif isinstance(event, ev.BallReplaced) and ball == event.previous:
            ball = event.ball.id
        rows.append(TimelineRow(entry.seq, event.time, event.kind, text,
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
    fields: dict[str, Any] = {}
    text = text.strip()
    position = 0
    while position < len(text):
        found = FILTER_WORD.match(text, position)
        if found is None or found.group(1).lower() not in KEYS or not found.group(2).strip():
            word = text[position:].split()[0]
            key = word.partition(":")[0].lower()
            if ":" in word and word.partition(":")[2] and key not in KEYS:
                raise ValueError(_("{word}: unknown filter {key}; use kind, croupier, ball, colour, from, to").format(
                    word=repr(word), key=repr(key)))
            raise ValueError(_("{word}: write filters as key:value (kind, croupier, ball, colour, from, to)").format(
                word=repr(word)))
        key, value = found.group(1).lower(), found.group(2).strip()
        word = found.group(0).strip()
        position = found.end()
        while position < len(text) and text[position].isspace():
            position += 1
        if key in ("kind", "type"):
            unknown = [k for k in value.split(",") if k not in ev.EVENT_TYPES]
            if unknown:
                raise ValueError(_("{kind} is not an event type; known: {known}").format(
                    kind=repr(unknown[0]), known=", ".join(sorted(ev.EVENT_TYPES))))
            kinds.update(value.split(","))
        elif key in ("croupier", "ball", "colour", "color"):
            fields["colour" if key == "color" else key] = value
        else:
            try:
                fields["since" if key == "from" else "until"] = time.fromisoformat(value)
            except ValueError:
                raise ValueError(_("{word}: {value} is not a clock time like 21:30").format(
                    word=repr(word), value=repr(value))) from None
    return TimelineFilter(kinds=frozenset(kinds), **fields)
