"""An independent count of what a capture's wheel reported, for checking the decoder against.

Deliberately simple and separate from croupier.wheel: regular expressions straight from the SS2
guide (sections 2.4 and 2.5) over the capture's lines, no framing, no state machine beyond "what was
the previous status line".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
CAPTURES = SHARED / "captures"

STAMPED = re.compile(r"\[([^\]]+)\] Receive >>> (.*)")
STATUS = re.compile(r"\*X;([1-6]);(\d{3});(  | \d|[1-3]\d);([0-9A-F]);(\d{3});([01])")
NUMBER = re.compile(r" ?\d|[1-3]\d")  # the log strips the space before 0-9


@dataclass(frozen=True)
class Reported:
    stamp: str  # the capture's timestamp (or line index for raw files) of the reporting line
    number: int
    spin: str | None  # the spin field of the state-5 line, when there was one


def captures_dir() -> Path:
    if not CAPTURES.is_dir():
        pytest.skip(f"the shared captures are not at {CAPTURES}")
    return CAPTURES


def receive_lines(path: Path) -> list[tuple[str, str]]:
    """(stamp, text) of every line the wheel sent: `Receive >>>` lines, or every line of a raw file."""
    text = path.read_text(encoding="latin-1")
    lines = text.splitlines()
    if lines and lines[0].startswith("["):
        return [(m.group(1), m.group(2)) for m in map(STAMPED.fullmatch, lines) if m]
    return [(str(i), line) for i, line in enumerate(lines)]


def reported_results(path: Path) -> list[Reported]:
    """One entry per game: a winning-number line said while the previous status was state 3 or 4
    (merged with the state-5 run that follows it), or a run of state-5 lines with no such line."""
    results: list[Reported] = []
    previous_state = None
    previous_five = None  # (spin, number) of the state-5 run in progress
    pending: Reported | None = None  # a number line waiting for its state-5 run
    for stamp, text in receive_lines(path):
        status = STATUS.fullmatch(text)
        if status:
            state, spin, last = status.group(1), status.group(2), status.group(3)
            if state == "5":
                key = (spin, int(last))
                if key != previous_five:
                    if pending is not None and pending.number == int(last):
                        results.append(Reported(pending.stamp, pending.number, spin))
                    else:
                        if pending is not None:
                            results.append(pending)
                        results.append(Reported(stamp, int(last), spin))
                    pending = None
                previous_five = key
            else:
                previous_five = None
            previous_state = state
        elif NUMBER.fullmatch(text) and previous_state in ("3", "4"):
            if pending is not None:
                results.append(pending)
            pending = Reported(stamp, int(text), None)
            previous_state = "number"
    if pending is not None:
        results.append(pending)
    return results


def status_at(path: Path, stamp: str) -> list[re.Match]:
    """The status lines the capture holds at one timestamp."""
    return [m for s, text in receive_lines(path) if s == stamp and (m := STATUS.fullmatch(text))]
