"""The base of every screen of the table app: keys come as table keys (croupier.keypad.entry.Key),
from the USB keypad through Textual's key events and from the GPIO matrix through the app."""
from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.screen import ModalScreen, Screen

from croupier.keypad.entry import Key
from croupier.ui.keys import table_key

Result = TypeVar("Result")


class KeypadKeys:
    """Mixin: a key press becomes `press(Key)`; keys that mean nothing at the table are ignored."""

    def on_key(self, event: events.Key) -> None:
        key = table_key(event)
        if key is not None:
            event.stop()
            event.prevent_default()
            self.press(key)

    def press(self, key: Key) -> None:
        raise NotImplementedError


class KeypadScreen(KeypadKeys, Screen[Result]):
    pass


class KeypadModal(KeypadKeys, ModalScreen[Result]):
    pass
