"""What the table's regulation profile (croupier.rules.profiles) says for each table procedure.

The profile is the one the journal recorded (its text), never today's file of the same id; the
limits are its caps at the table minimum, lowered by the table sign in force."""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from croupier.rules.limits import SignError, TableLimits, TableSign, sign_from_data, sign_problem, table_limits
from croupier.rules.profiles import Profile, ProfileError, ReliefKind, load_profile, profile_from_text
from croupier.table.events import Role
from croupier.table.refusal import ProfileUnusable, SignNotAllowed, SignUnreadable, TableNotOpen
from croupier.table.state import TableState

WARNING_LEAD = timedelta(minutes=5)  # how early the screen warns that a relief or a ball change is due


def profile_of(state: TableState) -> Profile:
    if state.profile is None:
        raise TableNotOpen()
    if state.rules:
        return profile_from_text(state.rules, f"the journal's {state.profile}")
    return load_profile(state.profile)  # a journal from before the rules were recorded


def minimum_of(state: TableState) -> Decimal:
    """The table minimum; refused when the table is not open."""
    if state.minimum is None:
        raise TableNotOpen()
    return state.minimum


def ball_in_play_of(state: TableState) -> str:
    """The ball in play; refused when the table is not open."""
    if state.ball_in_play is None:
        raise TableNotOpen()
    return state.ball_in_play


def sign_of(state: TableState) -> TableSign:
    """The table sign in force, as recorded."""
    try:
        return sign_from_data(state.sign)
    except SignError as exc:
        raise SignUnreadable(str(exc)) from None


def limits_of(state: TableState) -> TableLimits:
    """The table's limits now: the profile's caps at the minimum, lowered by the sign."""
    return table_limits(profile_of(state), minimum_of(state), sign_of(state))


def rule(state: TableState, topic: str) -> str:
    """The rule the profile cites for a topic (`relief` -> `PT-A 33`)."""
    return profile_of(state).rules[topic]


def checked_profile(profile_id: str, house: str | Path | None = None) -> Profile:
    try:
        return load_profile(profile_id, house)
    except ProfileError as exc:
        raise ProfileUnusable(str(exc)) from None


def checked_sign(profile: Profile, minimum, sign: TableSign) -> None:
    """A sign the profile's caps allow at this minimum; a refusal naming the sign's key otherwise."""
    problem = sign_problem(profile, minimum, sign)
    if problem is not None:
        raise SignNotAllowed(f"table sign {problem}", problem.key, problem.code, problem.facts)


def relief_interval(state: TableState, role: Role) -> timedelta | None:
    """The longest a croupier (or, under `RU 4.4`, an inspector) stays on; None where no rule says."""
    relief = profile_of(state).relief
    if relief.kind == ReliefKind.NONE:
        return None
    if role is Role.INSPECTOR and relief.kind != ReliefKind.EQUAL_INTERVALS:
        return None  # PT-A 33, PT-B 35 speak of the croupier who spins the ball only
    minutes = state.relief_minutes if relief.configurable and state.relief_minutes else relief.minutes
    return timedelta(minutes=minutes) if minutes is not None else None


def ball_swap_interval(state: TableState) -> timedelta | None:
    """`PT-A 17`, `PT-B 17`: the balls alternate hour by hour; None where the dealer decides (`RU 4.13`)."""
    minutes = profile_of(state).ball_swap_minutes
    return timedelta(minutes=minutes) if minutes else None
