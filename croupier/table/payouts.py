"""Recording what the croupier pays after a result (`PT-A 29-30`).

The croupier counts, per colour, the chips on each winning position (and, after zero, on the simple
chances where they come back in part: `PT-B 29` half back, `FR` en prison). The count is checked
against the table limits and settled by the rules engine, then recorded per colour with the
colours known to have played (`PT-A 12`): the winners, and those the croupier marks. A colour
that lost on the layout is otherwise unknown to the table.
"""
from __future__ import annotations

from datetime import datetime
from typing import Iterable, Mapping

from croupier.rules.bets import VALUE_CHIPS
from croupier.rules.layout import POSITIONS, Position
from croupier.rules.profiles import Profile, ZeroChances
from croupier.table.bets import as_stakes, settle, within_limits
from croupier.table.cycle import IN_SPIN, SENSOR, check_result_agreed
from croupier.table.events import Event, LimitCut, PayoutsCompleted, PayoutsRecorded, Role, Stake
from croupier.table.refusal import (
    ColourNotInPlay, ColoursRefused, NoPayoutsUnderWay, NotAColour, NotPaidOn, PaidChipsNotWhole,
    PayoutsOfAnotherSpin, Refused,
)
from croupier.table.regulation import profile_of
from croupier.table.roles import known
from croupier.table.state import Phase, TableState


def paying_positions(number: int, profile: Profile) -> list[Position]:
    """The layout positions whose chips the croupier counts for `number`, in the profile's payout
    order (`PT-A 29`, `PT-B 30`): those that win, and after zero the simple chances wherever they
    do not simply lose (`PT-B 29`, `RU 4.11` half back; `FR` en prison)."""
    found = [p for p in POSITIONS if number in p.numbers and profile.offers(p.kind)]
    if number == 0 and profile.zero.simple_chances != ZeroChances.LOSE:
        found += [p for p in POSITIONS if p.kind == "simple"]
    return sorted(found, key=lambda p: profile.payout.rank(p.category))  # stable: layout order within


def payouts_open(state: TableState) -> int | None:
    """The spin whose payouts can be recorded now: the last result's while they are under way, and
    also after the wheel launched the next ball first (the sensor closed them), until they are
    recorded or the next result comes."""
    result = state.last_result
    if result is None:
        return None
    if state.phase is Phase.PAYING:
        return result.spin
    late = state.phase in (Phase.BETTING, *IN_SPIN) and result.completed_by == SENSOR and not result.paid
    return result.spin if late else None


def record_payouts(state: TableState, now: datetime, *, spin: int, paid: Mapping[str, Iterable[Stake]],
                   played: Iterable[str] = (), by: str | None = None) -> list[Event]:
    """The payouts of `spin` done: `paid` holds per colour the chips counted on each paying
    position; `played` the colours the croupier marks as having bet (winners count anyway).
    When the wheel launched the next ball before the croupier marked them done (the sensor closed
    them), the counts are still recorded against their spin, once, until its next result."""
    result = state.last_result
    if result is None or payouts_open(state) is None:
        raise NoPayoutsUnderWay()
    late = state.phase is not Phase.PAYING
    if spin != result.spin:
        raise PayoutsOfAnotherSpin(spin=result.spin, spin2=spin)
    check_result_agreed(state, spin)
    by = known(state, by or state.staff_on(Role.CROUPIER) or "")
    profile = profile_of(state)
    paying = {p.name for p in paying_positions(result.number, profile)}
    stakes: dict[str, tuple[Stake, ...]] = {}
    notes: list[str] = []
    cuts: list[LimitCut] = []
    refused: list[tuple[str, Refused]] = []
    for colour, counted in paid.items():
        _in_play(state, colour)
        counted = tuple(counted)
        for stake in counted:
            if stake.bet not in paying:
                raise NotPaidOn(colour=colour, bet=stake.bet, number=result.number)
            if isinstance(stake.chips, bool) or not isinstance(stake.chips, int) or stake.chips <= 0:
                raise PaidChipsNotWhole(colour=colour, bet=stake.bet, chips=repr(stake.chips))
        if not counted:
            continue
        try:
            # The colour's bets recorded before the spin count towards each position's maximum.
            bets, cut, facts = within_limits(state, colour, counted, standing=result.stakes.get(colour, ()))
        except Refused as refusal:
            refused.append((colour, refusal))
            continue
        stakes[colour] = as_stakes(bets, counted)
        notes += [f"{colour}: {note}" for note in cut]
        cuts += facts
    if refused:
        raise ColoursRefused(tuple(refused))
    for colour in played:
        _in_play(state, colour)
    outcomes, prison = settle(state, result.number, stakes=stakes, prison={})
    marked = tuple(c for c in dict.fromkeys([*stakes, *played]) if c != VALUE_CHIPS)  # PT-A 12 counts colours
    recorded = PayoutsRecorded(spin=spin, number=result.number, stakes=stakes, outcomes=outcomes,
                               notes=tuple(notes), cuts=tuple(cuts), prison=prison or None, played=marked, by=by)
    return [recorded] if late else [recorded, PayoutsCompleted(spin=spin, by=by)]


def _in_play(state: TableState, colour: str) -> None:
    if colour == VALUE_CHIPS:
        return  # value chips (the amount in money) belong to no colour: PT-A 16, PT-B 15, FR
    if colour not in state.accounts:
        if colour in state.colours:
            raise ColourNotInPlay(colour=colour)
        raise NotAColour(colour2=repr(colour), colours=', '.join(state.colours))
