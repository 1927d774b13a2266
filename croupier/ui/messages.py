"""Every message the table app passes between threads and widgets.

The wheel's reader thread and the GPIO keypad's thread hand their reports to the app with
`App.post_message`, which is thread-safe (the keypad callback runs in whichever thread drove the
pin, so `call_from_thread` would not do under MockFactory).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from croupier.keypad.entry import Key
    from croupier.table.events import Event
    from croupier.table.state import TableState


class WheelReport(Message):
    """Something the wheel sensor link reported (a croupier.wheel.events value)."""

    def __init__(self, event: object) -> None:
        super().__init__()
        self.event = event


class KeypadPressed(Message):
    """A key of the GPIO matrix keypad."""

    def __init__(self, key: Key) -> None:
        super().__init__()
        self.key = key


class TableRecorded(Message):
    """An event the session committed to the journal, with the state it left."""

    def __init__(self, event: Event, state: TableState) -> None:
        super().__init__()
        self.event = event
        self.state = state
