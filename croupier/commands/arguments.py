"""Argument types the commands share: each refuses what it cannot take with a message naming it,
before anything is opened or written (argparse prints it and exits with status 2)."""
from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from croupier.table.names import MAX_NAME, control_characters, is_control

MAX_PATH = 4096  # Linux PATH_MAX
MAX_PATH_PART = 255  # NAME_MAX of every Linux file system
MAX_DIGITS = 9  # a count, a shift number: far below Python's 4,300-digit limit


def printable(text: str) -> str:
    """`text` safe to print on a terminal: each control character shown as an escape (\\x1b)."""
    if not control_characters(text):
        return text
    return "".join(c.encode("unicode_escape").decode("ascii") if is_control(c) else c for c in text)


def name(text: str) -> str:
    """A name to record: not empty, no longer than 60 characters, no control characters."""
    stripped = text.strip()
    if not stripped:
        raise argparse.ArgumentTypeError("a name cannot be empty")
    if len(stripped) > MAX_NAME:
        raise argparse.ArgumentTypeError(f"a name has at most {MAX_NAME} characters, this one {len(stripped)}")
    if control_characters(stripped):
        raise argparse.ArgumentTypeError(f"{stripped!r} holds control characters; a name is printable text")
    return stripped


def path(text: str) -> Path:
    """A file path the system can open: not empty, no NUL, within the system's length limits."""
    if not text or "\0" in text:
        raise argparse.ArgumentTypeError("a file path cannot be empty or hold a NUL character")
    encoded = os.fsencode(text)
    if len(encoded) >= MAX_PATH:
        raise argparse.ArgumentTypeError(f"a file path must be shorter than {MAX_PATH} bytes; this one has {len(encoded)}")
    longest = max(len(part) for part in encoded.split(b"/"))
    if longest > MAX_PATH_PART:
        raise argparse.ArgumentTypeError(f"each name in a file path has at most {MAX_PATH_PART} bytes; "
                                         f"one here has {longest}")
    return Path(text)


def count(text: str) -> int:
    """A whole number of at most 9 digits."""
    if not text.isdecimal() or len(text) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number of at most {MAX_DIGITS} digits")
    return int(text)


def finite(kind: type, low: float, high: float):
    """A number within [low, high]: refuses inf and nan, which compare as no limit does."""

    def parse(text: str):
        try:
            value = kind(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"not a number: {_shown(text)}") from None
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not between {low:g} and {high:g}")
        return value

    return parse


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")


def day(text: str):
    """A day given as YYYY-MM-DD (`--from`, `--to`)."""
    from datetime import date

    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2025-03-14") from None


def backwards(command: str, since, until) -> bool:
    """A `--from` day after the `--to` day: said in one line (True), so nothing is read for it."""
    if since and until and since > until:
        print(f"croupier {command}: --from {since} is after --to {until}: no day lies between them", file=sys.stderr)
        return True
    return False
