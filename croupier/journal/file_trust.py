"""Whether a file kept beside the journal or in the user's cache may be trusted: it belongs to one
of the expected users and no one else may write it (what is saved there is taken up without being
typed again)."""
from __future__ import annotations

import os
import stat
from typing import Collection


def untrusted(found: os.stat_result, owners: Collection[int]) -> str | None:
    """Why the file or folder `found` (its stat) is not to be trusted, or None."""
    if found.st_uid not in owners:
        return f"belongs to user {found.st_uid}, not to this user"
    if stat.S_IMODE(found.st_mode) & 0o022:
        return f"may be written by other users (mode {stat.S_IMODE(found.st_mode):04o})"
    return None
