"""Names the rules give and a command's --help shows, kept apart so the help needs no rules loaded."""
from __future__ import annotations

VALUE_CHIPS = "value"  # the owner of value chips, as opposed to a player's colour
DEFAULT_PROFILE = "pt-americana"  # the regulation a table runs under when none is named
