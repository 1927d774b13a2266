"""What the screen should tell the croupier now: things falling due, derived from the state and
the clock, never recorded. (What is late is an alarm, recorded: croupier.table.alarms.)

A notice holds facts, not words: the screens word it in the table's language.
"""
from __future__ import annotations

from datetime import datetime

from croupier.rules.profiles import InactivityAction
from croupier.rules.record import Record
from croupier.table.colours import must_exchange
from croupier.table.events import Role
from croupier.table.regulation import WARNING_LEAD, ball_swap_interval, profile_of, relief_interval
from croupier.table.state import Phase, TableState


class Notice(Record):
    """A notice the table gives the croupier: a procedure due, with its rule. One class per kind."""
    rule: str


class ReliefDue(Notice):
    role: Role  # who is due for relief
    name: str
    minutes: int  # left, 0 when due now


class BallSwapDue(Notice):
    minutes: int  # left, 0 when due now


class ColourIdle(Notice):
    colour: str  # the colour that sat out, and its player
    player: str | None
    spins: int  # the spins it sat out


class ExchangeColour(ColourIdle):
    """PT-A 12: it exchanges all its chips."""


class InviteToEnd(ColourIdle):
    """SRIJ 31-32: invited, then warned; the session ends without a bet."""


class Countdown(Notice):
    seconds: int  # of betting left


def notices(state: TableState, now: datetime) -> list[Notice]:
    if state.phase is Phase.CLOSED:
        return []
    profile = profile_of(state)
    found: list[Notice] = []
    for role, duty in sorted(state.on_duty.items()):
        interval = relief_interval(state, role)
        if interval is not None and now >= duty.since + interval - WARNING_LEAD:
            found.append(ReliefDue(rule=profile.relief.rule, role=role, name=duty.name,
                                   minutes=_minutes(duty.since + interval - now)))
    interval = ball_swap_interval(state)
    if interval is not None and state.ball_in_play and state.ball_since and now >= state.ball_since + interval - WARNING_LEAD:
        found.append(BallSwapDue(rule=profile.rules["ball_swap"],
                                 minutes=_minutes(state.ball_since + interval - now)))
    inactivity = profile.inactivity
    for colour, account in state.accounts.items():
        idle: type[ColourIdle]
        if must_exchange(state, account):
            idle = ExchangeColour
        elif (inactivity.action == InactivityAction.INVITE_TO_END and inactivity.after_spins is not None
              and account.idle_spins >= inactivity.after_spins):
            idle = InviteToEnd
        else:
            continue
        found.append(idle(rule=inactivity.rule, colour=colour, player=account.player, spins=account.idle_spins))
    if state.countdown_until and now < state.countdown_until:
        found.append(Countdown(rule=profile.betting_period.rule,
                               seconds=round((state.countdown_until - now).total_seconds())))
    return found


def _minutes(delta) -> int:
    return max(0, int(-(-delta.total_seconds() // 60)))
