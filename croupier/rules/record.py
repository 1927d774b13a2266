"""`Record`: an immutable value compared, hashed and shown by its fields, as cheap to define as a
plain class.

A `@dataclass(frozen=True)` compiles six methods from source for each class as it is imported
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`): about a millisecond a
class, which made the table's hundred-odd events and values most of croupier's own start-up. A
Record's subclass is still a dataclass to every reader (`fields`, `replace`, `asdict`, the journal's
codec; mypy through `dataclass_transform`) and behaves as `@dataclass(frozen=True, kw_only=True)`
would make it (`class P(Record, kw_only=False)`: fields also given in order), but shares these
methods, which work from the field list each class keeps.
"""
from __future__ import annotations

from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, fields
from inspect import Parameter, Signature
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, Callable, ClassVar, dataclass_transform


class _Signature:
    """A Record class's `__signature__`, its fields as keyword parameters (what `inspect` and
    hypothesis read), made when first asked for rather than at import."""

    def __get__(self, record: object, cls: type) -> Signature:
        return Signature([Parameter(f.name, Parameter.KEYWORD_ONLY if f.kw_only else Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=f.type, default=_default(f)) for f in fields(cls)], return_annotation=None)


def _default(field: Field[Any]) -> Any:
    if field.default is not MISSING:
        return field.default
    return Parameter.empty if field.default_factory is MISSING else _FACTORY


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()  # a default made afresh for each value, as dataclasses shows it


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Record:
    """Base of an immutable value: its annotated attributes are its fields, given by keyword."""

    # Per class: each field's (name, default, default factory), those that may come in order, and
    # the compared fields' getter.
    _init_fields: ClassVar[tuple[tuple[str, Any, Any], ...]]
    _in_order: ClassVar[tuple[str, ...]]
    _compared: ClassVar[Callable[[Any], Any]]
    __signature__: ClassVar[Signature] = _Signature()  # type: ignore[assignment]

    def __init_subclass__(cls, *, kw_only: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(cls, init=False, repr=False, eq=False, kw_only=kw_only)  # the fields only: no method written
        cls._init_fields = tuple((f.name, f.default, f.default_factory) for f in fields(cls))  # type: ignore[arg-type]
        cls._in_order = tuple(f.name for f in fields(cls) if not f.kw_only)  # type: ignore[arg-type]
        compared = [f.name for f in fields(cls) if f.compare]  # type: ignore[arg-type]
        cls._compared = attrgetter(*compared) if compared else lambda _: ()

    def __init__(self, *in_order: Any, **values: Any) -> None:
        if in_order:
            values = self._named(in_order, values)
        put = object.__setattr__
        for name, default, factory in self._init_fields:
            value = values.pop(name, default)
            if value is MISSING:
                if factory is MISSING:
                    self._refuse(values)
                value = factory()
            put(self, name, value)
        if values:
            self._refuse(values)

    def _named(self, in_order: tuple[Any, ...], values: dict[str, Any]) -> dict[str, Any]:
        call = f"{type(self).__qualname__}.__init__()"
        if len(in_order) > len(self._in_order):
            most = len(self._in_order) + 1  # self counted, as Python counts it
            least = 1 + sum(1 for name, default, factory in self._init_fields
                            if name in self._in_order and default is MISSING and factory is MISSING)
            takes = str(most) if least == most else f"from {least} to {most}"
            raise TypeError(f"{call} takes {takes} positional arguments but {len(in_order) + 1} were given")
        for name, value in zip(self._in_order, in_order):
            if name in values:
                raise TypeError(f"{call} got multiple values for argument {name!r}")
            values[name] = value
        return values

    def _refuse(self, rest: dict[str, Any]) -> None:
        """Python's own words for a call that does not fit the fields (`rest`: those not yet set)."""
        call = f"{type(self).__qualname__}.__init__()"
        unknown = [name for name in rest if name not in {f[0] for f in self._init_fields}]
        if unknown:
            raise TypeError(f"{call} got an unexpected keyword argument {unknown[0]!r}")
        missing = [name for name, default, factory in self._init_fields
                   if default is MISSING and factory is MISSING and name not in rest and name not in vars(self)]
        in_order = [repr(name) for name in missing if name in self._in_order]  # Python names these first
        kind, named = ("positional", in_order) if in_order else ("keyword-only", [repr(name) for name in missing])
        listed = " and ".join(named) if len(named) <= 2 else ", ".join(named[:-1]) + ", and " + named[-1]
        raise TypeError(f"{call} missing {len(named)} required {kind} argument{'s' * (len(named) > 1)}: {listed}")

    @recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)  # type: ignore[arg-type]
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        values = type(self)._compared  # through the class: a function stored there is not bound
        return values(self) == values(other)

    def __hash__(self) -> int:
        return hash(type(self)._compared(self))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
