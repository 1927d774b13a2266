"""The table's commands run by root with the system configuration run as the table's user instead,
so a journal, key or cache they create is never root's (the table, as that user, could not read it)."""
from __future__ import annotations

import os

# The commands that open or create the table's files (journal, key, witness, verified mark, caches).
TABLE_COMMANDS = frozenset({"table", "run", "billboard", "verify", "report", "review"})
TABLE_VERBS = {"floor": frozenset({"table-key"})}  # a command's verbs that are the table's (its key pair)


def _config_argument(argv: list[str]) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "--config" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--config="):
            return arg.partition("=")[2]
    return None


def uses_system_config(argv: list[str], environ: dict[str, str] | os._Environ = os.environ) -> bool:
    # Imported here: every command passes through this module, and pathlib is a tenth of
    # `croupier payout`'s start, which never needs it.
    from pathlib import Path

    from croupier.paths import SYSTEM_CONFIG

    named = _config_argument(argv) or environ.get("CROUPIER_CONFIG")
    if named:
        try:
            return Path(named).resolve() == SYSTEM_CONFIG.resolve()
        except OSError:
            return False
    return SYSTEM_CONFIG.is_file()


def become_service_user(command: str, argv: list[str]) -> str | None:
    """Switch to the table's user when root runs a table command with the system configuration;
    the user's name when it did, None when nothing changed."""
    table_command = command in TABLE_COMMANDS or (bool(argv) and argv[0] in TABLE_VERBS.get(command, ()))
    if os.name != "posix" or os.geteuid() != 0 or not table_command or not uses_system_config(argv):
        return None
    import pwd

    from croupier.paths import SERVICE_USER

    try:
        user = pwd.getpwnam(SERVICE_USER)
    except KeyError:  # not an installed table: root's files are nobody else's business
        return None
    os.initgroups(user.pw_name, user.pw_gid)
    os.setgid(user.pw_gid)
    os.setuid(user.pw_uid)
    os.environ["HOME"] = user.pw_dir  # its caches go where the unit's would
    os.environ["USER"] = os.environ["LOGNAME"] = user.pw_name
    return user.pw_name
