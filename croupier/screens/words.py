"""The words and marks both screens show: the table's phase, a chip colour's name, a result in its
colour (Rich markup), in the table's language."""
from __future__ import annotations

from croupier.history import words
from croupier.i18n import N_, _
from croupier.rules.names import VALUE_CHIPS
from croupier.rules.wheel import colour as number_colour
from croupier.table.state import Phase

PHASES = {
    Phase.CLOSED: N_("Table closed"),
    Phase.BETTING: N_("Place your bets"),
    Phase.SPINNING: N_("Ball launched"),
    Phase.NO_MORE_BETS: N_("No more bets"),  # PT-A 20: "Jogo feito, nada mais"
    Phase.CONFIRMING: N_("Confirm the result"),
    Phase.PAYING: N_("Payouts"),
}
# A number in its colour: white on red or green; black numbers black on white, since the screen's
# own background is black.
NUMBER_STYLE = {"red": "bold white on red", "black": "bold black on white", "green": "bold white on green"}


def phase(value: Phase) -> str:
    return _(PHASES[value])


def colour_name(name: str) -> str:
    if name == VALUE_CHIPS:  # the owner of value chips on a payout sheet (PT-A 16, PT-B 15b)
        return _("value chips")
    return _(words.CHIP_COLOURS[name]) if name in words.CHIP_COLOURS else name


def number_markup(number: int) -> str:
    """A result as Rich markup, in its colour."""
    return f"[{NUMBER_STYLE[number_colour(number)]}] {number:>2} [/]"
