"""Alarms: raised when a procedure is late or broken, acknowledged by staff, cleared by a pit boss.

An alarm is recorded (part of the state and the journal), unlike the notices a screen shows
before something falls due (croupier.table.notices).
"""
from __future__ import annotations

from datetime import datetime

from croupier.table.events import AlarmAcknowledged, AlarmCleared, AlarmFacts, AlarmKind, AlarmRaised, Event, Role
from croupier.table.refusal import AlarmAcknowledgedAlready, AlarmReasonMissing, NoOpenAlarm
from croupier.table.regulation import ball_swap_interval, relief_interval, rule
from croupier.table.roles import authorise, known
from croupier.table.state import Phase, TableState


def raise_alarm(state: TableState, kind: AlarmKind, subject: str, detail: str,
                offset: int = 0, facts: AlarmFacts | None = None) -> AlarmRaised:
    """`offset` numbers several alarms raised by one command."""
    return AlarmRaised(alarm=state.next_alarm + offset, alarm_kind=kind, subject=subject, detail=detail,
                       facts=facts)


def relief_subject(role: Role, name: str, since: datetime) -> str:
    return f"{role.value} {name} on since {since.isoformat(timespec='seconds')}"


def ball_subject(ball: str, since: datetime) -> str:
    return f"ball {ball} in play since {since.isoformat(timespec='seconds')}"


def due(state: TableState, now: datetime) -> list[Event]:
    """Alarms that fell due by `now` and are not raised yet: a relief or a ball change overdue."""
    if state.phase is Phase.CLOSED:
        return []
    raised = {(a.kind, a.subject) for a in state.alarms.values()}
    found: list[Event] = []

    def late(kind: AlarmKind, subject: str, detail: str, facts: AlarmFacts) -> None:
        if (kind, subject) not in raised:
            found.append(raise_alarm(state, kind, subject, detail, offset=len(found), facts=facts))

    for role, duty in sorted(state.on_duty.items()):
        interval = relief_interval(state, role)
        if interval is not None and now > duty.since + interval:
            minutes, cited = _minutes(interval), rule(state, "relief")
            late(AlarmKind.RELIEF_OVERDUE, relief_subject(role, duty.name, duty.since),
                 f"{duty.name} has been {role.value} for more than {minutes} min ({cited})",
                 AlarmFacts(rule=cited, role=role, name=duty.name, minutes=minutes))
    interval = ball_swap_interval(state)
    if interval is not None and state.ball_in_play and state.ball_since and now > state.ball_since + interval:
        minutes, cited = _minutes(interval), rule(state, "ball_swap")
        late(AlarmKind.BALL_SWAP_OVERDUE, ball_subject(state.ball_in_play, state.ball_since),
             f"ball {state.ball_in_play} has been in play for more than {minutes} min: change and announce it "
             f"({cited})", AlarmFacts(rule=cited, ball=state.ball_in_play, minutes=minutes))
    return found


WHEEL_LINK = "wheel sensor link"


def wheel_fault(state: TableState, now: datetime, *, detail: str, link: str | None = None,
                seconds: int | None = None) -> list[Event]:
    """The wheel sensor went silent or its link failed (`link`: why, for the screens to word it):
    recorded once until a pit boss clears it."""
    if state.phase is Phase.CLOSED or any(a.kind is AlarmKind.WHEEL_FAULT and a.subject == WHEEL_LINK
                                          for a in state.alarms.values()):
        return []
    return [raise_alarm(state, AlarmKind.WHEEL_FAULT, WHEEL_LINK, detail,
                        facts=AlarmFacts(rule="", link=link or "down", seconds=seconds))]


def wheel_numbers_differ(state: TableState, now: datetime, *, number_line: int | None, state_five: int | None,
                         game: int | None, first_state_five: int | None = None,
                         wheel_lines: tuple[str, ...] = ()) -> list[Event]:
    """The wheel gave two numbers for the spin in play (its number line and state 5, or with no
    number line its first two state-5 lines): neither is recorded; the croupier reads the pocket
    and types it, and the pit boss sees both."""
    five = "--" if state_five is None else str(state_five)
    if number_line is None:
        said = f"{first_state_five} then {five} on its state-5 lines (no winning-number line came)"
    else:
        said = f"{number_line} on its winning-number line, {five} on its state-5 line"
    return [raise_alarm(state, AlarmKind.WHEEL_FAULT, f"spin {state.spin}",
                        f"the wheel gave two numbers for spin {state.spin} (game {game}): {said}; neither was "
                        f"recorded: the croupier types the number the ball is in",
                        facts=AlarmFacts(rule="", spin=state.spin, number_line=number_line, state_five=state_five,
                                         first_state_five=first_state_five, wheel_lines=wheel_lines))]


def _minutes(interval) -> int:
    return int(interval.total_seconds() // 60)


def _open_alarm(state: TableState, alarm: int):
    found = state.alarms.get(alarm)
    if found is None:
        raise NoOpenAlarm(alarm=alarm)
    return found


def acknowledge(state: TableState, now: datetime, *, alarm: int, by: str) -> list[Event]:
    """Staff say they have seen the alarm; it stays open until a pit boss clears it."""
    found = _open_alarm(state, alarm)
    if found.acknowledged_by:
        raise AlarmAcknowledgedAlready(alarm=alarm, acknowledged_by=found.acknowledged_by)
    return [AlarmAcknowledged(alarm=alarm, by=known(state, by))]


def clear(state: TableState, now: datetime, *, alarm: int, note: str, by: str, pin: str) -> list[Event]:
    _open_alarm(state, alarm)
    authorise(state, by, pin, Role.PIT_BOSS, to="clear an alarm")
    if not note.strip():
        raise AlarmReasonMissing()
    return [AlarmCleared(alarm=alarm, note=note.strip(), by=by)]
