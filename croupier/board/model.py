"""What the players' display board shows, as a pure function of the table: the winning number on
two 7-segment digits and the lamps. No I/O; `croupier.board.gpio` drives the pins from it and the
demo draws it on screen.

The board shows the last counted result until the next one (a typed number waiting for its
confirmation is not shown), with its colour lamp; the bets-open and no-more-bets lamps follow the
spin cycle; the void lamp is lit from a golpe nulo (`PT-A 22`) until the ball is launched again.
"""
from __future__ import annotations

from croupier.board.names import SEGMENT_NAMES
from croupier.rules.record import Record
from croupier.rules.wheel import colour
from croupier.table.bets import bets_open
from croupier.table.cycle import IN_SPIN
from croupier.table.state import Phase, TableState


# Segments lit for each character, a-g as wired (a top, b top right, c bottom right, d bottom,
# e bottom left, f top left, g middle).
CHARACTER_SEGMENTS: dict[str, str] = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
    "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg",
    " ": "", "-": "g",
}
# The same, as the on/off tuples gpiozero's LEDCharDisplay takes for its font.
FONT: dict[str, tuple[int, ...]] = {
    char: tuple(int(segment in lit) for segment in SEGMENT_NAMES) for char, lit in CHARACTER_SEGMENTS.items()
}
BLANK = "  "


class Board(Record, kw_only=False):
    """What the players' display board shows: its text and lamps."""
    text: str  # the two characters on the digits, right-aligned: " 7", "17", "  "
    lamps: frozenset[str]  # the lamps lit, by their names in the configuration (LAMP_NAMES)

    @property
    def number(self) -> int | None:
        return int(self.text) if self.text.strip() else None

    def segments(self, position: int) -> frozenset[str]:
        """The segments lit on digit `position` (0 tens, 1 units)."""
        return frozenset(CHARACTER_SEGMENTS[self.text[position]])


DARK = Board(BLANK, frozenset())


def board_for(state: TableState) -> Board:
    """The board for the table `state`."""
    if state.phase is Phase.CLOSED:
        return DARK
    lamps: set[str] = set()
    last = state.last_result
    text = BLANK if last is None else f"{last.number:>2}"
    if last is not None:
        lamps.add(colour(last.number))  # red, black or green: lamp names too
    if bets_open(state):
        lamps.add("bets_open")
    elif state.phase in IN_SPIN:
        lamps.add("no_more_bets")
    if state.voided:
        lamps.add("void")
    return Board(text, frozenset(lamps))
