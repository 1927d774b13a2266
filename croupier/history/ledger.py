"""The colour ledger: each colour given out, with its statement, under the rule of the table's own
profile for colour chips (`colour_rule`: `PT-A 9`, `RU 4.7`; none cited where it states none).

A colour's result is what the player took away minus what the player bought: the money of the
cash-out and of any late chips, minus the chips bought at the colour's value. The play in between
(staked, paid by the bank, collected by the bank, stakes returned) is the detail beside it, never
the result itself: chips won and lost on the layout are already in the chips counted at the cash-out.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from croupier.history.money import chips_money, json_number
from croupier.history.procedures import Table
from croupier.history.projection import Projection, reads
from croupier.history.words import colour_words, plural_of
from croupier.i18n import _, formats, ngettext
from croupier.table.codec import to_plain
from croupier.table.events import (ChipsIssued, ColourAssigned, ColourCashedOut, ColourOutcome, ContextChanged, Event,
                                   LateChipsExchanged, PayoutsRecorded, ProfileChanged, ResultCorrected, ResultRecorded,
                                   TableOpened)


@dataclass
class ColourStatement:
    colour: str
    player: str
    chip_value: Decimal
    since: datetime
    bought: int = 0  # chips given out: at the assignment and added later
    staked: int = 0
    paid: Fraction = Fraction(0)  # won on the layout: paid by the bank, the stake not included
    returned: Fraction = Fraction(0)  # stakes handed back
    collected: Fraction = Fraction(0)  # stakes the bank took
    cashed_out: dict | None = None  # time, chips, expected_chips, amount, reason, by
    late_chips: list[dict] = field(default_factory=list)  # time, chips, chip_value, amount, by
    currency: str | None = None  # in force when the colour was given: every amount of it is in it
    # A currency that took force while the colour was in play (a journal from before that was
    # refused): its figures mix two currencies and are added to neither.
    currency_changed: str | None = None

    @property
    def bought_money(self) -> Decimal:
        return chips_money(self.bought, self.chip_value)

    @property
    def on_record(self) -> Fraction:
        """The chips the player holds by the record: bought, plus paid, minus collected."""
        return self.bought + self.paid - self.collected

    @property
    def cashed_out_money(self) -> Decimal:
        return Decimal(self.cashed_out["amount"]) if self.cashed_out else Decimal(0)

    @property
    def late_money(self) -> Decimal:
        return sum((Decimal(late["amount"]) for late in self.late_chips), Decimal(0))

    @property
    def result(self) -> Decimal | None:
        """The player's result in money (a gain is positive): cashed out and late chips, minus
        bought. None while the colour is still in play."""
        if self.cashed_out is None:
            return None
        return self.cashed_out_money + self.late_money - self.bought_money

    def entry(self) -> dict:
        """The statement as JSON (money as decimal strings, chips as numbers)."""
        result = self.result
        return {
            "colour": self.colour, "player": self.player, "chip_value": str(self.chip_value),
            "since": self.since.isoformat(), "bought": self.bought, "bought_money": str(self.bought_money),
            "cashed_out": self.cashed_out, "late_chips": self.late_chips, "late_money": str(self.late_money),
            "result_money": None if result is None else str(result),
            "staked": self.staked, "paid": json_number(self.paid), "returned": json_number(self.returned),
            "collected": json_number(self.collected), "on_record": json_number(self.on_record),
            "staked_money": str(chips_money(self.staked, self.chip_value)),
            "paid_money": str(chips_money(self.paid, self.chip_value)),
            "collected_money": str(chips_money(self.collected, self.chip_value)),
            "currency": self.currency, "currency_changed_in_play": self.currency_changed,
        }


class Ledger(Projection):
    """Folds the colour events and the spins' settlements, in journal order."""

    def __init__(self) -> None:
        self.statements: list[ColourStatement] = []
        self._in_play: dict[str, ColourStatement] = {}
        self._settled: dict[int, tuple[ColourOutcome, ...]] = {}  # spin -> the outcomes of its result, to undo on a correction
        self._currency: str | None = None  # in force (the opening's, then the pit boss's changes)

    @reads(TableOpened)
    def _opened(self, seq: int, e: TableOpened) -> None:
        self._currency = e.currency or None

    @reads(ContextChanged)
    def _context(self, seq: int, e: ContextChanged) -> None:
        if e.currency and e.currency != self._currency:
            self._currency = e.currency
            for statement in self._in_play.values():
                statement.currency_changed = e.currency

    @reads(ResultRecorded)
    def _result(self, seq: int, e: ResultRecorded) -> None:
        if e.outcomes:
            self._settled[e.spin] = e.outcomes
            self._settle(e.outcomes, 1)

    @reads(PayoutsRecorded)
    def _payouts(self, seq: int, e: PayoutsRecorded) -> None:
        self._settle(e.outcomes, 1)  # what was counted and paid after the result

    @reads(ResultCorrected)
    def _corrected(self, seq: int, e: ResultCorrected) -> None:
        # The bets recorded before the spin are settled again on the corrected number. Payouts
        # counted on the wrong number were paid: they stay, and `payouts` names the overpayment.
        self._settle(self._settled.get(e.spin, ()), -1)
        self._settled[e.spin] = e.outcomes
        self._settle(e.outcomes, 1)

    @reads(ColourAssigned)
    def _assigned(self, seq: int, e: ColourAssigned) -> None:
        statement = ColourStatement(e.colour, e.player, e.chip_value, e.time, e.chips, currency=self._currency)
        self._in_play[e.colour] = statement
        self.statements.append(statement)

    @reads(ChipsIssued)
    def _issued(self, seq: int, e: ChipsIssued) -> None:
        if e.colour in self._in_play:
            self._in_play[e.colour].bought += e.chips

    @reads(ColourCashedOut)
    def _cashed_out(self, seq: int, e: ColourCashedOut) -> None:
        if e.colour in self._in_play:
            self._in_play.pop(e.colour).cashed_out = {
                name: to_plain(getattr(e, name)) for name in ("time", "chips", "expected_chips", "amount", "reason", "by")}

    @reads(LateChipsExchanged)
    def _late(self, seq: int, e: LateChipsExchanged) -> None:
        for statement in reversed(self.statements):
            if statement.colour == e.colour:
                statement.late_chips.append(
                    {name: to_plain(getattr(e, name)) for name in ("time", "chips", "chip_value", "amount", "by")})
                break

    def _settle(self, outcomes: Iterable[ColourOutcome], sign: int) -> None:
        for outcome in outcomes:
            statement = self._in_play.get(outcome.colour)
            if statement is not None:
                statement.staked += sign * outcome.staked
                statement.paid += sign * outcome.won
                statement.returned += sign * outcome.returned
                statement.collected += sign * outcome.lost


def colour_ledger(events: Iterable[tuple[int, Event]]) -> list[ColourStatement]:
    """One statement per colour assignment, in the order they were given out."""
    ledger = Ledger()
    ledger.add_all(events)
    return ledger.statements


def ledger_totals(statements: Iterable[ColourStatement]) -> dict:
    """The table's money over the statements (all in one currency: `by_currency` parts them):
    bought, cashed out, late chips, and the players' result over the colours cashed out (the
    table's result is its opposite)."""
    statements = list(statements)
    done = [s for s in statements if s.cashed_out is not None]
    return {
        "bought": sum((s.bought_money for s in statements), Decimal(0)),
        "cashed_out": sum((s.cashed_out_money for s in statements), Decimal(0)),
        "late": sum((s.late_money for s in statements), Decimal(0)),
        "players_result": sum((result for s in done if (result := s.result) is not None), Decimal(0)),
        "in_play": len(statements) - len(done),
    }


def by_currency(statements: Iterable[ColourStatement]) -> tuple[dict[str | None, list[ColourStatement]],
                                                              list[ColourStatement]]:
    """The statements per currency, in the order the currencies came; and those whose currency
    changed while in play, which belong to none."""
    parted: dict[str | None, list[ColourStatement]] = {}
    mixed = []
    for s in statements:
        if s.currency_changed:
            mixed.append(s)
        else:
            parted.setdefault(s.currency, []).append(s)
    return parted, mixed


def colour_rule(events: Iterable[tuple[int, Event]], profile: str | None = None) -> str | None:
    """The rule(s) colour chips are given under in the profiles the events played (each once, from
    the profile text the journal recorded; `profile`, the id of the one in force, where the events
    open none: a day of a table left open); None where none is known."""
    played = [(event.rules, event.profile) for _seq, event in events if isinstance(event, (TableOpened, ProfileChanged))]
    return colour_rule_of(played or [("", profile)])


def colour_rule_of(played: Iterable[tuple[str, str | None]]) -> str | None:
    """`colour_rule` of the (recorded profile text, profile id) of each opening and profile change."""
    from croupier.rules.profiles import ProfileError, load_profile, profile_from_text

    found: dict[str, str | None] = {}  # profile text (or id) -> its rule, each read once
    for text, profile_id in played:
        key = text or profile_id or ""
        if key and key not in found:
            try:
                profile = profile_from_text(key) if text else load_profile(key)
            except ProfileError:
                found[key] = None  # a profile this program cannot read: no rule is cited rather than another's
            else:
                found[key] = profile.colour_chips.rule
    return "; ".join(dict.fromkeys(rule for rule in found.values() if rule)) or None


def ledger_table(statements: Iterable[ColourStatement], clock=lambda moment: moment.strftime("%H:%M"),
                 rule: str | None = None, several: bool = False) -> Table:
    """`several`: the statements are in more than one currency, and each amount names its own."""
    rows = []
    for s in statements:
        code = s.currency if several else None

        def money(amount) -> str:
            return formats.money(amount, code)
        out = s.cashed_out
        cash = ngettext("{chips} chip = {amount}", "{chips} chips = {amount}", plural_of(out["chips"])).format(
            chips=formats.chips(out["chips"]), amount=money(out["amount"])) if out else _("still in play")
        late = sum(late["chips"] for late in s.late_chips)
        result = s.result
        shown = _("in play") if result is None else formats.signed_money(result, code)
        if s.currency_changed:
            shown += " " + _("(MIXED CURRENCIES: {currency} -> {to}, in no total)").format(
                currency=s.currency or "-", to=s.currency_changed)
        rows.append((colour_words(s.colour), s.player, money(s.chip_value), clock(s.since),
                     f"{formats.chips(s.bought)} = {money(s.bought_money)}",
                     cash, f"{formats.chips(late)} = {money(s.late_money)}" if late else "",
                     shown,
                     formats.chips(s.staked), formats.chips(s.paid), formats.chips(s.collected),
                     formats.chips(s.returned)))
    title = (_("Colour ledger and statements ({rule}): result = cashed out + late chips - bought").format(rule=rule)
             if rule else _("Colour ledger and statements: result = cashed out + late chips - bought"))
    return Table(title,
                 (_("colour"), _("player"), _("chip value"), _("since"), _("bought"), _("cashed out"), _("late chips"),
                  _("result"), _("staked"), _("paid"), _("collected"), _("returned")), rows)
