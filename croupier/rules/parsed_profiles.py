"""The packaged profiles already parsed, so that reading one needs no TOML parser at start-up
(tomllib's import is a tenth of `croupier payout`).

The build writes `profiles/parsed.marshal` (setup.py): each packaged file's text beside what
tomllib reads from it. A text is looked up whole, so only the very text that was parsed gets its
parse back; any other text (a house's profile, an edited file, a tree never built) is parsed as
ever. Standard library only.
"""
from __future__ import annotations

import marshal
import os

TYPE_CHECKING = False  # typing's flag, which mypy reads, without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

FILE = os.path.join(os.path.dirname(__file__), "profiles", "parsed.marshal")
_parsed: dict[str, dict[str, Any]] | None = None


def parsed(text: str) -> dict[str, Any] | None:
    """What tomllib reads from `text`, when it is a packaged profile's text the build parsed."""
    global _parsed
    if _parsed is None:
        try:
            with open(FILE, "rb") as handle:
                _parsed = marshal.load(handle)
        except (OSError, EOFError, ValueError, TypeError):
            _parsed = {}
        if not isinstance(_parsed, dict):
            _parsed = {}
    data = _parsed.get(text)
    return data if isinstance(data, dict) else None


def write(directory: str) -> None:
    """Writes `parsed.marshal` into the profiles `directory`, from its `*.toml` files; a file whose
    values marshal cannot hold (none today) is left to be parsed at each start."""
    from croupier.rules.toml_file import parse, read_text

    found = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".toml"):
            text = read_text(os.path.join(directory, name))
            data = parse(text, name)
            try:
                marshal.dumps(data)
            except ValueError:
                continue
            found[text] = data
    with open(os.path.join(directory, "parsed.marshal"), "wb") as handle:
        marshal.dump(found, handle)
