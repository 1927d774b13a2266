"""The head witness: a small file beside the journal (`journal.db.head`) holding the last committed
event's number and hash, rewritten after each commit. SQLite keeps a commit in its `-wal` file until
a checkpoint; a `-wal` lost or deleted after a crash leaves a journal that is still whole but shorter.
The witness remembers how far it went, so such a journal is refused, naming the events missing.

The file has two fixed-size slots, written alternately in place with one fdatasync each: a power
cut while one is written leaves the other whole (each slot carries its own checksum), so the newest
whole slot is the witness. Each slot also carries an HMAC with the table's key, so a witness cannot
be moved back along with a rewritten journal by someone without the key.
"""
from __future__ import annotations

import os
import zlib
from pathlib import Path

from croupier.journal.key import mac
from croupier.rules.record import Record

SLOT = 192  # bytes: "seq hash mac crc\n", padded with spaces


def witness_path(journal_path: Path) -> Path:
    return journal_path.with_name(journal_path.name + ".head")


def verified_path(journal_path: Path) -> Path:
    """Where `croupier verify --key` leaves its signed mark of how far the journal checked."""
    return journal_path.with_name(journal_path.name + ".verified")


def anchored_path(journal_path: Path) -> Path:
    """Where the table keeps, signed, the last event the floor anchored (its receipt)."""
    return journal_path.with_name(journal_path.name + ".anchored")


def signed_mark(path: Path, key: bytes) -> Witness | None:
    """A mark in the witness's format (verify's, the floor anchor's), when it is there, readable and
    signed with the table's key."""
    try:
        mark = read_witness(path)
    except (OSError, ValueError):
        return None
    return mark if mark is not None and mark.signed(key) else None


def write_mark(path: Path, key: bytes, seq: int, digest: str) -> None:
    """Write a signed mark of event `seq` with hash `digest`. Raises OSError."""
    writer = WitnessWriter(path, key)
    try:
        writer.record(seq, digest)
    finally:
        writer.close()


class Witness(Record, kw_only=False):
    """The journal's head as last written beside it: its seq, hash and MAC."""
    seq: int
    hash: str
    mac: str

    def signed(self, key: bytes) -> bool:
        return mac(key, _signed_text(self.seq, self.hash)) == self.mac


def _signed_text(seq: int, digest: str) -> str:
    return f"head\n{seq}\n{digest}"


def _slot(seq: int, digest: str, key: bytes) -> bytes:
    text = f"{seq} {digest} {mac(key, _signed_text(seq, digest))}"
    line = f"{text} {zlib.crc32(text.encode()):08x}\n".encode()
    return line.ljust(SLOT - 1) + b"\n"


def _parse(slot: bytes) -> Witness | None:
    try:
        text, crc = slot.decode("ascii").strip().rsplit(" ", 1)
        if int(crc, 16) != zlib.crc32(text.encode()):
            return None
        seq, digest, signature = text.split(" ")
        return Witness(int(seq), digest, signature)
    except (UnicodeDecodeError, ValueError):
        return None


def read_witness(path: Path) -> Witness | None:
    """The newest whole slot of the witness at `path`; None when there is no witness file.
    Raises OSError when it cannot be read, ValueError when neither slot is whole."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    found = [w for w in _slots(data) if w]
    if not data:
        return None  # made, and the machine stopped before its first head was written
    if not found:
        raise ValueError(f"{path} holds no readable head (damaged)")
    return max(found, key=lambda w: w.seq)


def _slots(data: bytes) -> list[Witness | None]:
    return [_parse(data[i * SLOT:(i + 1) * SLOT]) for i in range(2)]


class WitnessWriter:
    """The open witness of a journal the table writes. `record` is called after each commit."""

    def __init__(self, path: Path, key: bytes) -> None:
        self.path = path
        self._key = key
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        slots = _slots(os.pread(self._fd, 2 * SLOT, 0))
        # Write over the older slot first: the newer one keeps the head until this write is whole.
        self._next = 0 if slots[0] is None or (slots[1] is not None and slots[0].seq <= slots[1].seq) else 1

    def record(self, seq: int, digest: str, sync: bool = True) -> None:
        """Durable when it returns, with one fdatasync (the other slot still holds the previous
        head); without `sync`, durable with the next synced record."""
        os.pwrite(self._fd, _slot(seq, digest, self._key), self._next * SLOT)
        if sync:
            os.fdatasync(self._fd)
        self._next = 1 - self._next

    def close(self) -> None:
        os.close(self._fd)
