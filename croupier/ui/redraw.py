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
