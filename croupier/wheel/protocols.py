"""What every wheel decoder is, and a fresh one by its protocol's name (croupier.wheel.registry)."""
from __future__ import annotations

from typing import Protocol

from croupier.wheel.events import WheelEvent
from croupier.wheel.registry import PROTOCOL_NAMES, UnknownProtocol, protocol  # noqa: F401 (the names a user types)


class WheelDecoder(Protocol):
    """Bytes in, events out. Pure: the caller passes the time the bytes arrived."""

    protocol: str
    heartbeat: float | None  # seconds between the wheel's periodic lines, None if it sends none
    valid_lines: int  # lines read as wheel output so far: the link is online while they come
    respin_clears_voids: bool  # the wheel re-spins a voided game in play, its flags going back to 0

    def feed(self, data: bytes, time: float) -> list[WheelEvent]: ...

    def resync(self) -> None: ...

    def mark_reported(self, game: int | None, number: int) -> None: ...


def make_decoder(name: str, min_ball_revolutions: int | None = None) -> WheelDecoder:
    """A fresh decoder. `min_ball_revolutions` (RU 4.12: 5, SRIJ 23: 3) is used where the protocol
    counts revolutions (the M360 extended protocol)."""
    return protocol(name).make_decoder(min_ball_revolutions)
