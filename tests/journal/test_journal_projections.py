"""Every reader folds the journal's typed events: each projection's event classes are taken from its
handlers, the timeline describes every event class (or names it silent on purpose) in every
language, and no reader compares an event's kind as a string."""
import ast
import dataclasses
import types
import typing
from datetime import datetime, timezone
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from pathlib import Path

import pytest

import croupier
from croupier.history.croupiers import Croupiers
from croupier.history.ledger import Ledger
from croupier.history.payouts import Overpayments
from croupier.history.procedures import Procedures
from croupier.history.projection import Projection
from croupier.history.shift_results import ShiftResults
from croupier.history.spins import CountedSpins, SpinList
from croupier.history.timeline import SILENT, describe
from croupier.i18n import install
from croupier.journal import fold_codec
from croupier.journal.report import REPORT_EVENTS, ReportFold
from croupier.table.events import EVENT_TYPES, Event

PROJECTIONS = (SpinList, CountedSpins, Procedures, Ledger, Croupiers, Overpayments, ShiftResults)


def sample(kind):
    """A value of type `kind`, every field filled: enough for an event to be described."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in args if a is not type(None)))
    if origin is tuple:
        return (sample(args[0]),) if args[-1] is Ellipsis else tuple(sample(a) for a in args)
    if origin is dict:
        return {sample(args[0]): sample(args[1])}
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return kind(**{f.name: sample(hints[f.name]) for f in dataclasses.fields(kind) if f.init})
    if isinstance(kind, type) and issubclass(kind, Enum):
        return next(iter(kind))
    return {str: "Ana", int: 3, bool: True, Decimal: Decimal(5), Fraction: Fraction(1, 2),
            datetime: datetime(2025, 1, 6, 14, 1, tzinfo=timezone.utc)}[kind]


@pytest.mark.parametrize("event_class", sorted(EVENT_TYPES.values(), key=lambda cls: cls.kind),
                         ids=lambda cls: cls.kind)
def test_every_event_class_is_described_by_the_timeline_in_every_language_or_silent_on_purpose(event_class):
    if event_class in SILENT:
        return
    event = sample(event_class)
    english = describe(event)
    assert english != event.kind, f"the timeline shows {event.kind} by its kind: describe it, or list it in SILENT"
    for language in ("pt", "ru", "it"):
        install(language)
        assert describe(event) != english, f"{event.kind} is not described in {language}"


def test_the_silent_events_are_event_classes():
    assert SILENT <= set(EVENT_TYPES.values())


@pytest.mark.parametrize("projection", PROJECTIONS, ids=lambda cls: cls.__name__)
def test_a_projection_reads_the_event_classes_its_handlers_name(projection):
    assert issubclass(projection, Projection)
    assert projection.EVENTS and set(projection.EVENTS) == set(projection.HANDLERS)
    assert set(projection.EVENTS) <= set(EVENT_TYPES.values())


def test_the_report_reads_every_class_its_projections_fold_and_no_other():
    fold = ReportFold()
    wanted = {cls for projection in fold.projections() for cls in projection.EVENTS}
    assert set(REPORT_EVENTS) == wanted and len(REPORT_EVENTS) == len(wanted)


def test_the_saved_fold_knows_every_class_of_the_report_fold():
    for projection in ReportFold().projections():
        assert fold_codec.CLASSES.get(type(projection).__name__) is type(projection)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_no_reader_names_an_event_kind_as_a_string():
    # The codec (croupier.table.events) is the one place a kind names a class; every other module
    # names the class, or its `kind` when it writes the journal's own format.
    package = Path(croupier.__file__).parent
    codec = package / "table" / "events.py"
    kinds = set(EVENT_TYPES)
    found = []
    for path in sorted(package.rglob("*.py")):
        if path == codec:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        found += [f"{path.relative_to(package)}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in kinds and id(node) not in docstrings]
    assert not found, "\n".join(found)
