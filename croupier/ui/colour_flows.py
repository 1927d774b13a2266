"""Colour chips at the table (§7): a free colour given to a player with the value they choose
(`PT-A 13`, the value the profile allows), chips added, the colour cashed out (`PT-A 15`; by the
`PT-A 12` rule when it sat out three spins while others wait), late chips at the table minimum, and
the waiting list. Players are named by their seat. A table of value chips only (`PT-B 15b`) has no
colours: its menu is refused. Under `FR`, colour chips of another table played here by mistake are
settled from this menu: paid if they win, at their real value or else at their own table's minimum;
taken if they lose."""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from croupier.history.words import CHIP_COLOURS, plural_of
from croupier.i18n import N_, _, ngettext
from croupier.table.colours import check_chip_value, check_colour_chips, check_foreign_chips, must_exchange
from croupier.table.regulation import minimum_of, profile_of
from croupier.session import recorded
from croupier.table import events as ev
from croupier.table.events import CashOutReason
from croupier.ui import text
from croupier.ui.asking import choose, colour_in_play, number

if TYPE_CHECKING:
    from croupier.ui.app import TableApp


def seat(number_: int) -> str:
    return _("seat {number}").format(number=number_)


async def assign(app: TableApp) -> None:
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
    values = " · ".join(text.money(v) for v in sorted({minimum_of(state), *state.posted_values}))
    allowed = _("Values at this table ({currency}): {values}").format(currency=app.currency, values=values)
    note = allowed
    while True:  # a value refused is asked again, the refusal its note: the colour and the player stay chosen
        value = await number(app, _("Value of a {colour} chip").format(colour=text.colour_name(colour)),
                             _("Value:"), note=note, least=1)
        if value is None:
            return
        if app.check(check_chip_value, Decimal(value)):  # refused before the chips are counted
            break
        note = app.standing_refusal() or allowed
    chips = await number(app, _("Chips for {colour}").format(colour=text.colour_name(colour)), _("Chips:"), least=1)
    if chips is None:
        return
    if app.record(app.session.assign_colour, colour=colour, player=player, chip_value=Decimal(value), chips=chips,
                  by=app.croupier() or ""):
        app.say(ngettext("{colour} to {player}: {chips} chip of {value}",
                         "{colour} to {player}: {chips} chips of {value}", chips).format(
            colour=text.colour_name(colour), player=player, chips=chips,
            value=text.money(Decimal(value), app.currency)))


async def add_chips(app: TableApp) -> None:
    colour = await colour_in_play(app, _("Add chips to"))
    if colour is None:
        return
    chips = await number(app, _("Chips for {colour}").format(colour=text.colour_name(colour)), _("Chips:"), least=1)
    if chips is not None:
        app.record(app.session.issue_chips, colour=colour, chips=chips, by=app.croupier() or "")


async def cash_out(app: TableApp) -> None:
    state = app.session.state
    colour = await colour_in_play(app, _("Cash out"))
    if colour is None:
        return
    account = state.accounts[colour]
    chips = await number(app, _("Cash out {colour}").format(colour=text.colour_name(colour)), _("Chips counted:"),
                         note=ngettext("The record says {chips} chip", "The record says {chips} chips",
                                       plural_of(account.held)).format(chips=text.chips(account.held)))
    if chips is None:
        return
    reason = CashOutReason.INACTIVE if must_exchange(state, account) else CashOutReason.LEFT
    paid = recorded(app.record(app.session.cash_out, colour=colour, chips=chips, by=app.croupier() or "",
                               reason=reason), ev.ColourCashedOut)
    if paid:
        app.say(ngettext("{colour}: {chips} chip × {value} = {amount}", "{colour}: {chips} chips × {value} = {amount}",
                         paid.chips).format(
            colour=text.colour_name(colour), chips=paid.chips,
            value=text.money(paid.chip_value, app.currency),
            amount=text.money(paid.amount, app.currency)))


async def late_chips(app: TableApp) -> None:
    state = app.session.state
    colour = await choose(app, _("Late colour chips"), [(text.colour_name(c), c) for c in state.colours],
                          note=_("Chips presented late are worth the table minimum each"))
    if colour is None:
        return
    chips = await number(app, _("Late {colour} chips").format(colour=text.colour_name(colour)), _("Chips:"), least=1)
    if chips is None:
        return
    exchanged = recorded(app.record(app.session.exchange_late_chips, colour=colour, chips=chips,
                                    by=app.croupier() or ""), ev.LateChipsExchanged)
    if exchanged:
        app.say(ngettext("{chips} late chip = {amount}", "{chips} late chips = {amount}", chips).format(
            chips=chips, amount=text.money(exchanged.amount, app.currency)))


async def join_waiting_list(app: TableApp) -> None:
    found = await number(app, _("Waiting list"), _("Seat of the player:"), least=1, max_digits=2)
    if found is not None:
        app.record(app.session.join_waiting_list, player=seat(found))


async def leave_waiting_list(app: TableApp) -> None:
    state = app.session.state
    player = await choose(app, _("Leaves the waiting list"), [(p, p) for p in state.waiting])
    if player is not None:
        app.record(app.session.leave_waiting_list, player=player)


async def foreign_chips(app: TableApp) -> None:
    """FR: colour chips of another table, played here by mistake."""
    if not app.check(check_foreign_chips):
        return
    currency = app.currency
    colour = await choose(app, _("Another table's colour chips: which colour?"),
                          [(text.colour_name(c), c) for c in CHIP_COLOURS])
    if colour is None:
        return
    table = await number(app, _("{colour} chips of another table").format(colour=text.colour_name(colour)),
                         _("Their table's number:"), least=1, max_digits=3)
    if table is None:
        return
    won = await choose(app, _("{colour} chips of table {table}").format(colour=text.colour_name(colour), table=table),
                       [(_("They won: the table pays them"), True), (_("They lost: the table takes them"), False)],
                       note=_("Paid at their real value if it can be determined, otherwise at the minimum of "
                              "their own table; taken if they lose"))
    if won is None:
        return
    value = minimum = None
    if won:
        known = await choose(app, _("What is one of these chips worth?"),
                             [(_("Their real value is known"), True),
                              (_("Not known: their own table's minimum"), False)])
        if known is None:
            return
        amount = await number(app, _("Their real value") if known else _("Their own table's minimum"),
                              _("Amount ({currency}):").format(currency=currency), least=1)
        if amount is None:
            return
        value, minimum = (Decimal(amount), None) if known else (None, Decimal(amount))
    chips = await number(app, _("{colour} chips of table {table}").format(colour=text.colour_name(colour), table=table),
                         _("Chips the win pays:") if won else _("Chips taken:"), least=1)
    if chips is None:
        return
    settled = recorded(app.record(app.session.settle_foreign_chips, colour=colour, table=str(table), chips=chips,
                                  won=won, chip_value=value, table_minimum=minimum, by=app.croupier() or ""),
                       ev.ForeignChipsSettled)
    if settled:
        if settled.won:
            paid_at = settled.chip_value or settled.table_minimum
            assert paid_at is not None, "a win is settled at one of them (ForeignChipsValue refuses it otherwise)"
            app.say(_("{colour} chips of table {table}: {chips} × {value} = {amount} paid").format(
                colour=text.colour_name(colour), table=table, chips=settled.chips,
                value=text.money(paid_at, currency),
                amount=text.money(settled.amount, currency)))
        else:
            app.say(_("{colour} chips of table {table}: {chips} taken").format(
                colour=text.colour_name(colour), table=table, chips=settled.chips))


MENU = (
    (N_("Give a free colour"), assign),
    (N_("Add chips"), add_chips),
    (N_("Cash out a colour"), cash_out),
    (N_("Late colour chips"), late_chips),
    (N_("Waiting list: add"), join_waiting_list),
    (N_("Waiting list: remove"), leave_waiting_list),
)


FOREIGN = (N_("Another table's colour chips"), foreign_chips)  # FR only


async def menu(app: TableApp) -> None:
    if not app.check(check_colour_chips):  # PT-B 15b: a table of value chips only has no colours
        return
    entries = MENU + ((FOREIGN,) if profile_of(app.session.state).colour_chips.foreign_rule else ())
    flow = await choose(app, _("Colours"), [(_(label), flow) for label, flow in entries])
    if flow is not None:
        await flow(app)
