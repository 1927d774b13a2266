"""Words for a spin that the wheel sensor, the table session and the screens share.

Rule references are to ../shared/REGULATIONS.md (§8).
"""
from __future__ import annotations

from enum import Enum


class Direction(str, Enum):
    """Which way the wheel head (rotor) turns, seen from above. The ball is launched against it
    (`PT-A 21`, `SRIJ 17`), and the launch direction must alternate from spin to spin."""

    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"

    def opposite(self) -> "Direction":
        return Direction.ANTICLOCKWISE if self is Direction.CLOCKWISE else Direction.CLOCKWISE


class VoidReason(str, Enum):
    """Why a spin is void, a golpe nulo (`PT-A 22`, `RU 4.14`, `SRIJ 23`)."""

    CHIP_FELL = "chip-fell"  # PT-A 22
    ANOTHER_BALL = "another-ball"  # PT-A 22
    FOREIGN_OBJECT = "foreign-object"  # PT-A 22, RU 4.14
    BALL_LEFT_WHEEL = "ball-left-wheel"  # RU 4.14
    SAME_DIRECTION = "same-direction"  # RU 4.14: ball and wheel turn the same way
    TOO_FEW_REVOLUTIONS = "too-few-revolutions"  # RU 4.12 (5), SRIJ 23 (3)
    WHEEL_STOPPED = "wheel-stopped"  # RU 4.14
    SENSOR_FAULT = "sensor-fault"  # SRIJ 23: a fault interrupts the spin
    CHIPS_SCATTERED = "chips-scattered"  # RU 4.14: bets cannot be restored

    @classmethod
    def parse(cls, text: str) -> "VoidReason":
        try:
            return cls(text.strip().lower())
        except ValueError:
            known = ", ".join(r.value for r in cls)
            raise ValueError(f"{text!r} is not a void reason; use one of: {known}") from None
