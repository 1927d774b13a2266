"""Croupier relief: `PT-A 33` at most one hour at the wheel; `PT-B 35` at least every half hour,
any longer stay only for force majeure, reported; `RU 4.4` dealer and inspector at equal
(configured) intervals. Every spin records the croupier who launched it."""
from __future__ import annotations

from datetime import datetime

from croupier.rules.profiles import ReliefKind
from croupier.table.cycle import IN_SPIN
from croupier.table.events import AlarmAnswer, AlarmCleared, AlarmKind, Event, Role, StaffRelieved
from croupier.table.refusal import (
    AlreadyOnDuty, ForceMajeureMissing, PitBossNotRelieved, Refused, ReliefMidSpin, TableNotOpen, choice,
)
from croupier.table.regulation import profile_of, relief_interval
from croupier.table.roles import authorise
from croupier.table.state import Phase, TableState, answered


def check_relief(state: TableState, role: Role) -> Role:
    """Refused unless `role` can be relieved now: a screen asks before anyone types a PIN."""
    if state.phase is Phase.CLOSED:
        raise TableNotOpen()
    role = choice(Role, role, what="a role")
    if role is Role.PIT_BOSS:
        raise PitBossNotRelieved()
    if role is Role.CROUPIER and state.phase in IN_SPIN:
        raise ReliefMidSpin()
    return role


def relieve(state: TableState, now: datetime, *, role: Role, incoming: str, pin: str,
            reason: str | None = None) -> list[Event]:
    """`incoming` takes over as croupier (or inspector), confirming with their own PIN."""
    role = check_relief(state, role)
    authorise(state, incoming, pin, role, to=f"take over as {role.value}")
    duty = state.on_duty.get(role)
    if duty is not None and duty.name == incoming:
        raise AlreadyOnDuty(incoming=incoming, role=role.value)
    interval = relief_interval(state, role)
    overdue = duty is not None and interval is not None and now > duty.since + interval
    late = duty.name if duty is not None and overdue else None
    relief = profile_of(state).relief
    reason = (reason or "").strip() or None
    if overdue and relief.kind == ReliefKind.AT_MOST_OR_FORCE_MAJEURE and reason is None:
        raise ForceMajeureMissing(name=late or "", minutes=int(interval.total_seconds() // 60) if interval else None,
                                  rule=relief.rule)
    # The relief answers the overdue alarm of that role: it ends with it, as the table's screen shows.
    ended = [AlarmCleared(alarm=alarm, note=f"relief done: {incoming} took over as {role.value}", by=incoming,
                          answer=AlarmAnswer.RELIEF)
             for alarm in answered(state.alarms, AlarmKind.RELIEF_OVERDUE, role)]
    return [StaffRelieved(role=role, outgoing=duty.name if duty else None, incoming=incoming,
                          overdue=overdue, reason=reason), *ended]
