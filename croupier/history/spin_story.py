"""Everything about one spin, for a dispute (`PT-A 31`, `PT-B 33`): how its result was obtained and
by whom, any golpe nulo before it, any correction after it, and each colour's bets and payouts
exactly as they were settled."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from croupier.history.clock import clock, stamp
from croupier.history.records import Entry
from croupier.history.money import chips_money, owner_values
from croupier.history.payouts import Overpayment, Overpayments
from croupier.history.words import (bet_words, colour_words, direction_words, limit_cut_words, pocket_words,
                                    source_words, void_words)
from croupier.i18n import _, formats
from croupier.rules.wheel import colour as pocket_colour
from croupier.table import events as ev


@dataclass
class SpinStory:
    spin: int
    launches: list[ev.BallLaunched] = field(default_factory=list)  # more than one after a void
    voids: list[ev.SpinVoided] = field(default_factory=list)
    void_acknowledgements: list[ev.VoidAcknowledged] = field(default_factory=list)
    entered: list[ev.ResultEntered] = field(default_factory=list)
    result: ev.ResultRecorded | None = None
    corrections: list[ev.ResultCorrected] = field(default_factory=list)
    bets: list[ev.BetsPlaced | ev.BetsWithdrawn] = field(default_factory=list)
    rebuilt: list[ev.WinningBetsRebuilt] = field(default_factory=list)
    payouts: list[ev.PayoutsRecorded] = field(default_factory=list)  # the winners counted at the payouts
    chip_values: dict[str, Decimal] = field(default_factory=dict)  # colour -> value when settled
    alarms: list[ev.AlarmRaised] = field(default_factory=list)  # the wheel's reading against the typed one
    handled: list[ev.AlarmAcknowledged | ev.AlarmCleared] = field(default_factory=list)  # those alarms'

    @property
    def number(self) -> int | None:
        """The number that counts: the last correction's, else the recorded one."""
        if self.corrections:
            return self.corrections[-1].number
        return self.result.number if self.result else None

    @property
    def source(self) -> str:
        if self.result is None:
            return _("no result recorded")
        how = source_words(self.result.source)
        if self.result.confirmed_by:
            how += ", " + _("confirmed by {name}").format(name=self.result.confirmed_by)
        for correction in self.corrections:
            how += "; " + _("corrected {previous} -> {number} by {by}: {reason}").format(
                previous=correction.previous, number=correction.number, by=correction.by, reason=correction.reason)
        return how

    @property
    def outcomes(self) -> tuple[ev.ColourOutcome, ...]:
        """The settlement that stands: a correction settles the spin again on its number."""
        for correction in reversed(self.corrections):
            if correction.outcomes:
                return correction.outcomes
        return self.result.outcomes if self.result else ()

    @property
    def overpayments(self) -> list[Overpayment]:
        """Payouts counted on a number that a correction replaced: what to recover, per colour."""
        found = Overpayments(self.chip_values)
        for event in (*self.payouts, *self.corrections):
            found.add(0, event)
        return found.found()

    def money(self, outcome: ev.ColourOutcome) -> Decimal | None:
        value = self.chip_values.get(outcome.colour, owner_values().get(outcome.colour))
        return None if value is None else chips_money(outcome.won, value)

    def lines(self, currency: str | None = None) -> list[str]:
        """The story as the pit boss reads it out, in the installed language (what was recorded, the
        names, reasons, sources and bets, as recorded), amounts with `currency` when it is known."""
        if self.result is None and not self.launches and not self.voids:
            return [_("spin {spin}: nothing recorded").format(spin=self.spin)]
        out = [_("spin {spin}").format(spin=self.spin)]
        if self.number is not None:
            out.append(_("result: {number} {colour}").format(
                number=self.number, colour=pocket_words(pocket_colour(self.number))))
        out.append(_("source: {source}").format(source=self.source))
        out += self._evidence()
        for launch in self.launches:
            out.append(_("launch {time}: ball {ball}, croupier {croupier}, {direction}").format(
                time=clock(launch.time), ball=launch.ball, croupier=launch.croupier,
                direction=direction_words(launch.direction)))
        for void in self.voids:
            back = (", " + _("ball put back in {pocket}").format(pocket=void.put_back)
                    if void.put_back is not None else "")
            out.append(_("golpe nulo {time}: {reason} ({source}) by {by}").format(
                time=clock(void.time), reason=void_words(void.reason), source=source_words(void.source),
                by=void.by) + back)
        out += [_("golpe nulo from the sensor acknowledged by {by}").format(by=seen.by)
                for seen in self.void_acknowledgements]
        for bet in self.bets:
            if isinstance(bet, ev.BetsWithdrawn):
                out.append(_("{colour}: bets taken back").format(colour=colour_words(bet.colour)))
            else:
                out.append(_("{colour} bets: {stakes}").format(
                    colour=colour_words(bet.colour),
                    stakes=", ".join(f"{bet_words(s.bet)} x{s.chips}" for s in bet.stakes)))
        for rebuilt in self.rebuilt:
            out.append(_("winning bets rebuilt by {by} (PT-A 31): {bets}").format(by=rebuilt.by, bets="; ".join(
                f"{colour_words(colour)}: " + ", ".join(f"{bet_words(s.bet)} x{s.chips}" for s in stakes)
                for colour, stakes in rebuilt.stakes.items())))
        out += [self._outcome(outcome, currency=currency) for outcome in self.outcomes]
        for payouts in self.payouts:
            out.append(_("payouts recorded by {by}: {paid}").format(by=payouts.by, paid="; ".join(
                f"{colour_words(colour)} " + ", ".join(f"{bet_words(s.bet)} x{s.chips}" for s in stakes)
                for colour, stakes in payouts.stakes.items()) or _("no winner counted")))
            out += [self._outcome(outcome, "  ", currency) for outcome in payouts.outcomes]
            out += [f"  {limit_cut_words(cut, currency)}" for cut in payouts.cuts] or [
                f"  {note}" for note in payouts.notes]  # recorded before the notes kept their facts
            if payouts.played:
                out.append("  " + _("played: {colours}").format(colours=", ".join(map(colour_words, payouts.played))))
        out += [_("AFTER CORRECTION: {what}").format(what=found.words(currency or "")) for found in self.overpayments]
        return out

    def _evidence(self) -> list[str]:
        """When and how the number was decided, and the wheel's own lines: what a dispute rests on."""
        out = []
        result = self.result
        if result is not None:
            out.append(_("result recorded {time}").format(time=stamp(result.time)) + (
                ", " + _("wheel game {game}").format(game=result.wheel_game) if result.wheel_game is not None else ""))
            if result.source is ev.Source.SENSOR:
                out.append(_("sensor reading: {number}").format(number=result.number))
            else:
                out.append(_("typed at the keypad: {number}").format(number=result.number))
                out += [_("typed {time}: {number} by {by}").format(time=clock(entered.time), number=entered.number,
                                                                   by=entered.by) for entered in self.entered]
                if result.confirmed_by:
                    out.append(_("confirmed {time} by {by}").format(time=clock(result.time), by=result.confirmed_by))
        for alarm in self.alarms:
            facts = alarm.facts
            if facts is not None and facts.read is not None:
                out.append(_("sensor reading: {number} (alarm {alarm}, {time})").format(
                    number=facts.read, alarm=alarm.alarm, time=clock(alarm.time)))
            else:
                out.append(_("wheel fault {time} (alarm {alarm}): {detail}").format(
                    time=clock(alarm.time), alarm=alarm.alarm, detail=alarm.detail))
            for handled in self.handled:
                if handled.alarm != alarm.alarm:
                    continue
                if isinstance(handled, ev.AlarmAcknowledged):
                    out.append("  " + _("acknowledged {time} by {by}").format(time=clock(handled.time), by=handled.by))
                else:
                    out.append("  " + _("cleared {time} by {by}: {note}").format(
                        time=clock(handled.time), by=handled.by, note=handled.note))
        for correction in self.corrections:
            out.append(_("corrected {time}: {previous} -> {number} by {by}: {reason}").format(
                time=stamp(correction.time), previous=correction.previous, number=correction.number,
                by=correction.by, reason=correction.reason))
        lines = [*(result.wheel_lines if result else ()),
                 *(line for alarm in self.alarms if alarm.facts for line in alarm.facts.wheel_lines)]
        if lines:
            out.append(_("the wheel's lines (seconds from the result):"))
            out += [f"  {line}" for line in lines]
        return out

    def _outcome(self, outcome: ev.ColourOutcome, indent: str = "", currency: str | None = None) -> str:
        money = self.money(outcome)
        paid = f" = {formats.money(money, currency)}" if money is not None else ""
        prison = ", " + _("{chips} en prison").format(chips=outcome.imprisoned) if outcome.imprisoned else ""
        return indent + _("{colour}: staked {staked}, paid {paid}, returned {returned}, lost {lost}").format(
            colour=colour_words(outcome.colour), staked=outcome.staked, paid=f"{outcome.won}{paid}",
            returned=outcome.returned,
            lost=outcome.lost) + prison


def spin_story(entries: Iterable[Entry], spin: int) -> SpinStory:
    story = SpinStory(spin)
    about: set[int] = set()  # the alarms raised about this spin's number
    for entry in entries:
        event = entry.event
        if isinstance(event, ev.AlarmRaised) and event.facts is not None and event.facts.spin == spin and \
                event.alarm_kind in (ev.AlarmKind.RESULT_MISMATCH, ev.AlarmKind.WHEEL_FAULT):
            story.alarms.append(event)
            about.add(event.alarm)
        elif isinstance(event, ev.AlarmAcknowledged | ev.AlarmCleared) and event.alarm in about:
            story.handled.append(event)
        if isinstance(event, ev.ColourAssigned) and story.result is None:
            story.chip_values[event.colour] = event.chip_value  # the value when the spin was settled
        if getattr(event, "spin", None) != spin:
            continue
        match event:
            case ev.BallLaunched():
                story.launches.append(event)
            case ev.SpinVoided():
                story.voids.append(event)
            case ev.VoidAcknowledged():
                story.void_acknowledgements.append(event)
            case ev.ResultEntered():
                story.entered.append(event)
            case ev.ResultRecorded():
                story.result = event
            case ev.ResultCorrected():
                story.corrections.append(event)
            case ev.BetsPlaced() | ev.BetsWithdrawn():
                story.bets.append(event)
            case ev.WinningBetsRebuilt():
                story.rebuilt.append(event)
            case ev.PayoutsRecorded():
                story.payouts.append(event)
    return story
