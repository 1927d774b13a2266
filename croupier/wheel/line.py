"""The plain winning-number line: any wheel or display bus that sends just the number, one per line
("7", " 7", "07" or "27", ended by CR and/or LF). Every valid line is one result; there is no
game counter, no state and no void, so results carry game None."""
from __future__ import annotations

from croupier.wheel import fields
from croupier.wheel.events import WheelEvent, WheelFault, WheelResult
from croupier.wheel.framing import LineFramer, show


class PlainLineDecoder:
    protocol = "line"
    heartbeat: float | None = None  # silent between games

    def __init__(self, min_ball_revolutions: int | None = None):
        self.min_ball_revolutions = min_ball_revolutions  # a bare number says nothing about the spin
        self._framer = LineFramer()

    def feed(self, data: bytes, time: float) -> list[WheelEvent]:
        events: list[WheelEvent] = []
        for frame in self._framer.feed(data):
            if frame.problem:
                events.append(WheelFault(frame.problem, time, show(frame.text)))
                continue
            text = " " + frame.text if len(frame.text) == 1 else frame.text
            try:
                number = fields.pocket(text, "winning number", empty=None, zero_padded=True)
            except fields.FieldError as e:
                events.append(WheelFault(f"not a winning-number line: {e}", time, frame.text))
                continue
            events.append(WheelResult(number, time, None, None, "line"))
        return events

    def resync(self) -> None:
        self._framer.reset()

    def mark_reported(self, game: int | None, number: int) -> None:
        """Nothing to remember: each line is a new game."""
