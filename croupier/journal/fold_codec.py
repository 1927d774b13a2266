"""The report's fold as plain data: a JSON text and the raw bytes of its columns. Reading it runs no
code: the JSON parser makes strings, numbers, lists and dicts; each tagged value becomes one of a
fixed list of plain types; an object becomes an instance of one of the fold's own classes, made
without calling anything of that class (no `__init__`, no `__setstate__`) and filled with its
attributes. Anything else is refused (FoldFormatError). Objects shared within the fold (a
croupier's figures, on the wheel and in the list) stay shared.
"""
from __future__ import annotations

import json
from array import array
from collections import Counter, defaultdict
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import BinaryIO

from croupier.history.croupiers import CroupierFigures, Croupiers
from croupier.history.ledger import ColourStatement, Ledger
from croupier.history.payouts import Overpayment, Overpayments
from croupier.history.procedures import LISTS, RECORDS, AlarmRecord, OpeningRecord, Procedures, typed
from croupier.history.shift_results import ColourInShift, Shift, ShiftResults
from croupier.history.spins import SpinList
from croupier.journal.report import ReportFold
from croupier.table.events import ColourOutcome

# The classes a fold is made of, by the name the file gives them; nothing else is ever made.
CLASSES: dict[str, type] = {cls.__name__: cls for cls in (
    ReportFold, SpinList, Procedures, Ledger, ColourStatement, Croupiers, CroupierFigures, Overpayments, Overpayment,
    ShiftResults, Shift, ColourInShift, ColourOutcome, *RECORDS)}
FACTORIES: dict[str, type] = {f.__name__: f for f in (list, dict, set, int, Decimal, Fraction)}  # of a defaultdict
COLUMNS = frozenset("bBhHiIlLqQfd")  # array typecodes, each of a fixed size


class FoldFormatError(ValueError):
    """A saved fold that is not one: the message says what is wrong."""


class _Writer:
    def __init__(self) -> None:
        self.columns: list[array | bytearray] = []
        self.ids: dict[int, int] = {}
        self.keep: list[object] = []  # keeps each numbered object alive, so its id is not reused

    def numbered(self, value: object) -> int | None:
        """The number of an object met before; else None, and the object is numbered now."""
        known = self.ids.get(id(value))
        if known is None:
            self.ids[id(value)] = len(self.ids)
            self.keep.append(value)
        return known

    def plain(self, value: object):
        if value is None or type(value) in (bool, int, float, str):
            return value
        if isinstance(value, (array, bytearray)):
            self.columns.append(value)
            return {"c": value.typecode if isinstance(value, array) else "bytes", "n": len(value)}
        if isinstance(value, tuple):
            return {"t": [self.plain(v) for v in value]}
        if isinstance(value, Decimal):
            return {"D": str(value)}
        if isinstance(value, Fraction):
            return {"F": str(value)}
        if isinstance(value, datetime):
            return {"T": value.isoformat()}
        if isinstance(value, date):
            return {"Y": value.isoformat()}
        if isinstance(value, timedelta):
            return {"I": [value.days, value.seconds, value.microseconds]}
        if isinstance(value, frozenset):
            return {"f": [self.plain(v) for v in value]}
        known = self.numbered(value)
        if known is not None:
            return {"r": known}
        if isinstance(value, list):
            return {"l": [self.plain(v) for v in value]}
        if isinstance(value, set):
            return {"s": [self.plain(v) for v in value]}
        if isinstance(value, dict):
            pairs = [[self.plain(k), self.plain(v)] for k, v in value.items()]
            if isinstance(value, defaultdict):
                name = getattr(value.default_factory, "__name__", "")
                if FACTORIES.get(name) is not value.default_factory:
                    raise FoldFormatError(f"a defaultdict of {value.default_factory!r} is not part of a report's fold")
                return {"dd": name, "d": pairs}
            return {"C" if isinstance(value, Counter) else "d": pairs}
        kind = type(value)
        if CLASSES.get(kind.__name__) is kind:
            return {"o": kind.__name__, "a": [[name, self.plain(v)] for name, v in vars(value).items()]}
        raise FoldFormatError(f"{kind.__module__}.{kind.__qualname__} is not part of a report's fold")


def write(fold: ReportFold, header: dict, out: BinaryIO) -> None:
    """`header` (plain JSON) and `fold`: a length, the JSON text, then each column's raw bytes."""
    writer = _Writer()
    text = json.dumps({"header": header, "fold": writer.plain(fold)}, separators=(",", ":")).encode()
    out.write(len(text).to_bytes(8, "big"))
    out.write(text)
    for column in writer.columns:
        out.write(column if isinstance(column, bytearray) else column.tobytes())


def read_header(stream: BinaryIO) -> tuple[dict, dict]:
    """The header and the fold's JSON, from where `write` began."""
    size = int.from_bytes(stream.read(8), "big")
    try:
        document = json.loads(stream.read(size))
        return document["header"], document["fold"]
    except (ValueError, KeyError, TypeError) as exc:
        raise FoldFormatError(f"not a saved fold ({exc})") from None


class _Reader:
    def __init__(self, columns: BinaryIO) -> None:
        self.stream = columns
        self.objects: dict[int, object] = {}

    def _number(self, value: object) -> None:
        self.objects[len(self.objects)] = value

    def value(self, data):
        if data is None or type(data) in (bool, int, float, str):
            return data
        if type(data) is not dict or len(data) not in (1, 2):
            raise FoldFormatError(f"{type(data).__name__} is not a value of a saved fold")
        tag = next(iter(data))
        body = data[tag]
        try:
            return self._tagged(tag, body, data)
        except FoldFormatError:
            raise
        except (ValueError, TypeError, KeyError, ArithmeticError, OverflowError, EOFError) as exc:
            raise FoldFormatError(f"a saved fold's {tag!r} value cannot be read ({exc})") from None

    def _tagged(self, tag: str, body, data: dict):
        if tag == "c":
            return self._column(body, data["n"])
        if tag == "t":
            return tuple(self.value(v) for v in body)
        if tag == "D":
            return Decimal(body)
        if tag == "F":
            return Fraction(body)
        if tag == "T":
            return datetime.fromisoformat(body)
        if tag == "Y":
            return date.fromisoformat(body)
        if tag == "I":
            return timedelta(days=body[0], seconds=body[1], microseconds=body[2])
        if tag == "f":
            return frozenset(self.value(v) for v in body)
        if tag == "r":
            return self.objects[body]
        if tag == "l":
            items: list = []
            self._number(items)
            items.extend(self.value(v) for v in body)
            return items
        if tag == "s":
            members: set = set()
            self._number(members)
            members.update(self.value(v) for v in body)
            return members
        if tag in ("d", "C", "dd"):
            mapping: dict = (dict() if tag == "d" else Counter() if tag == "C"
                             else defaultdict(FACTORIES[body]))
            self._number(mapping)
            for key, value in (data["d"] if tag == "dd" else body):
                mapping[self.value(key)] = self.value(value)
            return mapping
        if tag == "o":
            cls = CLASSES.get(body)
            if cls is None:
                raise FoldFormatError(f"{body!r} is not one of a report fold's classes")
            instance: object = object.__new__(cls)  # nothing of the class runs: its attributes are set as saved
            self._number(instance)
            attributes = {}
            for name, value in data["a"]:
                if type(name) is not str or name.startswith("__"):
                    raise FoldFormatError(f"{name!r} is not an attribute of a report's fold")
                attributes[name] = self.value(value)
            instance.__dict__.update(attributes)
            return instance
        raise FoldFormatError(f"{tag!r} is not a value of a saved fold")

    def _column(self, typecode: str, length: int):
        if typecode == "bytes":
            data = self.stream.read(length)
            if len(data) != length:
                raise FoldFormatError("a saved fold ends before its columns do")
            return bytearray(data)
        if typecode not in COLUMNS or type(length) is not int or length < 0:
            raise FoldFormatError(f"{typecode!r} is not a column of a saved fold")
        column = array(typecode)
        try:
            column.fromfile(self.stream, length)
        except EOFError:
            raise FoldFormatError("a saved fold ends before its columns do") from None
        return column


def read_fold(document: dict, columns: BinaryIO) -> ReportFold:
    """The fold `read_header` gave, its columns read from `columns` (where `write` put them)."""
    fold = _Reader(columns).value(document)
    if type(fold) is not ReportFold:
        raise FoldFormatError("a saved fold holds no report fold")
    _typed_procedures(fold)
    return fold


def _typed_procedures(fold: ReportFold) -> None:
    """A fold kept when the procedures were plain dicts: each becomes its record, as the fold makes it now."""
    procedures = getattr(fold, "procedures", None)
    if type(procedures) is not Procedures:
        raise FoldFormatError("a saved fold holds no procedures")
    try:
        for name, kind in LISTS.items():
            records = getattr(procedures, name)
            records[:] = [typed(r, kind) if type(r) is dict else r for r in records]
        procedures.tables[:] = [typed(r, OpeningRecord) if type(r) is dict else r for r in procedures.tables]
        alarms = procedures._alarms
        for number, alarm in alarms.items():
            if type(alarm) is dict:
                alarms[number] = typed(alarm, AlarmRecord)
    except (AttributeError, TypeError) as exc:
        raise FoldFormatError(f"a saved fold's procedures cannot be read ({exc})") from None
