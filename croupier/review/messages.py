"""Messages the review's panes send to the app."""
from __future__ import annotations

from textual.message import Message


class SpinChosen(Message):
    """The pit boss picked a spin (from the timeline or by number): show its detail."""

    def __init__(self, spin: int) -> None:
        super().__init__()
        self.spin = spin
