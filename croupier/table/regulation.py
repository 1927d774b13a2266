"""What the table's regulation profile (croupier.rules.profiles) says for each table procedure."""
from __future__ import annotations

from datetime import timedelta

from croupier.rules.profiles import Profile, ProfileError, load_profile
from croupier.table.events import Role
from croupier.table.refusal import Refused
from croupier.table.state import TableState

WARNING_LEAD = timedelta(minutes=5)  # how early the screen warns that a relief or a ball change is due


def profile_of(state: TableState) -> Profile:
    if state.profile is None:
        raise Refused("the table is not open")
    return load_profile(state.profile)


def rule(state: TableState, topic: str) -> str:
    """The rule the profile cites for a topic (`relief` -> `PT-A 33`)."""
    return profile_of(state).rules[topic]


def checked_profile(profile_id: str) -> Profile:
    try:
        return load_profile(profile_id)
    except ProfileError as exc:
        raise Refused(str(exc)) from None


def relief_interval(state: TableState, role: Role) -> timedelta | None:
    """The longest a croupier (or, under `RU 4.4`, an inspector) stays on; None where no rule says."""
    relief = profile_of(state).relief
    if relief.kind == "none":
        return None
    if role is Role.INSPECTOR and relief.kind != "equal-intervals":
        return None  # PT-A 33, PT-B 35 speak of the croupier who spins the ball only
    minutes = state.relief_minutes if relief.configurable and state.relief_minutes else relief.minutes
    return timedelta(minutes=minutes)


def ball_swap_interval(state: TableState) -> timedelta | None:
    """`PT-A 17`, `PT-B 17`: the balls alternate hour by hour; None where the dealer decides (`RU 4.13`)."""
    minutes = profile_of(state).ball_swap_minutes
    return timedelta(minutes=minutes) if minutes else None
