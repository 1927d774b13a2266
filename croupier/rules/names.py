"""Names the rules give and a command's --help shows, kept apart so the help needs no rules loaded."""
from __future__ import annotations

VALUE_CHIPS = "value"  # the owner of value chips, as opposed to a player's colour
MARKED_VALUE_CHIPS = "value-marked"  # value chips marked to go on any bet (PT-A 16), where a BET names its owner
DEFAULT_PROFILE = "pt-americana"  # the regulation a table runs under when none is named
