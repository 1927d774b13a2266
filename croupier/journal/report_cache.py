"""The report's fold, saved at the event it reached, so that the next report of the same journal
folds only what the table recorded since: a year's report in seconds instead of a pass over a year.

A saved fold must never change a figure. So:

- It is plain data (`fold_codec`): reading it runs no code, whatever the file holds.
- It is signed with a key derived from the table's key, which is kept with the journal and never
  in the cache: only who can read the table's key (and so could sign the journal itself) can make
  a fold the report takes up. Without the table's key nothing is saved or taken up.
- It is kept in the user's cache directory ($XDG_CACHE_HOME/croupier, else ~/.cache/croupier),
  one file per journal path; a fold, a folder or a table's key that anyone but its owner may
  write (or that belongs to someone else) is not used.
- It is taken up only when its signature checks, when it was made by the same fold (the text of
  the modules that fold) for this journal, and when the journal still has, at the event the fold
  reached, the hash it had then: the hash chain ties that hash to every event before it.

Anything else means a whole fold, with a notice saying why (`CacheNotice`); a missing fold (the
first report) says nothing.
"""
from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path
from typing import Callable

from croupier.journal import fold_codec, fold_stamp
from croupier.journal.file_trust import untrusted
from croupier.journal.key import KeyFileError, mode_problem, read_key
from croupier.journal.report import ReportFold
from croupier.journal.store import Journal

SIGNATURE_BYTES = hashlib.sha256().digest_size
MAGIC = b"croupier report fold 2\n"
Notice = Callable[[str], None]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "croupier"


def _resolved(journal: Journal) -> str:
    return str(Path(journal.path).resolve())


def _file_for(journal: Journal) -> Path:
    return cache_dir() / f"report-{hashlib.sha256(_resolved(journal).encode()).hexdigest()[:32]}.fold"


def _writable_by_others(path: Path, owners: set[int]) -> str | None:
    """Why `path` is not safe to trust, or None: it must belong to one of `owners` and be writable
    by no one else."""
    problem = untrusted(path.stat(), owners)
    return f"{path} {problem}" if problem else None


def fold_key(key_path: Path, journal_path: Path, notice: Notice) -> bytes | None:
    """The key that signs this user's saved folds of the journal, derived from the table's key at
    `key_path`; None (with a notice, unless the file is simply not there or not readable) when it
    cannot be trusted."""
    try:
        key = read_key(key_path)
        problem = (mode_problem(key_path)
                   or _writable_by_others(key_path, {os.geteuid(), 0, Path(journal_path).stat().st_uid}))
    except KeyFileError as exc:
        if Path(key_path).exists() and os.access(key_path, os.R_OK):
            notice(f"no saved fold is used or kept: {exc}")
        return None
    except OSError as exc:
        notice(f"no saved fold is used or kept: {key_path}: {exc.strerror or exc}")
        return None
    if problem:
        notice(f"no saved fold is used or kept: {problem}")
        return None
    return hmac.new(key, b"croupier report fold", hashlib.sha256).digest()


def _signature(key: bytes, stream) -> bytes:
    """The HMAC of what `stream` holds from where it stands to its end, read a block at a time."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    while block := stream.read(1 << 20):
        mac.update(block)
    return mac.digest()


def _trusted_folder(create: bool) -> Path:
    folder = cache_dir()
    if create:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    problem = _writable_by_others(folder, {os.geteuid()})
    if problem:
        raise OSError(problem)
    return folder


def load(journal: Journal, key: bytes, notice: Notice, *,
         mark_only: bool = False) -> tuple[ReportFold | None, tuple[int, str]] | None:
    """The fold saved for this journal and the (seq, hash) it reached, if it may be taken up;
    `mark_only`: the point alone (None for the fold), which a report over days needs."""
    path = _file_for(journal)
    try:
        if not path.exists():
            return None
        _trusted_folder(create=False)
        problem = _writable_by_others(path, {os.geteuid()})
        if problem:
            raise OSError(problem)
        with open(path, "rb") as saved:
            if saved.read(len(MAGIC)) != MAGIC:
                raise fold_codec.FoldFormatError("it is not a saved fold of this program")
            signature = saved.read(SIGNATURE_BYTES)
            body = saved.tell()
            if not hmac.compare_digest(_signature(key, saved), signature):
                raise fold_codec.FoldFormatError("it is not signed with the key derived from the table's key")
            saved.seek(body)
            header, document = fold_codec.read_header(saved)
            reached = tuple(header["reached"])
            if header["stamp"] != fold_stamp.stamp():
                raise fold_codec.FoldFormatError("it was made by another version of the report")
            if header["journal"] != _resolved(journal):
                raise fold_codec.FoldFormatError(f"it is the fold of {header['journal']}")
            if journal.hash_at(reached[0]) != reached[1]:
                raise fold_codec.FoldFormatError(f"the journal no longer has, at event {reached[0]}, the event it "
                                                 "was made from")
            fold = None if mark_only else fold_codec.read_fold(document, saved)
    except Exception as exc:  # a cache is never a reason to fail: the whole fold is done instead
        notice(f"the saved fold {path} was not used ({exc}): every event is checked and folded")
        return None
    return fold, (int(reached[0]), str(reached[1]))


def save(journal: Journal, fold: ReportFold, reached: tuple[int, str], key: bytes, notice: Notice) -> None:
    """Keep `fold`, which has folded this journal's events up to `reached` (seq, hash), all checked."""
    try:
        target = _trusted_folder(create=True) / _file_for(journal).name
        partial = target.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        with open(os.open(partial, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600), "w+b") as out:
            # magic, signature, the fold; signed as read back: nothing twice in memory
            out.write(MAGIC + bytes(SIGNATURE_BYTES))
            header = {"stamp": fold_stamp.stamp(), "journal": _resolved(journal), "reached": list(reached)}
            fold_codec.write(fold, header, out)
            out.seek(len(MAGIC) + SIGNATURE_BYTES)
            signature = _signature(key, out)
            out.seek(len(MAGIC))
            out.write(signature)
        os.replace(partial, target)
    except Exception as exc:
        notice(f"the report's fold could not be saved ({exc}): the next report folds the journal whole")
