"""The base of every screen of the table app: keys come as table keys (croupier.keypad.entry.Key),
from the USB keypad through Textual's key events and from the GPIO matrix through the app. The
app's key router decides which screen a key typed ahead is for (croupier.ui.key_routing)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual.screen import ModalScreen, Screen

from croupier.keypad.entry import Key
from croupier.ui.keys import table_key

if TYPE_CHECKING:
    from textual import getters

    from croupier.ui.app import TableApp

Result = TypeVar("Result")


if TYPE_CHECKING:  # what the mixin is mixed into, for mypy: its dismiss() goes on to the screen's
    _Screen = Screen[Any]
else:
    _Screen = object


class KeypadKeys(_Screen):
    """Mixin: a key press becomes `press(Key)`; keys that mean nothing at the table are ignored.
    A screen that has closed takes no more keys."""

    closed = False
    if TYPE_CHECKING:  # Textual's typed `app` (textual.getters), for mypy only: the table's
        app = getters.app(TableApp)

    def on_key(self, event: events.Key) -> None:
        key = table_key(event)
        if key is not None:
            event.stop()
            event.prevent_default()
            self.app.deliver_key(self, key, event.time)

    def on_screen_resume(self) -> None:
        self.app.drain_keys()  # keys typed ahead for this screen while it was on its way

    def dismiss(self, result=None):
        self.closed = True
        self.app.keys.closed()
        return super().dismiss(result)

    def press(self, key: Key) -> None:
        raise NotImplementedError


HOLD_AT_MOST = 4  # a layout that never comes does not keep the screen from being written


class KeypadScreen(KeypadKeys, Screen[Result]):
    """A screen of the table app, its keys the table's; written whole, once laid out."""

    _held = 0  # frames held back in a row for a layout on its way

    def _compositor_refresh(self) -> None:
        """A screen pushed again is laid out (the widgets changed for it) and then repainted whole
        in the same update: the changes alone are not written first, so a result's sheet reaches
        the terminal as one frame, not two (each of them several kilobytes on a Pi's console).
        Nor is it written before the layout its new rows asked for: a widget asks for it from its
        own message queue, after the screen would have written the frame laid out as before."""
        if self.is_current and self._repaint_required:
            return  # the whole screen is written in a moment
        if self.is_current and self._held < HOLD_AT_MOST and self._layout_pending():
            self._held += 1
            return  # laid out in a moment, then written
        self._held = 0
        super()._compositor_refresh()

    def _layout_pending(self) -> bool:
        """A widget changed size and its layout is on its way: asked for (Textual 8.2 posts it from
        the widget's own queue when idle), or in the screen's queue (or peeked from it)."""
        from textual.messages import Layout

        queued = [getattr(self, "_pending_message", None), *getattr(self._message_queue, "values", ())]
        return (any(getattr(widget, "_layout_required", False) for widget in self.walk_children(with_self=False))
                or any(isinstance(message, Layout) for message in queued))


class KeypadModal(KeypadKeys, ModalScreen[Result]):
    """A modal screen of the table app, its keys the table's."""
