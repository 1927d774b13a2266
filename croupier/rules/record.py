"""`Record`: an immutable value compared, hashed and shown by its fields, as cheap to define as a
plain class.

A `@dataclass(frozen=True)` compiles six methods from source for each class as it is imported
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`): about a millisecond a
class, which made the table's hundred-odd events and values most of croupier's own start-up. A
Record's subclass is still a dataclass to every reader (`fields`, `replace`, `asdict`, the journal's
codec; mypy through `dataclass_transform`) and behaves as `@dataclass(frozen=True, kw_only=True)`
would make it (`class P(Record, kw_only=False)`: fields also given in order), but shares these
methods, which work from the field list each class keeps.

Defining a Record imports neither `dataclasses` (with `inspect`, a tenth of `croupier payout`'s
start) nor `typing`: a class reads its own annotations, and becomes a dataclass to `dataclasses`
the first time a reader asks it for its fields. `field` below (or `dataclasses.field`) declares a
field's default and whether it is compared and shown.
"""
from __future__ import annotations

import sys
from operator import attrgetter
from reprlib import recursive_repr

TYPE_CHECKING = False  # typing's flag, which mypy reads, without importing typing at every start
if TYPE_CHECKING:
    from dataclasses import Field
    from dataclasses import field as dataclass_field
    from inspect import Signature
    from typing import Any, Callable, ClassVar, dataclass_transform
else:
    dataclass_field = None

    def dataclass_transform(**_options):
        return lambda cls: cls


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # no default given


class _Spec:
    """A field as `field` declares it, until `dataclasses` makes it a Field."""

    __slots__ = ("default", "default_factory", "repr", "compare", "kw_only", "metadata")

    def __init__(self, default: Any, default_factory: Any, repr: bool, compare: bool, kw_only: Any,
                 metadata: Any) -> None:
        self.default, self.default_factory, self.repr, self.compare = default, default_factory, repr, compare
        self.kw_only, self.metadata = kw_only, metadata


def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True, compare: bool = True,
          kw_only: Any = MISSING, metadata: Any = None) -> Any:
    """A Record field's default (or the factory that makes it afresh) and whether it is shown and
    compared, as `dataclasses.field` says them."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return _Spec(default, default_factory, repr, compare, kw_only, metadata)


def _spec(value: Any, kw_only: bool) -> _Spec:
    """A class attribute as a field's spec: a `field`, a `dataclasses.field` or a plain default."""
    if isinstance(value, _Spec):
        spec = value
    else:
        dataclasses = sys.modules.get("dataclasses")
        if dataclasses is None or not isinstance(value, dataclasses.Field):
            return _Spec(value, MISSING, True, True, kw_only, None)
        unset = dataclasses.MISSING
        spec = _Spec(MISSING if value.default is unset else value.default,
                     MISSING if value.default_factory is unset else value.default_factory,
                     value.repr, value.compare, MISSING if value.kw_only is unset else value.kw_only,
                     value.metadata or None)
    if spec.kw_only is MISSING:
        spec = _Spec(spec.default, spec.default_factory, spec.repr, spec.compare, kw_only, spec.metadata)
    return spec


def _class_var(annotation: object) -> bool:
    """Whether an annotation (text, as every module here writes them) is typing's ClassVar."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "") or repr(annotation)
    return text.split("[", 1)[0].strip().rpartition(".")[2] == "ClassVar"


class _Signature:
    """A Record class's `__signature__`, its fields as keyword parameters (what `inspect` and
    hypothesis read), made when first asked for rather than at import."""

    def __get__(self, record: object, cls: type) -> Signature:
        from dataclasses import fields
        from inspect import Parameter, Signature

        return Signature([Parameter(f.name, Parameter.KEYWORD_ONLY if f.kw_only else Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=f.type, default=_default(f)) for f in fields(cls)], return_annotation=None)


def _default(field: Field[Any]) -> Any:
    from dataclasses import MISSING as unset
    from inspect import Parameter

    if field.default is not unset:
        return field.default
    return Parameter.empty if field.default_factory is unset else _FACTORY


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()  # a default made afresh for each value, as dataclasses shows it


class _DataclassFields:
    """A Record class's `__dataclass_fields__`: the first reader that asks makes the class a
    dataclass (its fields only, no method written), which stores the answer on the class."""

    def __get__(self, record: object, cls: type) -> Any:
        if cls is Record:
            raise AttributeError("__dataclass_fields__")  # the base itself has no fields
        from dataclasses import MISSING as unset
        from dataclasses import dataclass
        from dataclasses import field as dataclass_field

        own = cls.__dict__.get("_own_specs", ())
        for name, spec in own:
            setattr(cls, name, dataclass_field(
                default=unset if spec.default is MISSING else spec.default,
                default_factory=unset if spec.default_factory is MISSING else spec.default_factory,
                repr=spec.repr, compare=spec.compare, kw_only=spec.kw_only, metadata=spec.metadata))
        try:
            dataclass(cls, init=False, repr=False, eq=False)
        finally:
            for name, spec in own:  # the defaults back on the class, as the Record defined them
                if spec.default is not MISSING:
                    setattr(cls, name, spec.default)
                elif name in cls.__dict__:
                    delattr(cls, name)
        return cls.__dict__["__dataclass_fields__"]


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field, dataclass_field))
class Record:
    """Base of an immutable value: its annotated attributes are its fields, given by keyword."""

    # Per class: its fields' specs by name (its bases' first), those it declares itself, each
    # field's (name, default, default factory), those that may come in order, those shown, and
    # the compared fields' getter. Declared for the type checker only: typing.get_type_hints (as
    # hypothesis reads a class) finds no name here it cannot resolve without typing imported.
    if TYPE_CHECKING:
        _specs: ClassVar[dict[str, _Spec]]
        _own_specs: ClassVar[tuple[tuple[str, _Spec], ...]]
        _init_fields: ClassVar[tuple[tuple[str, Any, Any], ...]]
        _in_order: ClassVar[tuple[str, ...]]
        _shown: ClassVar[tuple[str, ...]]
        _compared: ClassVar[Callable[[Any], Any]]
        __signature__: ClassVar[Signature]
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    __signature__ = _Signature()  # type: ignore[assignment]
    __dataclass_fields__ = _DataclassFields()  # type: ignore[assignment]

    def __init_subclass__(cls, *, kw_only: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        specs: dict[str, _Spec] = {}
        for base in reversed(cls.__mro__[1:]):
            specs.update(base.__dict__.get("_specs", {}))
        own = []
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if _class_var(annotation):
                continue
            spec = _spec(cls.__dict__.get(name, MISSING), kw_only)
            own.append((name, spec))
            specs[name] = spec
            if spec.default is not MISSING:
                setattr(cls, name, spec.default)
            elif name in cls.__dict__:
                delattr(cls, name)
        cls._specs, cls._own_specs = specs, tuple(own)
        cls._init_fields = tuple((name, s.default, s.default_factory) for name, s in specs.items())
        cls._in_order = tuple(name for name, s in specs.items() if not s.kw_only)
        cls._shown = tuple(name for name, s in specs.items() if s.repr)
        compared = [name for name, s in specs.items() if s.compare]
        cls._compared = attrgetter(*compared) if compared else lambda _: ()
        if "__match_args__" not in cls.__dict__:
            setattr(cls, "__match_args__", cls._in_order)
        # Its own, so that a base already made a dataclass does not lend it the base's fields.
        setattr(cls, "__dataclass_fields__", _DataclassFields())

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
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        values = type(self)._compared  # through the class: a function stored there is not bound
        return values(self) == values(other)

    def __hash__(self) -> int:
        return hash(type(self)._compared(self))

    def __setattr__(self, name: str, value: Any) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")
