"""Bets recorded before the spin: announced bets (series, number and neighbours, finales) and the
complete bet, per colour, checked by the session against the table limits; they settle themselves
when the result comes. A colour may take its bets back; winning bets disturbed on the
layout are rebuilt from the record (`PT-A 31`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.i18n import _
from croupier.rules.announced import A_CHEVAL_PAIRS, SERIES
from croupier.session import recorded
from croupier.table import events as ev
from croupier.table.bets import check_betting
from croupier.table.events import Stake
from croupier.table.regulation import profile_of
from croupier.ui import text
from croupier.ui.asking import choose, colour_in_play, number

if TYPE_CHECKING:
    from croupier.ui.app import TableApp


async def _spec(app: TableApp) -> str | None:
    """The bet to place, as the rules' grammar writes it; only what the profile offers."""
    profile = profile_of(app.session.state)
    kinds = [(text.position(name), name) for name in SERIES if profile.offers(name)]
    if profile.neighbour_sides():
        kinds.append((_("number and neighbours"), "neighbours"))
    if profile.offers("complete"):
        kinds.append((_("complete bet"), "complete"))
    if profile.offers("finale-en-plein"):
        kinds.append((_("finale en plein"), "finale"))
    if profile.offers("finale-a-cheval"):
        kinds.append((_("finale à cheval"), "cheval"))
    kind = await choose(app, _("Which bet?"), kinds)
    if kind is None or kind in SERIES:
        return kind
    if kind == "cheval":
        pair = await choose(app, _("Finale à cheval"), [(f"{a}/{b}", (a, b)) for a, b in A_CHEVAL_PAIRS])
        return None if pair is None else f"finale:{pair[0]}/{pair[1]}"
    if kind == "finale":
        digit = await number(app, _("Finale en plein"), _("Final digit:"), most=9, max_digits=1)
        return None if digit is None else f"finale:{digit}"
    centre = await number(app, text.position(kind) if kind != "neighbours" else _("Number and neighbours"),
                          _("Number:"), most=36, max_digits=2)
    if centre is None:
        return None
    if kind == "complete":
        return f"complete:{centre}"
    sides = profile.neighbour_sides()
    each = sides[0] if len(sides) == 1 else await choose(
        app, _("Neighbours each side"), [(_("{sides} each side ({chips} chips)").format(sides=k, chips=2 * k + 1), k)
                                         for k in sides])
    return None if each is None else f"neighbours:{centre}:{each}"


async def place(app: TableApp) -> None:
    if not app.check(check_betting):  # PT-A 20: refused before anything is typed
        return
    colour = await colour_in_play(app, _("Bet for which colour?"))
    if colour is None:
        return
    spec = await _spec(app)
    if spec is None:
        return
    note = ""
    while True:  # chips refused (over a limit, more than the colour holds) are asked again, the refusal its note
        chips = await number(app, text.position(spec), _("Chips per unit:"), least=1, max_digits=3, note=note)
        if chips is None:
            return
        # The session checks the bet against the profile and the limits (PT-A 32), counting what the
        # colour has on the layout already; a bet over a maximum is refused, or cut down where the
        # profile plays it to the maximum.
        events = app.record(app.session.place_bets, colour=colour, stakes=(Stake(bet=spec, chips=chips),))
        if events is not None or not app.check(check_betting):  # placed, or no more bets now
            break
        note = app.standing_refusal()
    placed = recorded(events, ev.BetsPlaced)
    if placed:
        app.say("; ".join(map(text.limit_cut, placed.cuts)) or _("{colour}: {bet} × {chips} recorded").format(
            colour=text.colour_name(colour), bet=text.position(placed.stakes[0].bet), chips=placed.stakes[0].chips),
            error=bool(placed.cuts))


async def withdraw(app: TableApp) -> None:
    if not app.check(check_betting):
        return
    state = app.session.state
    colour = await choose(app, _("Take the bets back"), [(text.colour_name(c), c) for c in state.bets])
    if colour is not None:
        app.record(app.session.withdraw_bets, colour=colour)


async def rebuild(app: TableApp) -> None:
    rebuilt = recorded(app.record(app.session.rebuild_winning_bets, by=app.croupier() or ""), ev.WinningBetsRebuilt)
    if rebuilt:
        app.say("; ".join(f"{text.colour_name(colour)}: " + ", ".join(
            f"{text.position(s.bet)} × {s.chips}" for s in stakes) for colour, stakes in rebuilt.stakes.items()))
