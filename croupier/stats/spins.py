"""The spins the statistics work on: counted results only (a void spin is not a result), each with
what the integrity tests group by."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

POCKETS = 37


@dataclass(frozen=True, slots=True)
class CountedSpin:
    """One counted result. `direction` is the rotor direction of the launch (`PT-A 21`) as recorded,
    e.g. "clockwise"; `wheel` names the wheel when a journal covers more than one."""

    number: int
    croupier: str | None = None
    direction: str | None = None
    wheel: str | None = None
    time: datetime | None = None


@dataclass(frozen=True)
class SpinColumns:
    """Counted spins of one wheel as columns, for a year of them without an object per spin:
    `numbers` one byte per spin, `groups` each spin's index into `keys`, its (croupier, direction)."""

    numbers: bytes
    groups: Sequence[int]
    keys: Sequence[tuple[str | None, str | None]]
    wheel: str | None = None


def checked_number(number: object, position: int) -> int:
    """The pocket number of the spin at `position`, refusing anything that is not 0..36."""
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < POCKETS:
        raise ValueError(f"spin {position + 1}: {number!r} is not a pocket number (0..36)")
    return number


def direction_name(direction: object) -> str | None:
    """A direction as its plain value, whether given as the `Direction` enum or as text."""
    if direction is None:
        return None
    return str(getattr(direction, "value", direction))


def select_window(
    spins: Sequence[CountedSpin],
    *,
    last: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[CountedSpin]:
    """The spins in a time range (since inclusive, until exclusive), then at most the `last` ones."""
    if last is not None and last < 0:
        raise ValueError(f"last must be a number of spins >= 0, got {last}")
    chosen: Iterable[CountedSpin] = spins
    if since is not None or until is not None:
        chosen = [
            spin for spin in chosen
            if spin.time is not None
            and (since is None or spin.time >= since)
            and (until is None or spin.time < until)
        ]
    chosen = list(chosen)
    if last is not None:
        chosen = chosen[len(chosen) - last:] if last else []
    return chosen
