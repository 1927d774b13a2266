"""Cutting a serial byte stream into wheel lines.

Both Cammegh families end every packet with CR and/or LF (the controller accepts either, in either
order, and sends CR LF) and start every packet but the winning-number line with `*`. Real links split
and join lines anywhere, drop bytes and glue a truncated line to the next one (the production capture
has `*X;4;14*X;*X;4;146; 9;0;158;0`), so a `*` always starts a new line: whatever was pending before
it is an incomplete line and comes out as such.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from croupier.wheel.events import WheelEvent, WheelFault

# The longest line either wheel sends is the M360 extended status (about 45 characters) or a version
# string; anything longer is noise, and is not kept in memory.
MAX_LINE = 120

_PIECES = re.compile(r"([\r\n*])")
_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")


@dataclass(frozen=True)
class Frame:
    """One line as received, without its terminator. `problem` is None for a well-formed line."""

    text: str
    problem: str | None = None


class LineFramer:
    """Incremental: bytes in, complete lines out; a partial line waits for the next bytes."""

    def __init__(self, max_line: int = MAX_LINE):
        self._max_line = max_line
        self._buffer: list[str] = []
        self._length = 0
        self._overlong = False

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        # latin-1 maps every byte to one character, so nothing is lost before validation.
        for piece in _PIECES.split(data.decode("latin-1")):
            if not piece:
                continue
            if piece in "\r\n":
                self._finish(frames, None)
            elif piece == "*":
                self._finish(frames, "incomplete line: a new '*' line started before it ended")
                self._append("*")
            else:
                self._append(piece)
        return frames

    def reset(self) -> None:
        """Forget a partial line (after a reconnect its start is lost)."""
        self._buffer.clear()
        self._length = 0
        self._overlong = False

    @property
    def pending(self) -> bool:
        return self._length > 0

    def _append(self, piece: str) -> None:
        room = self._max_line - self._length
        if len(piece) > room:
            self._overlong = True
            piece = piece[: max(room, 0)]
        if piece:
            self._buffer.append(piece)
            self._length += len(piece)

    def _finish(self, frames: list[Frame], interrupted: str | None) -> None:
        if not self._length and not self._overlong:
            return
        text = "".join(self._buffer)
        problem: str | None
        if self._overlong:
            problem = f"line longer than {self._max_line} characters"
        elif _UNPRINTABLE.search(text):
            problem = "line holds bytes that are not printable ASCII"
        else:
            problem = interrupted
        frames.append(Frame(text, problem))
        self.reset()


def show(text: str) -> str:
    """A line as a fault message shows it: unprintable bytes as \\xNN escapes."""
    return _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class FramedDecoder:
    """Base of the decoders: frames the bytes, reports a broken line as a fault, and hands every
    whole line to `_line` with the time of the bytes that ended it."""

    heartbeat: float | None = None  # seconds between the wheel's periodic lines; None: it has none
    respin_clears_voids = False  # True where the wheel re-spins in play, its flags going back to 0

    def __init__(self, min_ball_revolutions: int | None = None):
        self.min_ball_revolutions = min_ball_revolutions  # used where the protocol counts them
        self._framer = LineFramer()
        self.valid_lines = 0  # lines read as wheel output: the link is online while they come

    def feed(self, data: bytes, time: float) -> list[WheelEvent]:
        events: list[WheelEvent] = []
        for frame in self._framer.feed(data):
            if frame.problem:
                events.append(WheelFault(frame.problem, time, show(frame.text)))
            else:
                before = len(events)
                self._line(frame.text, time, events)
                # Most lines (a status repeated every 500 ms) add no event at all.
                if len(events) == before or not any(isinstance(e, WheelFault) for e in events[before:]):
                    self.valid_lines += 1
        return events

    def resync(self) -> None:
        """After a reconnect: the partial line lost its beginning."""
        self._framer.reset()

    def mark_reported(self, game: int | None, number: int) -> None:
        """Tell a fresh decoder the last result already recorded (from the journal)."""

    def _line(self, text: str, time: float, events: list[WheelEvent]) -> None:
        raise NotImplementedError
