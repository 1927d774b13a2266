"""The report's fold, saved at the event it reached, so that the next report of the same journal
folds only what the table recorded since: a year's report in seconds instead of a pass over a year.

A saved fold is the user's own: it is kept in their cache directory ($XDG_CACHE_HOME/croupier,
else ~/.cache/croupier), never beside the journal, one file per journal path, signed with a key
made on first use and readable only by them. It is taken up only when its signature checks, when
it was made by the same fold (the text of the modules that fold), and when the journal still has,
at the event the fold reached, the hash it had then: the hash chain ties that hash to every event
before it. The events after it are checked and folded as usual. Anything else, and any error
reading or writing the cache, means a whole fold, as without it.
"""
from __future__ import annotations

import hashlib
import hmac
import io
import logging
import os
import pickle
from array import array
from pathlib import Path
from typing import cast

from croupier.journal.report import ReportFold
from croupier.journal.store import Journal

log = logging.getLogger(__name__)

KEY_BYTES, LENGTH_BYTES, SIGNATURE_BYTES = 32, 8, hashlib.sha256().digest_size
# What a saved fold may hold: the fold's own classes and the plain data inside them.
ALLOWED = {"decimal": {"Decimal"}, "fractions": {"Fraction"},
           "datetime": {"datetime", "date", "timedelta", "timezone"}, "collections": {"defaultdict", "Counter"},
           "builtins": {"set", "frozenset", "bytearray", "dict", "list", "tuple"}}


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "croupier"


def _fold_stamp() -> bytes:
    """The code that makes the fold's figures (the report and every projection): a fold saved by
    other code is not taken up."""
    import croupier.history
    import croupier.journal.report

    digest = hashlib.sha256()
    for path in [Path(croupier.journal.report.__file__), *sorted(Path(croupier.history.__file__).parent.glob("*.py"))]:
        digest.update(path.read_bytes())
    return digest.digest()


def _resolved(journal: Journal) -> str:
    return str(Path(journal.path).resolve())


def _file_for(journal: Journal) -> Path:
    return cache_dir() / f"report-{hashlib.sha256(_resolved(journal).encode()).hexdigest()[:32]}.fold"


def _signature(key: bytes, stream) -> bytes:
    """The HMAC of what `stream` holds from where it stands to its end, read a block at a time."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    while block := stream.read(1 << 20):
        mac.update(block)
    return mac.digest()


def _key(create: bool) -> bytes | None:
    path = cache_dir() / "report.key"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if not create:
            return None
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = os.urandom(KEY_BYTES)
    try:
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as out:
            out.write(key)
    except FileExistsError:  # another report made it meanwhile
        return path.read_bytes()
    return key


class _FoldPickler(pickle.Pickler):
    """Arrays (the spins' columns, a year is half a million long) are written after the pickle, raw,
    in the order met: neither writing nor reading holds a second copy of them."""

    def __init__(self, out, arrays: list[array]) -> None:
        super().__init__(out, protocol=5)
        self.arrays = arrays

    def persistent_id(self, obj):
        if type(obj) is array:
            self.arrays.append(obj)
            return "array", obj.typecode, len(obj)
        return None


class _FoldUnpickler(pickle.Unpickler):
    def __init__(self, pickled, arrays) -> None:
        super().__init__(pickled)
        self.arrays = arrays  # the file, where the raw arrays begin, read in the order they were written

    def persistent_load(self, pid):
        kind, typecode, length = pid
        if kind != "array":
            raise pickle.UnpicklingError(f"{kind!r} is not part of a report's fold")
        column = array(typecode)
        column.fromfile(self.arrays, length)
        return column

    def find_class(self, module: str, name: str):
        if module.startswith("croupier.") or name in ALLOWED.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a report's fold")


def load(journal: Journal, *, mark_only: bool = False) -> tuple[ReportFold | None, tuple[int, str]] | None:
    """The fold saved for this journal and the (seq, hash) it reached, if it may be taken up;
    `mark_only`: the point alone (None for the fold), which a report over days needs."""
    try:
        key = _key(create=False)
        if key is None:
            return None
        with open(_file_for(journal), "rb") as saved:
            signature = saved.read(SIGNATURE_BYTES)
            if not hmac.compare_digest(_signature(key, saved), signature):
                log.warning("the saved report fold %s is not signed with this user's key: not used", saved.name)
                return None
            saved.seek(SIGNATURE_BYTES)
            size = int.from_bytes(saved.read(LENGTH_BYTES), "big")
            unpickler = _FoldUnpickler(io.BytesIO(saved.read(size)), saved)
            stamp, path, reached = unpickler.load()
            if (stamp != _fold_stamp() or path != _resolved(journal)
                    or journal.hash_at(reached[0]) != reached[1]):
                return None
            fold = None if mark_only else unpickler.load()
    except FileNotFoundError:
        return None
    except Exception as exc:  # a cache is never a reason to fail: the whole fold is done instead
        log.info("the saved report fold could not be read (%s): the journal is folded whole", exc)
        return None
    if not (mark_only or isinstance(fold, ReportFold)):
        return None
    return fold, reached


def save(journal: Journal, fold: ReportFold, reached: tuple[int, str]) -> None:
    """Keep `fold`, which has folded this journal's events up to `reached` (seq, hash), all checked."""
    try:
        key = cast(bytes, _key(create=True))  # made when missing
        target = _file_for(journal)
        partial = target.with_suffix(".partial")
        pickled, arrays = io.BytesIO(), list[array]()
        pickler = _FoldPickler(pickled, arrays)
        pickler.dump((_fold_stamp(), _resolved(journal), reached))  # read first, alone if need be
        pickler.dump(fold)
        with open(os.open(partial, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600), "w+b") as out:
            # signature, pickle length, pickle, raw arrays; signed as read back: nothing twice in memory
            out.write(bytes(SIGNATURE_BYTES))
            out.write(len(pickled.getbuffer()).to_bytes(LENGTH_BYTES, "big"))
            out.write(pickled.getbuffer())
            for column in arrays:
                column.tofile(out)
            out.seek(SIGNATURE_BYTES)
            signature = _signature(key, out)
            out.seek(0)
            out.write(signature)
        os.replace(partial, target)
    except Exception as exc:
        log.warning("the report fold could not be saved (%s): the next report folds the journal whole", exc)
