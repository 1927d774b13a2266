"""The pit boss changes the table sign (`FR`: the limits may change during the day; `RU 4.8`: a
minimum and a maximum per kind of bet): one entry at a time, a whole amount typed on the keypad,
within the profile's cap; recorded with the new sign's content, between spins."""
from __future__ import annotations

from typing import TYPE_CHECKING

from decimal import Decimal

from croupier.i18n import _
from croupier.rules.limits import ANNOUNCED_TOTAL
from croupier.table.regulation import limits_of, sign_of
from croupier.ui import text
from croupier.ui.asking import choose, number

if TYPE_CHECKING:
    from croupier.ui.app import TableApp

RESET, CONFIGURED = "reset", "configured"  # choices besides one entry: the profile's caps, the configuration's sign


def _entries(app: TableApp) -> list[tuple[str, tuple[str, str]]]:
    """(label, (section, kind)): each maximum and minimum the sign may post, with what stands now."""
    state, currency = app.session.state, app.currency
    limits = limits_of(state)
    entries = []
    for kind, most in limits.maxima.items():
        entries.append((_("{kind} maximum · now {amount}").format(kind=text.bet_kind(kind),
                                                                  amount=text.money(most, currency)),
                        ("maximum", kind)))
        entries.append((_("{kind} minimum · now {amount}").format(kind=text.bet_kind(kind),
                                                                  amount=text.money(limits.least(kind), currency)),
                        ("minimum", kind)))
    profile = limits.profile
    for kind in (*profile.announced_limits.series, *(["neighbours"] if profile.offers("neighbours") else []),
                 ANNOUNCED_TOTAL):
        posted = limits.announced.get(kind)
        now = text.money(posted, currency) if posted is not None else _("the profile's")
        entries.append((_("{kind} maximum · now {amount}").format(kind=text.bet_kind(kind), amount=now),
                        ("announced", kind)))
    return entries


async def change_sign(app: TableApp, boss: str, boss_pin: str) -> None:
    state = app.session.state
    sign = sign_of(state).as_data()
    options = _entries(app) + [(_("The configuration's sign"), (CONFIGURED, "")),
                               (_("No sign: the profile's caps"), (RESET, ""))]
    chosen = await choose(app, _("Table sign"), options)
    if chosen is None:
        return
    section, kind = chosen
    if section == RESET:
        sign = {}
    elif section == CONFIGURED:
        sign = app.config.table.sign.as_data()
    else:
        amount = await number(app, _("Table sign"), _("{kind}, in {currency}:").format(
            kind=text.bet_kind(kind), currency=app.currency), least=1)
        if amount is None:
            return
        sign[f"{section}.{kind}"] = Decimal(amount)
    from croupier.ui.staff_flows import LIMIT_REASONS  # the menu that offers this flow

    reason = await choose(app, _("Why?"), [(_(r), r) for r in LIMIT_REASONS])
    if reason is not None and app.record(app.session.change_sign, sign=sign, reason=_(reason), by=boss, pin=boss_pin):
        app.say(_("The table sign is changed: tell the players"))
