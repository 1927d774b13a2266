"""The board's segments and lamps, by the names the configuration's [display] section gives their
pins: a module of its own so the configuration reads them without the board's model."""

SEGMENT_NAMES = ("a", "b", "c", "d", "e", "f", "g")
LAMP_NAMES = ("red", "black", "green", "bets_open", "no_more_bets", "void")
