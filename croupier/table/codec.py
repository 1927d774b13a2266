"""Plain-data form of the table's dataclasses, for the canonical JSON of events and snapshots.

Money and chip values are Decimal or Fraction written as strings, never floats, so the encoding of
a recorded value is exact and the same on every machine. Times are aware UTC datetimes in ISO 8601.
"""
from __future__ import annotations

import dataclasses
import json
import types
import typing
from datetime import datetime, timezone
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any


WHEN_SET = "recorded-when-set"  # field metadata: see when_set()


class CodecError(ValueError):
    """A value that cannot be written canonically, or recorded data that does not read back."""


def when_set(default: Any = None) -> Any:
    """A field added to an event after journals were written: written only when it differs from
    `default`, so an event recorded before it existed keeps its canonical bytes, and its hash."""
    return dataclasses.field(default=default, metadata={WHEN_SET: True})


def canonical_json(data: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8: one byte string per value, the input of the hash chain."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def to_plain(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)) and not isinstance(value, Enum):
        return value
    if isinstance(value, float):
        raise CodecError(f"float {value!r} cannot be recorded exactly; use Decimal or Fraction")
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (Decimal, Fraction)):
        return str(value)
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise CodecError(f"time {value} has no time zone")
        return value.astimezone(timezone.utc).isoformat(timespec="microseconds")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        plain = {}
        for name, when_set_only, default in _fields(type(value)):
            field_value = getattr(value, name)
            if not (when_set_only and field_value == default):
                plain[name] = to_plain(field_value)
        return plain
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {_key(k): to_plain(v) for k, v in value.items()}
    raise CodecError(f"cannot record a {type(value).__name__}")


def _key(key: Any) -> str:
    """JSON object keys are strings: enums by value, whole numbers in decimal."""
    plain = to_plain(key)
    if isinstance(plain, bool) or not isinstance(plain, (str, int)):
        raise CodecError(f"cannot use {key!r} as a key")
    return str(plain)


# What the codec reads of a type is worked out once per type, not once per value.

@cache
def _fields(cls: type) -> tuple[tuple[str, bool, Any], ...]:
    """Each field of dataclass `cls`: its name, whether it is recorded only when set, its default."""
    return tuple((f.name, bool(f.metadata.get(WHEN_SET)), f.default) for f in dataclasses.fields(cls))


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _shape(kind: Any) -> tuple[Any, tuple[Any, ...]]:
    return typing.get_origin(kind), typing.get_args(kind)


def from_plain(kind: Any, data: Any) -> Any:
    """Rebuild a value of type `kind` from its plain form; CodecError names what does not fit."""
    origin, args = _shape(kind)
    if origin in (typing.Union, types.UnionType):
        options = args
        if data is None and type(None) in options:
            return None
        (inner,) = [o for o in options if o is not type(None)]
        return from_plain(inner, data)
    if origin is tuple:
        _expect(data, list, kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(args[0], v) for v in data)
        if len(args) != len(data):
            raise CodecError(f"expected {len(args)} items, found {len(data)}")
        return tuple(from_plain(a, v) for a, v in zip(args, data))
    if origin is dict:
        key_kind, value_kind = args
        _expect(data, dict, kind)
        return {from_plain(key_kind, _unkey(key_kind, k)): from_plain(value_kind, v) for k, v in data.items()}
    if kind is Any:
        return data
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        _expect(data, dict, kind)
        hints = _hints(kind)
        unknown = data.keys() - _field_names(kind)
        if unknown:
            raise CodecError(f"{kind.__name__} has no field {sorted(unknown)[0]!r}")
        try:
            return kind(**{name: from_plain(hints[name], v) for name, v in data.items()})
        except TypeError as exc:
            raise CodecError(f"{kind.__name__}: {exc}") from None
    if kind is bool:
        return _expect(data, bool, kind)
    if kind is int:
        if isinstance(data, bool):
            raise CodecError(f"expected a whole number, found {data!r}")
        return _expect(data, int, kind)
    if kind is str:
        return _expect(data, str, kind)
    if kind in (Decimal, Fraction):
        _expect(data, str, kind)
        try:
            return kind(data)
        except (ArithmeticError, ValueError):
            raise CodecError(f"{data!r} is not a {kind.__name__}") from None
    if kind is datetime:
        _expect(data, str, kind)
        try:
            moment = datetime.fromisoformat(data)
        except ValueError:
            raise CodecError(f"{data!r} is not a time") from None
        if moment.tzinfo is None:
            raise CodecError(f"time {data!r} has no time zone")
        return moment
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(data)
        except ValueError:
            raise CodecError(f"{data!r} is not a {kind.__name__}") from None
    raise CodecError(f"no plain form for {kind!r}")


def _unkey(kind: Any, key: str) -> Any:
    if kind is int:
        try:
            return int(key)
        except ValueError:
            raise CodecError(f"key {key!r} is not a whole number") from None
    return key


def _expect(data: Any, python_type: type, kind: Any) -> Any:
    if not isinstance(data, python_type):
        raise CodecError(f"expected {getattr(kind, '__name__', kind)}, found {data!r}")
    return data
