"""The wheel protocols croupier reads, one record each, and the simulator's faults: the one list the
configuration, the command line, the decoders and the simulator all read. It imports no decoder,
so a command's --help lists the names without loading them."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from croupier.wheel.protocols import WheelDecoder


class Family(Enum):
    """Whose lines a protocol carries: the simulator writes a game as that wheel does."""

    SS2 = "ss2"  # Cammegh Slingshot 2: status lines, the game counter, log queries
    M360 = "m360"  # Cammegh Mercury 360, at one of its three protocol levels
    LINE = "line"  # a plain number per line (a keypad box, another make of sensor)


@dataclass(frozen=True)
class WheelProtocol:
    name: str  # as the configuration and the command line write it
    decoder: str  # "module:class", imported when a decoder is made
    family: Family
    flags: bool  # its lines carry warning flags: a fault shows, and ends in a void
    game_counter: bool  # its results carry the wheel's game counter
    status_lines: bool  # it sends status lines between launches (not only packets)
    ball_fields: bool  # its status lines carry the ball's fields (revolutions, direction, pocket)
    log_queries: bool  # it answers the Slingshot's log queries (`croupier reconcile --wheel`)

    def make_decoder(self, min_ball_revolutions: int | None = None) -> WheelDecoder:
        module, _colon, name = self.decoder.partition(":")
        decoder: WheelDecoder = getattr(import_module(module), name)(min_ball_revolutions=min_ball_revolutions)
        return decoder


PROTOCOLS = {p.name: p for p in (
    WheelProtocol("cammegh-ss2", "croupier.wheel.ss2:Ss2Decoder", Family.SS2, flags=True, game_counter=True,
                  status_lines=True, ball_fields=False, log_queries=True),
    WheelProtocol("cammegh-m360-basic", "croupier.wheel.m360:M360BasicDecoder", Family.M360, flags=False,
                  game_counter=False, status_lines=False, ball_fields=False, log_queries=False),
    WheelProtocol("cammegh-m360-advanced", "croupier.wheel.m360:M360AdvancedDecoder", Family.M360, flags=True,
                  game_counter=True, status_lines=True, ball_fields=False, log_queries=False),
    WheelProtocol("cammegh-m360-extended", "croupier.wheel.m360:M360ExtendedDecoder", Family.M360, flags=True,
                  game_counter=True, status_lines=True, ball_fields=True, log_queries=False),
    WheelProtocol("line", "croupier.wheel.line:PlainLineDecoder", Family.LINE, flags=False, game_counter=False,
                  status_lines=False, ball_fields=False, log_queries=False),
)}
PROTOCOL_NAMES = tuple(PROTOCOLS)
FAULTS = ("same-direction", "ball-removed", "sensor-fault", "weak-spin", "garbage")


class UnknownProtocol(ValueError):
    pass


def protocol(name: str) -> WheelProtocol:
    """The protocol called `name`; UnknownProtocol listing the names for any other."""
    try:
        return PROTOCOLS[name]
    except KeyError:
        raise UnknownProtocol(f"unknown wheel protocol {name!r}; use one of: {', '.join(PROTOCOLS)}") from None
