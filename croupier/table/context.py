"""The journal's own context changed at the table: the currency and time zone every reader shows
the journal in. The opening records the configuration's; a pit boss changes either (with PIN and
a reason) between spins. A shift's money is in one currency, so every report labels each amount
rightly with no splitting: the currency changes only before the shift's first counted spin or chips
moved (colour chips given or cashed, bets); after that the table is closed and opened in the new one."""
from __future__ import annotations

import re
from datetime import datetime

from croupier.table.cycle import IN_SPIN
from croupier.table.events import ContextChanged, Event, Role
from croupier.table import refusal as no
from croupier.table.roles import authorise
from croupier.table.state import Phase, TableState

_CURRENCY = re.compile(r"[A-Z]{3}")  # ISO 4217's form


def known_zone(name: str) -> bool:
    """Whether the time zone database knows `name` ("Europe/Lisbon"): a zone no reader could use
    is never recorded."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def change_context(state: TableState, now: datetime, *, reason: str, by: str, pin: str,
                   currency: str | None = None, time_zone: str | None = None) -> list[Event]:
    """Record a new currency and/or time zone (None: unchanged) for every reader from now on."""
    if state.phase is Phase.CLOSED:
        raise no.TableNotOpen()
    authorise(state, by, pin, Role.PIT_BOSS, to="change the currency or time zone")
    if state.phase in IN_SPIN:
        raise no.ContextBetweenSpins()
    currency = currency.strip().upper() if currency else None
    time_zone = time_zone.strip() if time_zone else None
    currency = None if currency == state.currency else currency
    time_zone = None if time_zone == state.time_zone else time_zone
    if currency is None and time_zone is None:
        raise no.ContextUnchanged()
    if currency is not None and not _CURRENCY.fullmatch(currency):
        raise no.ContextCurrencyInvalid(currency=currency)
    if currency is not None and state.money_moved:
        raise no.ContextCurrencyShiftStarted()
    if time_zone is not None and not known_zone(time_zone):
        raise no.ContextZoneUnknown(time_zone=time_zone)
    if not reason.strip():
        raise no.ContextReasonMissing()
    return [ContextChanged(currency=currency, time_zone=time_zone, previous_currency=state.currency,
                           previous_time_zone=state.time_zone, reason=reason.strip(), by=by)]
