"""The colours in play: player, chip value, chips held, bets on the layout, spins without a bet;
and the waiting list."""
from __future__ import annotations

from decimal import Decimal

from rich.markup import escape
from textual.widgets import Static

from croupier.history import words
from croupier.i18n import _
from croupier.table.state import TableState
from croupier.ui import text


class ColoursPanel(Static):
    def show(self, state: TableState, currency: str) -> None:
        lines = []
        for colour, account in state.accounts.items():
            stakes = state.bets.get(colour, ()) + state.prison.get(colour, ())
            bets = f" · {_('bets')}: " + ", ".join(f"{text.position(s.bet)}×{s.chips}" for s in stakes) if stakes else ""
            idle = f" · {_('idle {spins}').format(spins=account.idle_spins)}" if account.idle_spins else ""
            lines.append(
                f"[b]{escape(text.colour_name(colour)):<10}[/] {escape(account.player)} · "
                f"{text.money(Decimal(account.chip_value), currency)} · "
                + words.chips_words(account.held) + escape(bets) + idle
            )
        if not lines:
            lines.append(_("No colour in play"))
        free = [text.colour_name(c) for c in state.free_colours()]
        lines.append(_("Free: {colours}").format(colours=escape(", ".join(free) or "—")))
        if state.waiting:
            lines.append(_("Waiting: {players}").format(players=escape(", ".join(state.waiting))))
        self.update("\n".join(lines))
