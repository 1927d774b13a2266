"""The plain winning-number line: any wheel or display bus that sends just the number, one per line
("7", " 7", "07" or "27", ended by CR and/or LF). Every valid line is one result; there is no
game counter, no state and no void, so results carry game None."""
from __future__ import annotations

from croupier.wheel import fields
from croupier.wheel.events import WheelEvent, WheelFault, WheelResult
from croupier.wheel.framing import FramedDecoder


class PlainLineDecoder(FramedDecoder):
    protocol = "line"

    def _line(self, text: str, time: float, events: list[WheelEvent]) -> None:
        padded = " " + text if len(text) == 1 else text
        try:
            number = fields.pocket(padded, "winning number", empty=None, zero_padded=True)
        except fields.FieldError as e:
            events.append(WheelFault(f"not a winning-number line: {e}", time, text))
            return
        events.append(WheelResult(number, time, None, None, "line", (f"+0.0 {text}",)))
