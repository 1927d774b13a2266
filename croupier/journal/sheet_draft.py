"""The payout sheet's work in progress, kept beside the journal so that a restart before the payouts
are recorded does not make the croupier count again: the chips counted on each winning position and
the colours marked as played.

A draft is never a figure of the record. The journal is the only record: after a restart the sheet
shows the draft's counts for the croupier to check, and D records them through the table's core,
which checks them as it checks typed ones. So a draft is taken up only when it is plainly this
sheet's:

- it is plain JSON data, written whole or not at all (a new file renamed over the old one);
- it names the table, the journal (the hash of its first event), the spin, its number and the time
  the result was recorded: a draft of another table, journal, spin or number is not used;
- it is signed with a key derived from the table's key when the journal has one;
- a draft that belongs to another user or that others may write, or that does not read back, is not
  used;
- it says when it was written, and a file dated otherwise is a copy put back (an older draft of the
  same sheet, replayed) and is not used; a copy that kept its date is shown with that time, for the
  croupier to see it is not the last count typed.

What is not used is said (`DraftRefused`), never silently applied.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from datetime import datetime, timezone
from enum import StrEnum
from pathlib import Path

from croupier.journal.file_trust import untrusted
from croupier.rules.record import Record

FORMAT = "croupier sheet draft 2"
MAX_CHIPS = 9999  # the sheet takes four digits a position
MAX_BYTES = 1 << 16  # a sheet is a few dozen rows: anything bigger is not a draft
COPY_TOLERANCE_S = 60  # a draft's file is dated when it is written: further off, it was copied back


class DraftReason(StrEnum):
    """Why a draft found is not used."""

    UNREADABLE = "unreadable"  # problem: it does not read back (or is not signed with the table's key)
    UNSAFE = "unsafe"  # problem: not a file, another user's, or others may write it
    COPIED = "copied"  # written: a copy put back, dated otherwise than it says it was written
    TABLE = "table"  # table: another table's
    JOURNAL = "journal"  # another journal's
    SPIN = "spin"  # spin: of a spin gone by
    NUMBER = "number"  # spin, number: of another number of the spin
    RESULT = "result"  # spin: of an earlier result of the spin


class DraftRefused(Exception):
    """The draft found is not used, and why (in the table's words, composed by the screen)."""

    def __init__(self, reason: DraftReason, *, ours: bool = False, **facts: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.ours = ours  # this table's own leftover (of a spin gone by): safe to remove
        self.facts = facts


class SheetDraft(Record, kw_only=False):
    table: str  # the table's id
    journal: str  # the hash of the journal's first event: which journal
    spin: int
    number: int
    result_time: str  # when the result was recorded (ISO): which result of the spin
    counts: tuple[tuple[str, str, int], ...]  # (colour, position, chips), chips > 0
    played: tuple[str, ...]  # colours the croupier marked as played
    written: str = ""  # when it was written (ISO, UTC): `save` stamps it


def draft_path(journal_path: str | Path) -> Path:
    """Where the sheet of the journal at `journal_path` is kept: beside it, in the table's state folder."""
    journal_path = Path(journal_path)
    return journal_path.with_name(journal_path.name + ".sheet")


def _key(table_key: bytes | None) -> bytes | None:
    return None if not table_key else hmac.new(table_key, b"croupier sheet draft", hashlib.sha256).digest()


def _body(draft: SheetDraft) -> dict:
    return {"format": FORMAT, "table": draft.table, "journal": draft.journal, "spin": draft.spin,
            "number": draft.number, "result_time": draft.result_time,
            "counts": [list(count) for count in draft.counts], "played": list(draft.played), "written": draft.written}


def _mac(key: bytes, body: dict) -> str:
    return hmac.new(key, json.dumps(body, sort_keys=True, separators=(",", ":")).encode(), hashlib.sha256).hexdigest()


def save(path: Path, draft: SheetDraft, table_key: bytes | None) -> None:
    """Write `draft` at `path`, stamped with the time it is written, replacing what was there in one
    rename (a crash leaves the old draft or the new one, never half of one). Raises OSError."""
    body = _body(draft) | {"written": datetime.now(timezone.utc).isoformat()}
    key = _key(table_key)
    document = {**body, "mac": _mac(key, body)} if key else body
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8") as out:
        json.dump(document, out, ensure_ascii=False)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)


def discard(path: Path) -> None:
    """The sheet was recorded, or its spin is gone by: its draft is of no use."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass  # a draft left over is refused for its spin next time


def _unsafe(path: Path, found: os.stat_result) -> str | None:
    if not stat.S_ISREG(found.st_mode):
        return "not a file"
    problem = untrusted(found, (os.geteuid(), 0))
    return f"it {problem}" if problem else None


def _read(path: Path, table_key: bytes | None) -> SheetDraft:
    """The draft at `path`, checked to be whole, safe and signed; DraftRefused otherwise."""
    try:
        with open(path, "rb") as saved:
            found = os.fstat(saved.fileno())
            problem = _unsafe(path, found)
            if problem:
                raise DraftRefused(DraftReason.UNSAFE, problem=problem)
            raw = saved.read(MAX_BYTES + 1)
    except OSError as exc:
        raise DraftRefused(DraftReason.UNREADABLE, problem=exc.strerror or str(exc)) from None
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError("too big")
        document = json.loads(raw.decode("utf-8"))
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise ValueError("not a sheet draft")
        mac = document.pop("mac", None)
        key = _key(table_key)
        if key is not None and not (isinstance(mac, str) and hmac.compare_digest(mac, _mac(key, document))):
            raise ValueError("not signed with the table's key")
        draft = SheetDraft(
            table=_typed(document["table"], str), journal=_typed(document["journal"], str),
            spin=_typed(document["spin"], int), number=_typed(document["number"], int),
            result_time=_typed(document["result_time"], str),
            counts=tuple(_count(count) for count in _typed(document["counts"], list)),
            played=tuple(_typed(colour, str) for colour in _typed(document["played"], list)),
            written=_typed(document["written"], str))
        written = datetime.fromisoformat(draft.written)
        if written.tzinfo is None:
            raise ValueError(f"written {draft.written!r} has no time zone")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise DraftRefused(DraftReason.UNREADABLE, problem=str(exc) or type(exc).__name__) from None
    if abs(found.st_mtime - written.timestamp()) > COPY_TOLERANCE_S:
        raise DraftRefused(DraftReason.COPIED, written=draft.written,
                           dated=datetime.fromtimestamp(found.st_mtime, timezone.utc).isoformat())
    return draft


def _typed(value, kind: type):
    if type(value) is not kind:  # bool is not an int here, nor a float
        raise ValueError(f"{value!r} is not {kind.__name__}")
    return value


def _count(value) -> tuple[str, str, int]:
    colour, position, chips = _typed(value, list)
    chips = _typed(chips, int)
    if not 0 < chips <= MAX_CHIPS:
        raise ValueError(f"{chips} chips")
    return _typed(colour, str), _typed(position, str), chips


def load(path: Path, table_key: bytes | None, *, table: str, journal: str, spin: int, number: int,
         result_time: str) -> SheetDraft | None:
    """The draft kept for the sheet of this result (`spin`, its `number`, recorded at `result_time`)
    of this `table` and `journal`; None when there is none. DraftRefused when there is one that is
    not this sheet's or cannot be trusted."""
    if not path.exists():
        return None
    draft = _read(path, table_key)
    if draft.table != table:
        raise DraftRefused(DraftReason.TABLE, table=draft.table)
    if draft.journal != journal:
        raise DraftRefused(DraftReason.JOURNAL)
    if draft.spin != spin:
        raise DraftRefused(DraftReason.SPIN, ours=True, spin=draft.spin)
    if draft.number != number:
        raise DraftRefused(DraftReason.NUMBER, ours=True, spin=draft.spin, number=draft.number)
    if draft.result_time != result_time:
        raise DraftRefused(DraftReason.RESULT, ours=True, spin=draft.spin)
    return draft
