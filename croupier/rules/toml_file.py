"""The program's TOML files - the configuration, the profiles, a table sign - read one way, with one
set of words for what is wrong. Standard library only, so the rules core may use it.

A byte-order mark (some Windows editors write one) is not part of the text, and a number with a
fraction reads as a Decimal: money and millimetres stay exact. Every problem is a FileProblem
naming the file and the dotted key.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from decimal import Decimal

TYPE_CHECKING = False  # typing's flag, which mypy reads, without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

BYTE_ORDER_MARK = "\ufeff"
MISSING = "missing"


class FileProblem(ValueError):
    """A file's problem: which file, which key (none for the whole file), what is wrong."""

    def __init__(self, source: str, key: str, problem: str):
        self.source, self.key, self.problem = source, key, problem
        super().__init__(f"{source}: {key}: {problem}" if key else f"{source}: {problem}")


def read_text(path: str | os.PathLike[str]) -> str:
    """The file's text, without a byte-order mark."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise FileProblem(str(path), "", f"cannot read it: {error.strerror or error}") from None
    try:
        return data.decode("utf-8").removeprefix(BYTE_ORDER_MARK)
    except UnicodeDecodeError:
        raise FileProblem(str(path), "", "not valid TOML: the file is not UTF-8 text") from None


def parse(text: str, source: str) -> dict[str, Any]:
    """The TOML `text` as a table; `source` names the file in errors."""
    import tomllib  # here: a packaged profile's start reads it already parsed (parsed_profiles)

    try:
        return tomllib.loads(text.removeprefix(BYTE_ORDER_MARK), parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise FileProblem(source, "", f"not valid TOML: {error}") from None
    except RecursionError:
        raise FileProblem(source, "", "not valid TOML: its values are nested too deeply") from None


def read(path: str | os.PathLike[str]) -> dict[str, Any]:
    return parse(read_text(path), str(path))


def unknown_key(known: Iterable[str]) -> str:
    return f"unknown key; known keys here: {', '.join(known)}"


def not_one_of(value: Any, choices: Iterable[str]) -> str:
    return f"{value!r} is not one of: {', '.join(choices)}"


def expected(what: str, value: Any) -> str:
    return f"expected {what}, got {describe(value)}"


def describe(value: Any) -> str:
    """How a wrong value reads in an error: its TOML kind and, when short, the value."""
    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, (int, Decimal)):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"text ({value!r})"
    if isinstance(value, list):
        return "a list"
    return "a table" if isinstance(value, dict) else type(value).__name__
