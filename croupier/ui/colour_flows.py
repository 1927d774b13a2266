"""Colour chips at the table (§7): a free colour given to a player with the value they choose
(`PT-A 13`, the value the profile allows), chips added, the colour cashed out (`PT-A 15`; by the
`PT-A 12` rule when it sat out three spins while others wait), late chips at the table minimum, and
the waiting list. Players are named by their seat."""
from __future__ import annotations

from decimal import Decimal

from croupier.i18n import N_, _
from croupier.table.colours import check_chip_value, must_exchange
from croupier.table.events import CashOutReason
from croupier.ui import text
from croupier.ui.asking import choose, colour_in_play, number


def seat(number_: int) -> str:
    return _("seat {number}").format(number=number_)


async def assign(app) -> None:
    state = app.session.state
    if state.waiting:
        player = state.waiting[0]  # PT-A 12: the first who waits has the next free colour
    else:
        found = await number(app, _("Give a colour"), _("Seat of the player:"), least=1, max_digits=2)
        if found is None:
            return
        player = seat(found)
    colour = await choose(app, _("Free colour for {player}").format(player=player),
                          [(text.colour_name(c), c) for c in state.free_colours()])
    if colour is None:
        return
    values = " · ".join(text.money(v) for v in sorted({state.minimum, *state.posted_values}))
    while True:  # a value refused is asked again: the colour and the player stay chosen
        value = await number(app, _("Value of a {colour} chip").format(colour=text.colour_name(colour)),
                             _("Value:"), note=_("Values at this table ({currency}): {values}").format(
                                 currency=app.config.table.currency, values=values), least=1)
        if value is None:
            return
        if app.check(check_chip_value, Decimal(value)):  # refused before the chips are counted
            break
    chips = await number(app, _("Chips for {colour}").format(colour=text.colour_name(colour)), _("Chips:"), least=1)
    if chips is None:
        return
    if app.record("assign_colour", colour=colour, player=player, chip_value=Decimal(value), chips=chips,
                  by=app.croupier()):
        app.say(_("{colour} to {player}: {chips} chips of {value}").format(
            colour=text.colour_name(colour), player=player, chips=chips,
            value=text.money(Decimal(value), app.config.table.currency)))


async def add_chips(app) -> None:
    colour = await colour_in_play(app, _("Add chips to"))
    if colour is None:
        return
    chips = await number(app, _("Chips for {colour}").format(colour=text.colour_name(colour)), _("Chips:"), least=1)
    if chips is not None:
        app.record("issue_chips", colour=colour, chips=chips, by=app.croupier())


async def cash_out(app) -> None:
    state = app.session.state
    colour = await colour_in_play(app, _("Cash out"))
    if colour is None:
        return
    account = state.accounts[colour]
    chips = await number(app, _("Cash out {colour}").format(colour=text.colour_name(colour)), _("Chips counted:"),
                         note=_("The record says {chips} chips").format(chips=text.chips(account.held)))
    if chips is None:
        return
    reason = CashOutReason.INACTIVE if must_exchange(state, account) else CashOutReason.LEFT
    events = app.record("cash_out", colour=colour, chips=chips, by=app.croupier(), reason=reason)
    if events:
        paid = events[-1]
        app.say(_("{colour}: {chips} chips × {value} = {amount}").format(
            colour=text.colour_name(colour), chips=paid.chips,
            value=text.money(paid.chip_value, app.config.table.currency),
            amount=text.money(paid.amount, app.config.table.currency)))


async def late_chips(app) -> None:
    state = app.session.state
    colour = await choose(app, _("Late colour chips"), [(text.colour_name(c), c) for c in state.colours],
                          note=_("Chips presented late are worth the table minimum each"))
    if colour is None:
        return
    chips = await number(app, _("Late {colour} chips").format(colour=text.colour_name(colour)), _("Chips:"), least=1)
    if chips is None:
        return
    events = app.record("exchange_late_chips", colour=colour, chips=chips, by=app.croupier())
    if events:
        app.say(_("{chips} late chips = {amount}").format(
            chips=chips, amount=text.money(events[-1].amount, app.config.table.currency)))


async def join_waiting_list(app) -> None:
    found = await number(app, _("Waiting list"), _("Seat of the player:"), least=1, max_digits=2)
    if found is not None:
        app.record("join_waiting_list", player=seat(found))


async def leave_waiting_list(app) -> None:
    state = app.session.state
    player = await choose(app, _("Leaves the waiting list"), [(p, p) for p in state.waiting])
    if player is not None:
        app.record("leave_waiting_list", player=player)


MENU = (
    (N_("Give a free colour"), assign),
    (N_("Add chips"), add_chips),
    (N_("Cash out a colour"), cash_out),
    (N_("Late colour chips"), late_chips),
    (N_("Waiting list: add"), join_waiting_list),
    (N_("Waiting list: remove"), leave_waiting_list),
)


async def menu(app) -> None:
    flow = await choose(app, _("Colours"), [(_(label), flow) for label, flow in MENU])
    if flow is not None:
        await flow(app)
