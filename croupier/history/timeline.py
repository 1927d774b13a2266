"""The shift timeline: every event as one line, tagged with the croupier at the wheel, the ball in
play and the colours it concerns, so the pit boss can filter by any of them."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, time

from croupier.history.clock import local
from croupier.history.records import Entry
from croupier.rules.wheel import colour as pocket_colour
from croupier.table import events as ev
from croupier.i18n import _


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
    return f"{number} {pocket_colour(number)}"


def describe(event: ev.Event) -> str:
    """What happened, in the words of the table."""
    match event:
        case ev.TableOpened():
            chips = ("value chips only" if event.value_only else f"colours {', '.join(event.colours)}") + (
                f", value-marked chips {', '.join(map(str, event.marked_values))}" if event.marked_values else "")
            return (f"table opened ({event.profile}, minimum {event.minimum}) by {event.by}; croupier "
                    f"{event.croupier}, ball {event.ball_in_play}, {chips}")
        case ev.TableClosed():
            return f"table closed by {event.by}"
        case ev.LimitsChanged():
            return f"minimum changed {event.previous} -> {event.minimum} by {event.by}: {event.reason}"
        case ev.ProfileChanged():
            return f"profile changed {event.previous} -> {event.profile} by {event.by}: {event.reason}"
        case ev.StaffRegistered():
            return f"{event.role.value} {event.name} registered" + (f" by {event.by}" if event.by else "")
        case ev.StaffRelieved():
            late = " OVERDUE" + (f" ({event.reason})" if event.reason else "") if event.overdue else ""
            return f"{event.role.value} relief: {event.outgoing or 'nobody'} -> {event.incoming}{late}"
        case ev.AlarmRaised():
            return f"alarm {event.alarm} raised: {event.alarm_kind.value} ({event.subject}) {event.detail}"
        case ev.AlarmAcknowledged():
            return f"alarm {event.alarm} acknowledged by {event.by}"
        case ev.AlarmCleared():
            return f"alarm {event.alarm} cleared by {event.by}: {event.note}"
        case ev.CountdownStarted():
            return f"spin {event.spin}: betting countdown {event.seconds} s"
        case ev.BallLaunched():
            return (f"spin {event.spin}: ball {event.ball} launched {direction_words(event.direction)} by {event.croupier} "
                    f"({event.source.value})")
        case ev.BetsClosed():
            return f"spin {event.spin}: no more bets ({event.source.value})"
        case ev.ResultEntered():
            return f"spin {event.spin}: {event.number} typed by {event.by}, to confirm"
        case ev.ResultRecorded():
            confirmed = f", confirmed by {event.confirmed_by}" if event.confirmed_by else ""
            return f"spin {event.spin}: result {_number(event.number)} ({event.source.value}{confirmed})"
        case ev.PayoutsRecorded():
            paid = "; ".join(f"{colour} {_stakes(stakes)}" for colour, stakes in event.stakes.items()) \
                or "no winner counted"
            return f"spin {event.spin}: payouts on {event.number} recorded by {event.by}: {paid}"
        case ev.PayoutsCompleted():
            return f"spin {event.spin}: payouts completed by {event.by}"
        case ev.SpinVoided():
            back = f", ball back in {event.put_back}" if event.put_back is not None else ""
            return f"spin {event.spin}: VOID ({event.reason.value}, {event.source.value}) by {event.by}{back}"
        case ev.VoidAcknowledged():
            return f"spin {event.spin}: golpe nulo from the sensor acknowledged by {event.by}"
        case ev.ResultCorrected():
            return (f"spin {event.spin}: result CORRECTED {event.previous} -> {_number(event.number)} "
                    f"by {event.by}: {event.reason}")
        case ev.WinningBetsRebuilt():
            return f"spin {event.spin}: winning bets rebuilt by {event.by} for {', '.join(event.stakes)}"
        case ev.BetsPlaced():
            return f"spin {event.spin}: {event.colour} bets {_stakes(event.stakes)}"
        case ev.BetsWithdrawn():
            return f"spin {event.spin}: {event.colour} took its bets back"
        case ev.BallSwapped():
            return f"ball swapped {event.previous} -> {event.ball} by {event.by}" + (" (LATE)" if event.late else "")
        case ev.BallReplaced():
            return (f"ball {event.previous} replaced by {event.ball.id} ({event.ball.diameter_mm} mm) by "
                    f"{event.by}: {event.reason}")
        case ev.PlayerWaiting():
            return f"{event.player} waits for a colour"
        case ev.PlayerLeftWaitingList():
            return f"{event.player} left the waiting list"
        case ev.ColourAssigned():
            return f"{event.colour} to {event.player} at {event.chip_value} a chip, {event.chips} chips, by {event.by}"
        case ev.ChipsIssued():
            return f"{event.colour}: {event.chips} more chips, by {event.by}"
        case ev.ColourCashedOut():
            return (f"{event.colour} cashed out by {event.player} ({event.reason.value}): {event.chips} chips "
                    f"counted for {event.expected_chips} on record, {event.amount}")
        case ev.LateChipsExchanged():
            return f"{event.colour}: {event.chips} late chips at {event.chip_value}, {event.amount}"
        case ev.ForeignChipsSettled():
            if not event.won:
                return f"{event.colour} chips of table {event.table} lost: {event.chips} taken by {event.by} ({event.rule})"
            paid_at = event.chip_value if event.chip_value is not None else f"{event.table_minimum}, their table's minimum"
            return (f"{event.colour} chips of table {event.table} won: {event.chips} paid at {paid_at}, {event.amount}, "
                    f"by {event.by} ({event.rule})")
    return event.kind


def direction_words(direction) -> str:
    """A launch's rotor direction, or that the wheel did not report it (the `line` protocol)."""
    return direction.value if direction is not None else "direction not reported"


def _stakes(stakes) -> str:
    return ", ".join(f"{s.bet} x{s.chips}" + (" (value-marked)" if s.marked else "") for s in stakes)


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
