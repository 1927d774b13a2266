"""The names a user types for the wheel: its protocols and the simulator's faults. Kept apart from
the decoders and the simulator so that a command's --help lists them without importing either."""
from __future__ import annotations

PROTOCOL_NAMES = ("cammegh-ss2", "cammegh-m360-basic", "cammegh-m360-advanced", "cammegh-m360-extended", "line")
FAULTS = ("same-direction", "ball-removed", "sensor-fault", "weak-spin", "garbage")
