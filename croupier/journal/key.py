"""The table's key: a per-table secret, kept in a file outside the journal, readable by the table's
user only. It keys the journal's chain (an HMAC beside each event's SHA-256 hash, the snapshots and
the head witness) and peppers the staff's PIN hashes, so that whoever can write the journal but has
not the key can neither rewrite its history unnoticed nor test PINs against a copy of it.

The key file holds 64 hexadecimal digits (32 random bytes) and a newline. It is made once, mode
0600, when the table's first journal is created; a lost key cannot be made again: back it up.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

KEY_NAME = "table.key"  # beside the journal, unless the configuration names another file
KEY_BYTES = 32
PRIVATE = 0o600


class KeyFileError(Exception):
    """The key file cannot be used: the message says why and what to do."""


def default_key_path(journal_path: Path) -> Path:
    return Path(journal_path).absolute().parent / KEY_NAME


def read_key(path: Path) -> bytes:
    """The key in `path`. Raises KeyFileError naming the file for a missing or malformed key."""
    try:
        text = Path(path).read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise KeyFileError(f"the table's key {path} is missing: restore it from its backup (without it the "
                        "journal's keyed chain cannot be checked or continued)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyFileError(f"the table's key {path} cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise KeyFileError(f"{path} is not a table key ({KEY_BYTES * 2} hexadecimal digits)")
    return key


def make_key(path: Path) -> bytes:
    """A new random key written to `path` (mode 0600, never over an existing file), durable."""
    key = secrets.token_bytes(KEY_BYTES)
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        return read_key(path)  # made meanwhile by another program: use theirs
    except OSError as exc:
        raise KeyFileError(f"cannot create the table's key {path}: {exc.strerror or exc}") from None
    try:
        os.write(fd, key.hex().encode() + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    return key


def key_for(path: Path, *, create: bool) -> bytes:
    """The key in `path`; made there first when `create` and there is none."""
    if create and not Path(path).exists():
        return make_key(path)
    return read_key(path)


def mode_problem(path: Path) -> str | None:
    """What is wrong with the key file's permissions, or None: only its owner may read it."""
    mode = stat.S_IMODE(Path(path).stat().st_mode)
    if mode & 0o077:
        return f"{path} has mode {mode:04o}: other users can read the table's key; run chmod 600 {path}"
    return None


def mac(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def key_id(key: bytes) -> str:
    """A name for the key, stored in the journal, to tell the right key from another table's."""
    return mac(key, "croupier table key id")[:16]


def pepper(key: bytes) -> bytes:
    """The secret mixed into every PIN hash of the table."""
    return hmac.new(key, b"croupier pin pepper", hashlib.sha256).digest()
