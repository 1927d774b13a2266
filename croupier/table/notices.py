"""What the screen should tell the croupier now: things falling due, derived from the state and
the clock, never recorded. (What is late is an alarm, recorded: croupier.table.alarms.)

A notice holds facts, not words: the screens word it in the table's language.
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from croupier.rules.record import Record
from croupier.table.colours import must_exchange
from croupier.table.events import Role
from croupier.table.regulation import WARNING_LEAD, ball_swap_interval, profile_of, relief_interval
from croupier.table.state import Phase, TableState


class NoticeKind(StrEnum):
    RELIEF_DUE = "relief-due"
    BALL_SWAP_DUE = "ball-swap-due"
    EXCHANGE_COLOUR = "exchange-colour"  # PT-A 12: it exchanges all its chips
    INVITE_TO_END = "invite-to-end"  # SRIJ 31-32: invited, then warned; the session ends without a bet
    COUNTDOWN = "countdown"


class Notice(Record):
    """A notice the table gives the croupier: a procedure due, with its rule."""
    kind: NoticeKind
    rule: str
    role: Role | None = None  # relief-due: who is due for relief
    name: str | None = None
    minutes: int | None = None  # relief-due, ball-swap-due: minutes left, 0 when due now
    colour: str | None = None  # exchange-colour, invite-to-end: the colour and its player
    player: str | None = None
    spins: int | None = None  # the spins the colour sat out
    seconds: int | None = None  # countdown: seconds of betting left


def notices(state: TableState, now: datetime) -> list[Notice]:
    if state.phase is Phase.CLOSED:
        return []
    profile = profile_of(state)
    found = []
    for role, duty in sorted(state.on_duty.items()):
        interval = relief_interval(state, role)
        if interval is not None and now >= duty.since + interval - WARNING_LEAD:
            found.append(Notice(kind=NoticeKind.RELIEF_DUE, rule=profile.relief.rule, role=role, name=duty.name,
                                minutes=_minutes(duty.since + interval - now)))
    interval = ball_swap_interval(state)
    if interval is not None and state.ball_in_play and state.ball_since and now >= state.ball_since + interval - WARNING_LEAD:
        found.append(Notice(kind=NoticeKind.BALL_SWAP_DUE, rule=profile.rules["ball_swap"],
                            minutes=_minutes(state.ball_since + interval - now)))
    inactivity = profile.inactivity
    for colour, account in state.accounts.items():
        if must_exchange(state, account):
            kind = NoticeKind.EXCHANGE_COLOUR
        elif (inactivity.action == "invite-to-end" and inactivity.after_spins is not None
              and account.idle_spins >= inactivity.after_spins):
            kind = NoticeKind.INVITE_TO_END
        else:
            continue
        found.append(Notice(kind=kind, rule=inactivity.rule, colour=colour, player=account.player,
                            spins=account.idle_spins))
    if state.countdown_until and now < state.countdown_until:
        found.append(Notice(kind=NoticeKind.COUNTDOWN, rule=profile.betting_period.rule,
                            seconds=round((state.countdown_until - now).total_seconds())))
    return found


def _minutes(delta) -> int:
    return max(0, int(-(-delta.total_seconds() // 60)))
