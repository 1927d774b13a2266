"""What the screen should tell the croupier now: things falling due, derived from the state and
the clock, never recorded. (What is late is an alarm, recorded: croupier.table.alarms.)"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from croupier.table.colours import must_exchange
from croupier.table.regulation import WARNING_LEAD, ball_swap_interval, profile_of, relief_interval
from croupier.table.state import Phase, TableState


@dataclass(frozen=True)
class Notice:
    kind: str  # relief-due, ball-swap-due, exchange-colour, invite-to-end, countdown
    text: str
    rule: str


def notices(state: TableState, now: datetime) -> list[Notice]:
    if state.phase is Phase.CLOSED:
        return []
    profile = profile_of(state)
    found = []
    for role, duty in sorted(state.on_duty.items()):
        interval = relief_interval(state, role)
        if interval is not None and now >= duty.since + interval - WARNING_LEAD:
            left = _minutes(duty.since + interval - now)
            found.append(Notice("relief-due", f"relieve {role.value} {duty.name} " +
                                (f"within {left} min" if left > 0 else "now"), profile.relief.rule))
    interval = ball_swap_interval(state)
    if interval is not None and state.ball_in_play and now >= state.ball_since + interval - WARNING_LEAD:
        left = _minutes(state.ball_since + interval - now)
        found.append(Notice("ball-swap-due", f"ball change due {f'in {left} min' if left > 0 else 'now'}: "
                            f"announce it and put the other ball in play", profile.rules["ball_swap"]))
    inactivity = profile.inactivity
    for colour, account in state.accounts.items():
        if must_exchange(state, account):
            found.append(Notice("exchange-colour", f"{colour} ({account.player}) has not bet for "
                                f"{account.idle_spins} spins while players wait: it exchanges all its chips",
                                inactivity.rule))
        elif inactivity.action == "invite-to-end" and account.idle_spins >= inactivity.after_spins:
            # SRIJ 31-32: invited, then warned: the session ends if no bet comes at the next spin.
            found.append(Notice("invite-to-end", f"{colour} ({account.player}) has not bet for "
                                f"{account.idle_spins} spins: invite them to end the session",
                                inactivity.rule))
    if state.countdown_until and now < state.countdown_until:
        found.append(Notice("countdown", f"bets close in {(state.countdown_until - now).total_seconds():.0f} s",
                            profile.betting_period.rule))
    return found


def _minutes(delta) -> int:
    return max(0, int(-(-delta.total_seconds() // 60)))
