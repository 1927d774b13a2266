"""Starting without the cyclic garbage collector. A command's start allocates hundreds of thousands
of objects (modules, classes, styles), none of them garbage, and the collector walks them again and
again as they come: about 7 % of the table screen's start. Such a command collects from its first
frame on, and what its start made is frozen, so that no later collection walks it again either."""
from __future__ import annotations

import gc


def collect_later() -> None:
    gc.disable()


def collect_from_now() -> None:
    """Once started. Does nothing where `collect_later` was not called (the collector is on)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
