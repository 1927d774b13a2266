"""Bets on the layout, per colour, and their settlement by the rules engine.

A bet is recorded as its canonical spec and chips per unit (`Stake("orphelins", 5)`), the grammar
of `croupier payout`. Settlement (croupier.rules.settlement) gives each colour's chips staked, paid,
kept, lost and imprisoned; the chips en prison (`mt-fair`) are carried to the next spin.
"""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Mapping, cast

from croupier.rules.bets import VALUE_CHIPS, Bet, BetError, make_bet
from croupier.rules.layout import parse_position
from croupier.rules.limits import ADJUSTED, REFUSED, LimitCheck, check_player
from croupier.rules.profiles import AfterVoid
from croupier.rules.settlement import Prisoner, settle as settle_bets
from croupier.table.events import BetsPlaced, BetsWithdrawn, ColourOutcome, Event, LimitCut, Stake, WinningBetsRebuilt
from croupier.table.refusal import (
    BetsClosedAtLaunch, BetsStandAfterVoid, BettingColourNotInPlay, ChipsShort, MarkedChipsNotOffered,
    MarkedChipsOfColour, NoBetGiven, NoBetsToWithdraw, NoMoreBets, NoSpinToRebuild, NoWinningBets, NotABet,
    OverLimits, Refused, SensorOnlyTable, SpinNotKept, TableNotOpen,
)
from croupier.table.regulation import limits_of, profile_of
from croupier.table.roles import known
from croupier.table.state import Phase, TableState

Stakes = Mapping[str, tuple[Stake, ...]]


def _bets(state: TableState, stakes: Stakes) -> list[Bet]:
    profile = profile_of(state)
    return [make_bet(stake.bet, stake.chips, colour, profile, any_bet=any_bet(state, colour, stake))
            for colour, held in stakes.items() for stake in held]


def _owner(owner: str | None) -> str:
    """Whose a bet at the table is: the table makes every bet with its owner (`_bets`)."""
    return cast(str, owner)


def any_bet(state: TableState, owner: str, stake: Stake) -> bool:
    """Value chips that may go on any bet: on a table of value chips only (`PT-B 15b`), and
    value-marked chips (`PT-A 16`); other value chips only where the profile lets them."""
    return owner == VALUE_CHIPS and (state.value_only or stake.marked)


def chip_value(state: TableState, owner: str) -> Decimal:
    """What one counted chip of `owner` is worth: a colour's value; value chips are counted as
    their amount in money, so one is worth one unit of the currency."""
    return Decimal(1) if owner == VALUE_CHIPS else state.accounts[owner].chip_value


def check_marked(state: TableState, owner: str, stakes: tuple[Stake, ...]) -> None:
    """Value-marked chips are value chips, at a table that offers them (`PT-A 16`)."""
    for stake in stakes:
        if not stake.marked:
            continue
        if owner != VALUE_CHIPS:
            raise MarkedChipsOfColour(bet=stake.bet, colour=owner)
        if not state.marked_values:
            rule = profile_of(state).value_chips.rule
            raise MarkedChipsNotOffered(rule)


def _prisoners(prison: Stakes) -> list[Prisoner]:
    return [Prisoner(colour, parse_position(stake.bet), stake.chips, stake.bet)
            for colour, held in prison.items() for stake in held]


def settle(state: TableState, number: int, *, stakes: Stakes | None = None,
           prison: Stakes | None = None) -> tuple[tuple[ColourOutcome, ...], dict[str, tuple[Stake, ...]]]:
    """Each colour's outcome of `number` on the standing bets (or the `stakes` given), and the
    chips the spin puts en prison, by colour."""
    stakes = state.bets if stakes is None else stakes
    prison = state.prison if prison is None else prison
    if not stakes and not prison:
        return (), {}
    settlement = settle_bets(number, _bets(state, stakes), profile_of(state), imprisoned=_prisoners(prison))
    outcomes = tuple(
        ColourOutcome(colour=_owner(total.owner), staked=total.staked, won=total.won,
                      returned=total.kept + total.freed,  # a freed prisoner comes back to its player
                      lost=total.lost + total.taken, imprisoned=int(total.imprisoned))
        for total in settlement.owners
    )
    carried: dict[str, tuple[Stake, ...]] = {}
    for prisoner in settlement.imprisoned:
        owner = _owner(prisoner.owner)
        carried[owner] = carried.get(owner, ()) + (Stake(bet=prisoner.position.name,
                                                                          chips=prisoner.chips),)
    return outcomes, carried


def bets_open(state: TableState) -> bool:
    """Whether players may bet now: bets are open, or the ball runs and "no more bets" is not called
    yet (`PT-A 20`), unless a betting period ends at the launch (`SRIJ 14`)."""
    if state.phase is Phase.BETTING:
        return not _bets_stand(state)
    return state.phase is Phase.SPINNING and not profile_of(state).betting_period.min_seconds


def _bets_stand(state: TableState) -> bool:
    """A golpe nulo in force under a profile where bets stand (`PT-A 22`): nothing is placed or
    taken back until the ball is launched again."""
    return state.voided is not None and profile_of(state).betting_period.after_void == AfterVoid.STAND


def check_betting(state: TableState) -> None:
    """Refused unless a bet can be placed or taken back now: a screen asks before the bet is typed."""
    if state.phase is Phase.CLOSED:
        raise TableNotOpen()
    if state.sensor_only:
        raise SensorOnlyTable()
    if bets_open(state):
        return
    if _bets_stand(state):
        rule = profile_of(state).betting_period.after_void_rule
        raise BetsStandAfterVoid(rule)
    if state.phase is Phase.SPINNING:
        rule = profile_of(state).betting_period.rule
        raise BetsClosedAtLaunch(rule)
    rule = profile_of(state).betting_period.rule  # the table's own: PT-A 20, RU 4.12, SRIJ 13-15
    raise NoMoreBets(rule)


def place_bets(state: TableState, now: datetime, *, colour: str, stakes: tuple[Stake, ...]) -> list[Event]:
    """A colour's bets, checked by the rules engine (offered, legal, within the table limits with
    the profile's breach handling) and against the chips the colour holds. A bet over a maximum
    is refused, or recorded cut down with a note of the chips handed back (`RU 4.8`, `FR`)."""
    check_betting(state)
    account = state.accounts.get(colour)
    if account is None:
        raise BettingColourNotInPlay(colour=colour)
    if not stakes:
        raise NoBetGiven()
    played, notes, cuts = within_limits(state, colour, stakes, standing=state.bets.get(colour, ()))
    total = sum(bet.stake for bet in played)
    if total > account.held:
        raise ChipsShort(colour=colour, held=_chips(account.held), total=total)
    return [BetsPlaced(spin=state.spin, colour=colour, stakes=as_stakes(played), notes=notes, cuts=cuts)]


def within_limits(state: TableState, colour: str, stakes: tuple[Stake, ...], *,
                  standing: tuple[Stake, ...] = ()) -> tuple[list[Bet], tuple[str, ...], tuple[LimitCut, ...]]:
    """`colour`'s `stakes` as they play, checked by the rules engine (offered, legal, within the
    table limits with the profile's breach handling), and the notes of what was cut down (in English
    and as facts). A
    position's maximum counts what the colour has on it already, its `standing` bets (`PT-A 32`,
    `RU 4.8`). Refused, naming every bet, when the limits refuse one."""
    profile = profile_of(state)
    check_marked(state, colour, stakes)
    try:
        new = [make_bet(stake.bet, stake.chips, colour, profile, any_bet=any_bet(state, colour, stake))
               for stake in stakes]
    except BetError as exc:  # the rules' own words: the bet as typed and why it is no bet here
        raise NotABet(str(exc), exc.reason, exc.facts) from None
    before = _bets(state, {colour: standing})
    checks = check_player(before + new, limits_of(state), chip_value(state, colour))[len(before):]
    refused = [check for check in checks if check.status == REFUSED]
    if refused:
        raise OverLimits(tuple(refused))
    adjusted = [check for check in checks if check.status == ADJUSTED]
    return ([check.played for check in checks if check.played is not None],  # None: refused, raised above
            tuple(f"{check.message} ({check.rule})" for check in adjusted),
            tuple(_cut(colour, check) for check in adjusted))


def _cut(colour: str, check: LimitCheck) -> LimitCut:
    """A bet the limits cut down, as the journal records it."""
    assert check.reason is not None and check.outcome is not None, "check_player says why it cut a bet down"
    return LimitCut(colour=colour, reason=check.reason, outcome=check.outcome, rule=check.rule,
                    facts={key: str(value) for key, value in check.facts.items()})


def as_stakes(played: list[Bet], marked: tuple[Stake, ...] = ()) -> tuple[Stake, ...]:
    """The bets as recorded; `marked`: the stakes they came from, when some were value-marked chips."""
    if not any(stake.marked for stake in marked):
        return tuple(Stake(bet=bet.spec, chips=bet.chips) for bet in played)
    return tuple(Stake(bet=bet.spec, chips=bet.chips, marked=stake.marked) for bet, stake in zip(played, marked))


def withdraw_bets(state: TableState, now: datetime, *, colour: str) -> list[Event]:
    """A colour takes its standing bets back (after a golpe nulo too where the profile lets it, `SRIJ 24`)."""
    check_betting(state)
    if colour not in state.bets:
        raise NoBetsToWithdraw(colour=colour)
    return [BetsWithdrawn(spin=state.spin, colour=colour)]


def winning_stakes(state: TableState, spin: int | None = None) -> tuple[int, dict[str, tuple[Stake, ...]]]:
    """`PT-A 31`: the winning positions of a recorded spin, per colour, as the record has them."""
    recorded = state.last_result if spin is None else next((s for s in state.recent if s.spin == spin), None)
    if recorded is None:
        raise NoSpinToRebuild() if spin is None else SpinNotKept(spin=spin, recent=len(state.recent))
    found: dict[str, tuple[Stake, ...]] = {}
    # The bets recorded before the spin, then the winning layout bets counted at the payouts.
    for bet in _bets(state, recorded.stakes) + _bets(state, recorded.paid):
        won = tuple(Stake(bet=position.name, chips=chips) for position, chips in bet.units
                    if recorded.number in position.numbers)
        if won:
            owner = _owner(bet.owner)
            found[owner] = found.get(owner, ()) + won
    return recorded.spin, found


def rebuild_winning_bets(state: TableState, now: datetime, *, by: str, spin: int | None = None) -> list[Event]:
    """`PT-A 31`, `PT-B 33`: staff disturbed winning bets; set them up again from the record."""
    if state.phase is Phase.CLOSED:
        raise TableNotOpen()
    spin, stakes = winning_stakes(state, spin)
    if not stakes:
        raise NoWinningBets(spin=spin)
    return [WinningBetsRebuilt(spin=spin, stakes=stakes, by=known(state, by))]


def _chips(amount: Fraction) -> str:
    """Chips held, exactly: halves (zero, two-dozen bets) as 12.5."""
    return str(Decimal(amount.numerator) / amount.denominator)
