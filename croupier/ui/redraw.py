"""Redrawing only what changed: every update of a widget's text or classes makes Textual lay out,
restyle and composite the screen again, so an unchanged one is left alone."""
from __future__ import annotations

from collections.abc import Iterable

from textual.dom import DOMNode
from textual.widgets import Static


def update(widget: Static, content: str) -> None:
    """`widget.update(content)`, unless it shows `content` already."""
    if widget.content != content:
        widget.update(content)


def one_class(node: DOMNode, classes: Iterable[str], chosen: str) -> None:
    """Give `node` the class `chosen` and none of the other `classes`, in one style update."""
    node.update_classes({name: name == chosen for name in classes})


def release_styles_caches() -> None:
    """Textual memoises `StylesCache.get_inner_outer` on the method, so its cache (1,024 entries)
    keeps every widget's styles cache it saw alive, with the lines that widget last drew: dialogs
    opened and closed spin after spin pile up there (about 0.3 MB a spin). Emptied once a spin, it
    holds only what the screens on show use."""
    from textual._styles_cache import StylesCache

    clear = getattr(getattr(StylesCache, "get_inner_outer", None), "cache_clear", None)
    if clear is not None:
        clear()
