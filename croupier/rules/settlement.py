"""Settling one spin: for every bet what the bank collects and pays, in the order the croupier
works, and per owner the totals and the payout in stacks of 20 ("em monte") plus the rest
("em fita").

Chips are exact fractions (two-way bets pay half; half of an odd stake comes back on zero under
half-back), never floats. Rule references are to ../shared/REGULATIONS.md (§3-§5).
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from croupier.rules.bets import VALUE_CHIPS, Bet
from croupier.rules.layout import Position
from croupier.rules.profiles import OUTSIDE_CATEGORIES, Profile, ZeroChances
from croupier.rules.record import Record
from croupier.rules.wheel import check_number, colour

STACK = 20  # chips in one stack of a payment "em monte" (PT-A 30)


class Prisoner(Record, kw_only=False):
    """A chip held "en prison" on a simple chance after a zero (FR), owed a verdict next spin."""

    owner: str | None
    position: Position  # the simple chance it stays on
    chips: int
    bet_text: str  # the bet it came from


class PrisonRelease(Record, kw_only=False):
    """An imprisoned even-chance bet this spin decides: freed when its chance won, else taken."""
    prisoner: Prisoner
    freed: bool  # its chance won: returned to the player, not paid; otherwise taken


TYPE_CHECKING = False  # typing's flag, which mypy reads, without importing typing at start-up
if TYPE_CHECKING:
    from typing import NamedTuple

    class _Settled(NamedTuple):
        bet: Bet
        number: int
        won: Fraction  # chips the bank pays
        kept: Fraction  # chips of the stake that stay the player's
        lost: Fraction  # chips of the stake the bank collects
        imprisoned: Fraction  # chips put en prison (FR)
else:  # the same tuple for the interpreter, without typing's import
    _Settled = namedtuple("_Settled", "bet number won kept lost imprisoned")


class SettledBet(_Settled):
    """One bet settled (a tuple: a full table settles hundreds of them per result)."""

    __slots__ = ()

    @property
    def stake(self) -> int:
        return self.bet.stake

    @property
    def category(self) -> str:
        return self.bet.category

    @property
    def winning_units(self) -> tuple[tuple[Position, int], ...]:
        """The bet's winning positions with their chips, opened up before paying (PT-A 29)."""
        return tuple((p, chips) for p, chips in self.bet.units if self.number in p.numbers)


class OwnerTotal(Record, kw_only=False):
    """One owner's totals for a spin: staked, won, kept, lost, imprisoned."""
    owner: str | None
    staked: int
    won: Fraction
    kept: Fraction
    lost: Fraction
    imprisoned: Fraction
    freed: int  # prison chips of an earlier spin given back
    taken: int  # prison chips of an earlier spin collected
    chip_value: Decimal | None

    @property
    def stacks(self) -> int:
        """Full stacks of 20 in the payment."""
        return int(self.won // STACK)

    @property
    def remainder(self) -> Fraction:
        """What is left of the payment after the stacks, spread out ("em fita")."""
        return self.won - STACK * self.stacks

    @property
    def money(self) -> Decimal | None:
        """The payment in money, when the owner's chip value is known."""
        if self.chip_value is None:
            return None
        return self.chip_value * self.won.numerator / self.won.denominator


class Settlement(Record, kw_only=False):
    """A spin settled: its lines in the payout order, releases and owners' totals."""
    number: int
    colour: str
    profile_id: str
    lines: tuple[SettledBet, ...]  # losers first (collected), then winners in payout order
    releases: tuple[PrisonRelease, ...]  # the prisoners given in, freed or taken
    imprisoned: tuple[Prisoner, ...]  # prisoners to carry into the next spin
    owners: tuple[OwnerTotal, ...]  # in order of first appearance among the bets

    @property
    def collected(self) -> Fraction:
        return sum((line.lost for line in self.lines), Fraction(0))

    @property
    def paid(self) -> Fraction:
        return sum((line.won for line in self.lines), Fraction(0))


_FRACTIONS: dict[int, Fraction] = {}


def _chips(halves: int) -> Fraction:
    """`halves` half-chips as a Fraction; small values are shared, as Fractions are immutable."""
    found = _FRACTIONS.get(halves)
    if found is None:
        found = Fraction(halves, 2)
        if halves < 20000:
            _FRACTIONS[halves] = found
    return found


def settle(number: int, bets: Sequence[Bet], profile: Profile, *,
           imprisoned: Sequence[Prisoner] = (),
           chip_values: Mapping[str, Decimal] | None = None) -> Settlement:
    """Settle `bets` for the winning `number` under `profile`.

    `imprisoned` are the prisoners an earlier settlement returned (FR en prison); each is freed if
    its chance wins now and taken if it loses, zero included: the original ("Se vincente il colpo
    successivo verrà liberato, mentre sarà incamerato se perdente") knows only winning and losing.
    `chip_values` maps an owner to the value of one of its chips, for the payout in money.
    """
    check_number(number)
    zero_rule = profile.zero.simple_chances
    if imprisoned and zero_rule != ZeroChances.EN_PRISON:
        raise ValueError(f"{profile.id} has no en prison ({profile.zero.rule}), yet chips are "
                         "imprisoned")
    # owner -> chips staked; half-chips won, kept, lost, imprisoned; prison chips freed, taken
    totals: dict[str | None, list[int]] = {}
    losers, winners, prisoners = [], [], []
    zero = number == 0
    nothing = _chips(0)
    known = _FRACTIONS.get
    for index, bet in enumerate(bets):
        stake = bet.stake
        prison = 0
        if zero and bet.kind == "simple":
            won = 0
            if zero_rule == ZeroChances.LOSE:  # PT-A 28, SRIJ 21
                kept = 0
            elif zero_rule == ZeroChances.HALF_BACK:  # PT-B 29, RU 4.11: half the stake comes back
                kept = stake
            else:  # FR: halved at once, an odd chip goes en prison
                kept, prison = stake // 2 * 2, stake % 2 * 2
                if prison:
                    prisoners.append(Prisoner(bet.owner, bet.recipe[0][0], 1, bet.text))
        else:
            won, kept = bet.outcomes[number]
            if won or kept:
                won, kept = won * bet.chips, kept * bet.chips
        lost = 2 * stake - kept - prison
        if won or kept or prison:
            line = SettledBet(bet, number, _chips(won), _chips(kept), _chips(lost), _chips(prison))
            if won:
                winners.append((index, line))  # sorted into the payout order below
            else:
                losers.append(line)
        else:  # most bets of a full table: lost whole
            losers.append(SettledBet(bet, number, nothing, nothing, known(lost) or _chips(lost), nothing))
        total = totals.get(bet.owner)
        if total is None:
            total = totals[bet.owner] = [0] * 7
        total[0] += stake
        total[3] += lost
        if won or kept or prison:
            total[1] += won
            total[2] += kept
            total[4] += prison

    releases = []
    for prisoner in imprisoned:
        freed = number in prisoner.position.numbers
        releases.append(PrisonRelease(prisoner, freed))
        total = totals.setdefault(prisoner.owner, [0] * 7)
        total[5 if freed else 6] += prisoner.chips

    order = _payout_key(profile, bets)
    winners.sort(key=lambda item: order(item[0], item[1].bet))
    values = chip_values or {}
    owners = tuple(
        OwnerTotal(owner, staked, _chips(won), _chips(kept), _chips(lost),
                   _chips(prison), freed, taken, None if owner is None else values.get(owner))
        for owner, (staked, won, kept, lost, prison, freed, taken) in totals.items()
    )
    return Settlement(
        number, colour(number), profile.id,
        tuple(losers) + tuple(line for _, line in winners),
        tuple(releases), tuple(prisoners), owners,
    )


def _payout_key(profile: Profile, bets: Sequence[Bet]):
    """Sort key for winning bets: the profile's category order (PT-A 29, PT-B 30); one owner's
    bets together within a category (PT-A 30); under FR the multiple chances owner by owner,
    colour chips before value chips."""
    payout = profile.payout
    rank = {category: at for at, category in enumerate(payout.order)}
    first_seen: dict[str | None, int] = {}
    for index, bet in enumerate(bets):
        first_seen.setdefault(bet.owner, index)

    def key(index: int, bet: Bet) -> tuple:
        value_last = payout.colour_before_value and bet.owner == VALUE_CHIPS
        owner = first_seen[bet.owner]
        if payout.multiple_chances_by_owner and bet.category not in OUTSIDE_CATEGORIES:
            return (1, value_last, owner, rank[bet.category], index)
        return (0, rank[bet.category], value_last, owner, index)

    return key
