"""The two balls (`PT-A 17-18`, `PT-B 17`): used alternately hour by hour with the change
announced, and a defective, broken or lost ball replaced only by one of the same diameter."""
from __future__ import annotations

from datetime import datetime

from croupier.table.cycle import IN_SPIN, check_ball
from croupier.table.events import AlarmAnswer, AlarmCleared, AlarmKind, Ball, BallReplaced, BallSwapped, Event
from croupier.table.refusal import (
    BallBetweenSpins, BallDiameterChanged, BallInPlayAlready, BallInPlayReplaced, BallNotNamed, BallReasonMissing,
    BallRegistered, NotABall, NotABallReplaced, Refused, TableNotOpen,
)
from croupier.table.regulation import ball_in_play_of, ball_swap_interval
from croupier.table.roles import known
from croupier.table.state import Phase, TableState, answered


def check_ball_swap(state: TableState) -> None:
    """Refused unless the ball can be changed now: a screen asks before the ball is chosen."""
    if state.phase is Phase.CLOSED:
        raise TableNotOpen()
    if state.phase in IN_SPIN:
        raise BallBetweenSpins()


def swap_ball(state: TableState, now: datetime, *, by: str, ball: str | None = None) -> list[Event]:
    """Put the other ball in play (the named one, at a table with more than two)."""
    check_ball_swap(state)
    others = [b for b in state.balls if b != state.ball_in_play]
    if ball is None:
        if len(others) != 1:
            raise BallNotNamed(others=', '.join(others))
        ball = others[0]
    if ball not in others:
        if ball == state.ball_in_play:
            raise BallInPlayAlready(ball=ball)
        raise NotABall(ball2=repr(ball), balls=', '.join(state.balls))
    interval = ball_swap_interval(state)
    late = interval is not None and state.ball_since is not None and now > state.ball_since + interval
    by = known(state, by)
    # The swap answers the overdue ball swap alarm: it ends with it, as the table's screen shows.
    ended = [AlarmCleared(alarm=alarm, note=f"ball swapped: {ball} in play", by=by, answer=AlarmAnswer.BALL_SWAP)
             for alarm in answered(state.alarms, AlarmKind.BALL_SWAP_OVERDUE)]
    return [BallSwapped(ball=ball, previous=ball_in_play_of(state), late=late, by=by), *ended]


def replace_ball(state: TableState, now: datetime, *, previous: str, ball: Ball, reason: str, by: str) -> list[Event]:
    """`PT-A 18`: the replacement has the diameter of the ball it replaces."""
    if state.phase is Phase.CLOSED:
        raise TableNotOpen()
    old = state.balls.get(previous)
    if old is None:
        raise NotABallReplaced(previous=repr(previous), balls=', '.join(state.balls))
    if previous == state.ball_in_play and state.phase in IN_SPIN:
        raise BallInPlayReplaced()
    check_ball(ball)
    if ball.id in state.balls:
        raise BallRegistered(ball=ball.id)
    if ball.diameter_mm != old.diameter_mm:
        raise BallDiameterChanged(previous=previous, diameter_mm=old.diameter_mm, diameter_mm2=ball.diameter_mm)
    if not reason.strip():
        raise BallReasonMissing()
    return [BallReplaced(previous=previous, ball=ball, reason=reason.strip(), by=known(state, by))]
