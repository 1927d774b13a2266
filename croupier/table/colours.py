"""Colour chips (§7): one colour per player, given a value the profile allows and recorded on the
value board (`PT-A 9, 13`); chips issued; the waiting list and the `PT-A 12` rule; cash-out counted
in chips and money (`PT-A 15`); chips presented late valued at the table minimum."""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from croupier.rules.limits import ColourValueCode, colour_value_check, colour_value_problem
from croupier.rules.profiles import InactivityAction
from croupier.table.cycle import amount
from croupier.table.events import (
    CashOutReason, ChipsIssued, ColourAssigned, ColourCashedOut, Event, ForeignChipsSettled, LateChipsExchanged,
    PlayerLeftWaitingList, PlayerWaiting,
)
from croupier.table.refusal import (
    ChipsNotOfTable, ChipsNotWhole, ColourNotInPlay, ColourTaken, ColourValueAboveMaximum, ColourValueNotMultiple,
    ColourValueNotOneOf, ColourValueNotPosted, CountNotWhole, ExchangeWithBets, ForeignChipsNotSettled,
    ForeignChipsValue, ForeignColourNotNamed, ForeignIsThisTable, ForeignTableNotNamed, InactivityNotApplying,
    NotAColour, NotAColourToAssign, OtherPlayerWaiting, PlayerHasColour, PlayerNotNamed, PlayerNotWaiting,
    PlayerWaitingAlready, Refused, TableNotOpen, ValueOnlyTable, choice,
)
from croupier.table.regulation import limits_of, minimum_of, profile_of
from croupier.table.roles import known
from croupier.table.state import ColourAccount, Phase, TableState


def _open(state: TableState) -> None:
    if state.phase is Phase.CLOSED:
        raise TableNotOpen()


def check_colour_chips(state: TableState) -> None:
    """Refused at a table of value chips only (`PT-B 15b`): it has no colour chips to give, add,
    exchange or wait for. A screen asks before its colour menu opens."""
    if state.value_only:
        rule = profile_of(state).value_chips.value_only_rule
        raise ValueOnlyTable(rule)


def _colour_table(state: TableState) -> None:
    _open(state)
    check_colour_chips(state)


def _chips(chips: int) -> int:
    if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
        raise ChipsNotWhole(chips=repr(chips))
    return chips


def _account(state: TableState, colour: str) -> ColourAccount:
    account = state.accounts.get(colour)
    if account is None:
        if colour in state.colours:
            raise ColourNotInPlay(colour=colour)
        raise NotAColour(colour2=repr(colour), colours=', '.join(state.colours))
    return account


def _player(player: str) -> str:
    player = player.strip()
    if not player:
        raise PlayerNotNamed()
    return player


def check_chip_value(state: TableState, value: Decimal | str | int) -> Decimal:
    """The value a player gives a colour, as the profile allows it (§7, `PT-A 9`, `PT-B 9`, `RU 4.7`)."""
    value = amount(value, "a colour chip's value")
    limits = limits_of(state)  # the sign's plein maximum too
    found = colour_value_check(limits, value, state.posted_values)
    if found is not None:
        code, facts = found
        problem = colour_value_problem(limits, value, state.posted_values) or code
        if code is ColourValueCode.NOT_POSTED:  # the usual case (PT-A 9): neither the minimum nor a posted value
            raise ColourValueNotPosted(problem, value, facts["rule"], allowed=facts["allowed"])
        if code is ColourValueCode.ONE_OF:
            raise ColourValueNotOneOf(problem, value, facts["rule"], allowed=facts["allowed"])
        if code is ColourValueCode.MULTIPLE:
            raise ColourValueNotMultiple(problem, value, facts["rule"], minimum=facts["minimum"])
        raise ColourValueAboveMaximum(problem, value, facts["rule"], maximum=facts["maximum"])
    return value


def join_waiting_list(state: TableState, now: datetime, *, player: str) -> list[Event]:
    _colour_table(state)
    player = _player(player)
    if player in state.waiting:
        raise PlayerWaitingAlready(player=player)
    if any(a.player == player for a in state.accounts.values()):
        raise PlayerHasColour(player=player)
    return [PlayerWaiting(player=player)]


def leave_waiting_list(state: TableState, now: datetime, *, player: str) -> list[Event]:
    _open(state)
    if player not in state.waiting:
        raise PlayerNotWaiting(player=player)
    return [PlayerLeftWaitingList(player=player)]


def assign_colour(state: TableState, now: datetime, *, colour: str, player: str, chip_value: Decimal | str | int,
                  chips: int, by: str) -> list[Event]:
    """`PT-A 13`: the player asks for a free colour and gives it a value."""
    _colour_table(state)
    player = _player(player)
    if colour not in state.colours:
        raise NotAColourToAssign(colour=repr(colour), colours=', '.join(state.colours))
    taken = state.accounts.get(colour)
    if taken is not None:
        free = ", ".join(state.free_colours()) or "none"
        raise ColourTaken(colour=colour, player=taken.player, free=free)
    if any(a.player == player for a in state.accounts.values()):
        raise PlayerHasColour(player=player)
    if state.waiting and player != state.waiting[0]:
        raise OtherPlayerWaiting(waiting=state.waiting[0])
    value = check_chip_value(state, chip_value)
    return [ColourAssigned(colour=colour, player=player, chip_value=value, chips=_chips(chips),
                           by=known(state, by))]


def issue_chips(state: TableState, now: datetime, *, colour: str, chips: int, by: str) -> list[Event]:
    _colour_table(state)
    _account(state, colour)
    return [ChipsIssued(colour=colour, chips=_chips(chips), by=known(state, by))]


def must_exchange(state: TableState, account: ColourAccount) -> bool:
    """`PT-A 12`: no bet for 3 consecutive spins while others wait for a colour: the colour is lost.
    A player waits for a colour only when none is free: one on the list while a colour is free takes it."""
    rules = profile_of(state).inactivity
    someone_waits = bool(state.waiting) and not state.free_colours()
    return (rules.action == InactivityAction.LOSE_COLOUR and rules.after_spins is not None and account.idle_spins >= rules.after_spins
            and (someone_waits or not rules.only_when_waiting))


def cash_out(state: TableState, now: datetime, *, colour: str, chips: int, by: str,
             reason: CashOutReason = CashOutReason.LEFT) -> list[Event]:
    """The player exchanges every chip of the colour (`PT-A 15`); `chips` is the count at the table."""
    _colour_table(state)
    account = _account(state, colour)
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
        raise CountNotWhole(chips=repr(chips))
    if colour in state.bets or colour in state.prison:
        raise ExchangeWithBets(colour=colour)
    reason = choice(CashOutReason, reason, what="a reason to cash out")
    if reason is CashOutReason.INACTIVE and not must_exchange(state, account):
        raise InactivityNotApplying(colour=colour, rule=profile_of(state).inactivity.rule)
    return [ColourCashedOut(colour=colour, player=account.player, chips=chips, expected_chips=account.held,
                            chip_value=account.chip_value, amount=chips * account.chip_value, reason=reason,
                            by=known(state, by))]


def exchange_late_chips(state: TableState, now: datetime, *, colour: str, chips: int, by: str) -> list[Event]:
    """`PT-A 15`, `PT-B 16`, `RU 4.7`: colour chips presented late are worth the table minimum each."""
    _colour_table(state)
    if colour not in state.colours:
        raise ChipsNotOfTable(colour=repr(colour))
    minimum = minimum_of(state)
    return [LateChipsExchanged(colour=colour, chips=_chips(chips), chip_value=minimum,
                               amount=chips * minimum, by=known(state, by))]


def check_foreign_chips(state: TableState) -> str:
    """`FR`: colour chips of another table played here by mistake are settled here only where the
    profile's text says so; returns the rule it cites. A screen asks before the chips are described."""
    _open(state)
    rule = profile_of(state).colour_chips.foreign_rule
    if not rule:
        raise ForeignChipsNotSettled(state.profile, profile_of(state).colour_chips.rule)
    return rule


def settle_foreign_chips(state: TableState, now: datetime, *, colour: str, table: str, chips: int, won: bool,
                         by: str, chip_value: Decimal | str | int | None = None,
                         table_minimum: Decimal | str | int | None = None) -> list[Event]:
    """`FR`: colour chips of another table played here by mistake: paid if they win at their real
    value if it can be determined (`chip_value`), otherwise at the minimum of their own table
    (`table_minimum`); taken if they lose. `chips`: the chips the win pays, or those taken."""
    rule = check_foreign_chips(state)
    colour, table = colour.strip(), str(table).strip()
    if not colour:
        raise ForeignColourNotNamed()
    if not table:
        raise ForeignTableNotNamed()
    if state.table_id is not None and table.casefold() == state.table_id.casefold():
        raise ForeignIsThisTable(table=table)
    chips = _chips(chips)
    value = None if chip_value is None else amount(chip_value, "a chip's real value")
    minimum = None if table_minimum is None else amount(table_minimum, "the minimum of their table")
    if won and value is None and minimum is None:
        raise ForeignChipsValue(rule)
    if value is not None and minimum is not None:
        minimum = None  # the real value, when it is known, is what they are paid at
    price = value if value is not None else minimum
    paid = chips * price if won and price is not None else Decimal(0)
    result = state.last_result
    return [ForeignChipsSettled(colour=colour, table=table, chips=chips, chip_value=value,
                                table_minimum=minimum, won=bool(won), amount=paid,
                                spin=result.spin if result is not None else None, rule=rule, by=known(state, by))]
