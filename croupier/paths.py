"""Where the table's files are when no option names them: light enough for every command's --help."""
from __future__ import annotations

from pathlib import Path

SYSTEM_CONFIG = Path("/etc/croupier/croupier.toml")
SERVICE_USER = "croupier"  # the user the table's systemd units run as

# Where a command looks when --config is not given, as its --help says it (config.config_path does it).
CONFIG_LOOKUP = f"$CROUPIER_CONFIG, else {SYSTEM_CONFIG} when it exists"
