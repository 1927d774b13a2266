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
from typing import Any, Callable


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


def from_plain(kind: Any, data: Any) -> Any:
    """Rebuild a value of type `kind` from its plain form; CodecError names what does not fit."""
    return _reader(kind)(data)


# A reader per type, made once from the type's shape: a year of events is read without working out
# at every value what its type is made of.

@cache
def _reader(kind: Any) -> Callable[[Any], Any]:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        inner = [o for o in args if o is not type(None)]
        if len(inner) != 1:
            raise CodecError(f"no plain form for {kind!r}")
        read_inner = _reader(inner[0])
        if len(inner) == len(args):
            return read_inner
        return lambda data: None if data is None else read_inner(data)
    if origin is tuple:
        return _tuple_reader(kind, args)
    if origin is dict:
        return _dict_reader(kind, *args)
    if kind is Any:
        return lambda data: data
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass_reader(kind)
    if kind in (bool, str):
        return lambda data: data if type(data) is kind else _expect(data, kind, kind)
    if kind is int:
        def read_int(data: Any) -> int:
            if type(data) is int:
                return data
            if isinstance(data, bool):
                raise CodecError(f"expected a whole number, found {data!r}")
            return _expect(data, int, kind)
        return read_int
    if kind in (Decimal, Fraction):
        def read_number(data: Any) -> Any:
            _expect(data, str, kind)
            try:
                return kind(data)
            except (ArithmeticError, ValueError):
                raise CodecError(f"{data!r} is not a {kind.__name__}") from None
        return read_number
    if kind is datetime:
        return _read_time
    if isinstance(kind, type) and issubclass(kind, Enum):
        members = kind._value2member_map_

        def read_member(data: Any) -> Any:
            try:
                return members[data]
            except (KeyError, TypeError):
                pass
            try:
                return kind(data)
            except ValueError:
                raise CodecError(f"{data!r} is not a {kind.__name__}") from None
        return read_member

    def unknown(data: Any) -> Any:
        raise CodecError(f"no plain form for {kind!r}")
    return unknown


def _tuple_reader(kind: Any, args: tuple[Any, ...]) -> Callable[[Any], Any]:
    if len(args) == 2 and args[1] is Ellipsis:
        read_item = _reader(args[0])

        def read_all(data: Any) -> tuple:
            _expect(data, list, kind)
            return tuple(map(read_item, data)) if data else ()
        return read_all
    readers = [_reader(a) for a in args]

    def read_fixed(data: Any) -> tuple:
        _expect(data, list, kind)
        if len(readers) != len(data):
            raise CodecError(f"expected {len(readers)} items, found {len(data)}")
        return tuple(read(v) for read, v in zip(readers, data))
    return read_fixed


def _dict_reader(kind: Any, key_kind: Any, value_kind: Any) -> Callable[[Any], Any]:
    read_key, read_value = _reader(key_kind), _reader(value_kind)

    def read_mapping(data: Any) -> dict:
        _expect(data, dict, kind)
        return {read_key(_unkey(key_kind, k)): read_value(v) for k, v in data.items()}
    return read_mapping


def _dataclass_reader(kind: type) -> Callable[[Any], Any]:
    hints = _hints(kind)
    fields = dataclasses.fields(kind)
    readers = {f.name: _reader(hints[f.name]) for f in fields}
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    required = frozenset(f.name for f in fields if f.default is dataclasses.MISSING)
    # A plain dataclass (every field set by __init__, nothing run after it, no factory) is filled
    # in directly: what its __init__ would do, without the frozen class's setattr per field.
    plain = (not hasattr(kind, "__post_init__") and not hasattr(kind, "__slots__") and all(f.init for f in fields)
             and all(f.default_factory is dataclasses.MISSING for f in fields))
    new = object.__new__
    # Values JSON already gives in their final form (a name, a count, a flag, a null) are taken as
    # they are, without a reader's call: most of an event's fields.
    direct = {name: _as_read(hints[name]) for name in readers}

    def read_fields(data: Any) -> Any:
        if type(data) is not dict:
            _expect(data, dict, kind)
        try:
            values = {name: v if type(v) in direct[name] else readers[name](v) for name, v in data.items()}
        except (KeyError, CodecError):
            unknown = data.keys() - readers.keys()
            if not unknown:
                raise
            raise CodecError(f"{kind.__name__} has no field {sorted(unknown)[0]!r}") from None
        if plain and required <= values.keys():
            made: Any = new(kind)
            attributes = made.__dict__
            attributes.update(defaults)
            attributes.update(values)
            return made
        try:
            return kind(**values)
        except TypeError as exc:
            raise CodecError(f"{kind.__name__}: {exc}") from None
    return _unrolled(kind, fields, readers, direct, read_fields) if plain else read_fields


def _unrolled(kind: type, fields: tuple[dataclasses.Field, ...], readers: dict[str, Callable[[Any], Any]],
              direct: dict[str, frozenset[type]], generic: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The reader of a plain dataclass written out for its fields, as dataclasses writes __init__:
    each field looked up once, a value JSON gives as it is taken without a call. Anything else (a
    field missing or unknown, a value that does not read) goes to `generic`, which says what."""
    scope: dict[str, Any] = {"new": object.__new__, "kind": kind, "names": frozenset(readers), "generic": generic,
                             "CodecError": CodecError, "MISSING": dataclasses.MISSING}
    body = ["def read(data):",
            "    if type(data) is not dict or not data.keys() <= names:",
            "        return generic(data)",
            "    try:",
            "        made = new(kind)",
            "        fields = made.__dict__"]
    for at, f in enumerate(fields):
        scope[f"read{at}"], scope[f"direct{at}"], scope[f"default{at}"] = readers[f.name], direct[f.name], f.default
        value = f"v if type(v) in direct{at} else read{at}(v)" if direct[f.name] else f"read{at}(v)"
        body.append(f"        v = data.get({f.name!r}, MISSING)")
        if f.default is dataclasses.MISSING:
            body += ["        if v is MISSING:", "            return generic(data)", f"        fields[{f.name!r}] = {value}"]
        else:
            body.append(f"        fields[{f.name!r}] = default{at} if v is MISSING else {value}")
    body += ["    except CodecError:", "        return generic(data)", "    return made"]
    exec("\n".join(body), scope)  # noqa: S102 - the text is made here from the class's own field names
    return scope["read"]


def _as_read(kind: Any) -> frozenset[type]:
    """The JSON types a value of type `kind` is read as, unchanged."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return frozenset().union(*(_as_read(a) for a in args))
    if kind is type(None):
        return frozenset({type(None)})
    return frozenset({kind}) if kind in (str, int, bool) else frozenset()


def _read_time(data: Any) -> datetime:
    _expect(data, str, datetime)
    try:
        moment = datetime.fromisoformat(data)
    except ValueError:
        raise CodecError(f"{data!r} is not a time") from None
    if moment.tzinfo is None:
        raise CodecError(f"time {data!r} has no time zone")
    return moment


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
