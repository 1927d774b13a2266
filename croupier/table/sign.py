"""The table sign during the day (`FR`: management may change the limits; the sign changes and the
players are told): the pit boss posts a new one between spins, recorded with its content."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from croupier.rules.limits import SignError, sign_from_data, table_limits
from croupier.table.cycle import IN_SPIN
from croupier.table.events import Event, Role, SignChanged
from croupier.table.refusal import (
    SignAboveColourChip, SignBetweenSpins, SignNotAllowed, SignReasonMissing, SignUnchanged,
)
from croupier.table.regulation import checked_sign, minimum_of, profile_of
from croupier.table.roles import authorise
from croupier.table.state import TableState


def change_sign(state: TableState, now: datetime, *, sign: Mapping[str, Any], reason: str, by: str,
                pin: str) -> list[Event]:
    """Post `sign` (its tables or its `section.kind` keys; empty: the profile's caps alone)."""
    profile = profile_of(state)  # refused when the table is not open
    authorise(state, by, pin, Role.PIT_BOSS, to="change the table sign")
    if state.phase in IN_SPIN:
        raise SignBetweenSpins()
    try:
        posted = sign_from_data(sign)
    except SignError as exc:
        raise SignNotAllowed(f"table sign {exc}", exc.key, exc.code, exc.facts) from None
    checked_sign(profile, state.minimum, posted)
    # Under every profile, one chip of a colour in play over the plein maximum would make its every
    # plein over the limit; where a colour chip is worth at most the plein maximum, a posted value a
    # colour may be given now is kept under it too.
    plein_now = table_limits(profile, minimum_of(state), sign_from_data(state.sign)).maxima["plein"]
    plein = table_limits(profile, minimum_of(state), posted).maxima["plein"]
    values = {account.chip_value for account in state.accounts.values()}
    if profile.colour_chips.up_to_plein_maximum:
        values |= {value for value in state.posted_values if value <= plein_now}
    above = max((value for value in values if value > plein), default=None)
    if above is not None:
        rule = profile.colour_chips.rule if profile.colour_chips.up_to_plein_maximum else profile.limits.rule
        raise SignAboveColourChip(amount=above, maximum=plein, rule=rule)
    new = posted.as_data()
    if new == state.sign:
        raise SignUnchanged()
    if not reason.strip():
        raise SignReasonMissing()
    return [SignChanged(sign=new, previous=dict(state.sign), reason=reason.strip(), by=by)]
