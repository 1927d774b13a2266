"""A Record behaves as the frozen keyword-only dataclass it replaces: the journal's events compare,
hash, show, refuse changes and rebuild exactly as they did."""
import dataclasses
import inspect
import pickle
from datetime import datetime, timezone

import pytest

from croupier.rules.record import Record


class Base(Record):
    """A value with a default, as the events' base has."""

    time: datetime = datetime.min


class Value(Base):
    """A value with every kind of field."""

    name: str
    count: int = 0
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    note: str = dataclasses.field(default="", compare=False, repr=False)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Twin:
    time: datetime = datetime.min
    name: str
    count: int = 0
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    note: str = dataclasses.field(default="", compare=False, repr=False)


WHEN = datetime(2025, 1, 1, tzinfo=timezone.utc)


def test_a_record_is_a_dataclass_with_its_fields_in_order():
    assert dataclasses.is_dataclass(Value)
    assert [f.name for f in dataclasses.fields(Value)] == [f.name for f in dataclasses.fields(Twin)]
    assert Value.__match_args__ == Twin.__match_args__ == ()


def test_it_compares_hashes_and_shows_its_fields_as_the_dataclass_does():
    value, twin = Value(name="a", count=2, note="x"), Twin(name="a", count=2, note="x")
    assert value == Value(name="a", count=2, note="other")  # a field left out of comparison
    assert value != Value(name="a", count=3)
    assert hash(value) == hash(Value(name="a", count=2))
    assert value != twin and Value(name="a") != Base()  # another class is never equal
    assert repr(value) == repr(twin).replace("Twin", "Value")
    assert {value, Value(name="a", count=2)} == {value}


def test_it_is_frozen():
    value = Value(name="a")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
        value.name = "b"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'name'"):
        del value.name  # type: ignore[misc]


def test_replace_pickle_and_factories_work_as_with_a_dataclass():
    value = Value(name="a", tags=("x",))
    assert dataclasses.replace(value, time=WHEN) == Value(time=WHEN, name="a", tags=("x",))
    assert pickle.loads(pickle.dumps(value)) == value
    assert Value(name="a").tags == () and dataclasses.asdict(value) == dataclasses.asdict(Twin(name="a", tags=("x",)))


@pytest.mark.parametrize("arguments", [{}, {"name": "a", "colour": "red"}, {"count": 1}])
def test_a_call_that_does_not_fit_is_refused_in_pythons_words(arguments):
    with pytest.raises(TypeError) as made:
        Twin(**arguments)
    with pytest.raises(TypeError) as record:
        Value(**arguments)
    assert str(record.value) == str(made.value).replace("Twin", "Value")


def test_positional_arguments_are_refused():
    with pytest.raises(TypeError):
        Value("a")  # type: ignore[misc]


def test_its_signature_is_its_fields_by_keyword():
    assert str(inspect.signature(Value)) == str(inspect.signature(Twin))


class Point(Record, kw_only=False):
    """A value whose fields may also come in order."""

    x: int
    y: int = 0
    label: str = dataclasses.field(default="", kw_only=True)


@dataclasses.dataclass(frozen=True)
class PointTwin:
    x: int
    y: int = 0
    label: str = dataclasses.field(default="", kw_only=True)


def test_a_record_may_take_its_fields_in_order():
    assert Point(1, 2) == Point(x=1, y=2) == Point(1, y=2)
    assert Point.__match_args__ == PointTwin.__match_args__ == ("x", "y")
    assert str(inspect.signature(Point)) == str(inspect.signature(PointTwin))
    assert repr(Point(1, label="a")) == repr(PointTwin(1, label="a")).replace("PointTwin", "Point")


@pytest.mark.parametrize("arguments, named", [((), {}), ((1,), {"x": 2}), ((1, 2, 3), {}), ((), {"y": 1})])
def test_a_call_in_order_that_does_not_fit_is_refused_in_pythons_words(arguments, named):
    with pytest.raises(TypeError) as made:
        PointTwin(*arguments, **named)
    with pytest.raises(TypeError) as record:
        Point(*arguments, **named)
    assert str(record.value) == str(made.value).replace("PointTwin", "Point")
