"""The wheel protocols by the name configuration and the command line use for them."""
from __future__ import annotations

from typing import Callable, Protocol

from croupier.wheel.events import WheelEvent
from croupier.wheel.line import PlainLineDecoder
from croupier.wheel.m360 import M360AdvancedDecoder, M360BasicDecoder, M360ExtendedDecoder
from croupier.wheel.ss2 import Ss2Decoder


class WheelDecoder(Protocol):
    """Bytes in, events out. Pure: the caller passes the time the bytes arrived."""

    protocol: str
    heartbeat: float | None  # seconds between the wheel's periodic lines, None if it sends none

    def feed(self, data: bytes, time: float) -> list[WheelEvent]: ...

    def resync(self) -> None: ...

    def mark_reported(self, game: int | None, number: int) -> None: ...


DECODERS: dict[str, Callable[..., WheelDecoder]] = {
    "cammegh-ss2": Ss2Decoder,
    "cammegh-m360-basic": M360BasicDecoder,
    "cammegh-m360-advanced": M360AdvancedDecoder,
    "cammegh-m360-extended": M360ExtendedDecoder,
    "line": PlainLineDecoder,
}

from croupier.wheel.names import PROTOCOL_NAMES  # noqa: E402,F401 (the names a user types, one per decoder)


class UnknownProtocol(ValueError):
    pass


def make_decoder(protocol: str, min_ball_revolutions: int | None = None) -> WheelDecoder:
    """A fresh decoder. `min_ball_revolutions` (RU 4.12: 5, SRIJ 23: 3) is used where the protocol
    counts revolutions (the M360 extended protocol)."""
    try:
        factory = DECODERS[protocol]
    except KeyError:
        raise UnknownProtocol(f"unknown wheel protocol {protocol!r}; use one of: {', '.join(DECODERS)}") from None
    return factory(min_ball_revolutions=min_ball_revolutions)
