"""The packaged profiles already parsed, so that reading one needs no TOML parser at start-up
(tomllib's import is a tenth of `croupier payout`).

The build writes `profiles/parsed-N.marshal` (setup.py): the text of each packaged file N
characters long beside what tomllib reads from it. A text is looked up whole, so only the very
text that was parsed gets its parse back; any other text (a house's profile, an edited file, a
tree never built) is parsed as ever. A start reads only the file of its text's length.
Standard library only.
"""
from __future__ import annotations

import marshal
import os

TYPE_CHECKING = False  # typing's flag, which mypy reads, without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

DIRECTORY = os.path.join(os.path.dirname(__file__), "profiles")
_read: dict[int, list[tuple[str, dict[str, Any]]]] = {}


def _name(length: int) -> str:
    return f"parsed-{length}.marshal"


def parsed(text: str) -> dict[str, Any] | None:
    """What tomllib reads from `text`, when it is a packaged profile's text the build parsed."""
    pairs = _read.get(len(text))
    if pairs is None:
        try:
            with open(os.path.join(DIRECTORY, _name(len(text))), "rb") as handle:
                pairs = marshal.load(handle)
        except (OSError, EOFError, ValueError, TypeError):
            pairs = []
        _read[len(text)] = pairs if isinstance(pairs, list) else []
    for known, data in _read[len(text)]:
        if known == text and isinstance(data, dict):
            return data
    return None


def write(directory: str) -> None:
    """Writes the `parsed-N.marshal` files into the profiles `directory`, from its `*.toml` files; a
    file whose values marshal cannot hold (none today) is left to be parsed at each start."""
    from croupier.rules.toml_file import parse, read_text

    by_length: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".toml"):
            text = read_text(os.path.join(directory, name))
            data = parse(text, name)
            try:
                marshal.dumps(data)
            except ValueError:
                continue
            by_length.setdefault(len(text), []).append((text, data))
    for length, pairs in by_length.items():
        with open(os.path.join(directory, _name(length)), "wb") as handle:
            marshal.dump(pairs, handle)
