"""The table's signing key: an Ed25519 key pair, so anyone holding the public key can check that the
table wrote an event, and nobody without the private key can write one that checks.

The private key is `table-signing.key` beside the journal (PEM, PKCS#8, mode 0600), made when the
table's first journal is created (or by the installer); the public key is `table-signing.pub` beside
it, the file the floor enrols (`croupier floor enrol`). Each event is signed over its hash, which
already covers every column and the chain; the signatures are kept in the journal's `signatures`
table, one per event, append-only like the rest. The floor signs its anchor receipts the same way
with its own key pair.

Only APIs present in cryptography 38 are used (the version Debian ships for armhf).
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path
from typing import Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

PRIVATE_NAME = "table-signing.key"
PUBLIC_SUFFIX = ".pub"
EVENT = b"croupier event\n"
ANCHOR = b"croupier anchor\n"
CHECKPOINT = b"croupier report checkpoint\n"

SCHEMA = ("CREATE TABLE IF NOT EXISTS signatures (seq INTEGER PRIMARY KEY, sig TEXT NOT NULL);\n"
          + "".join(f"CREATE TRIGGER IF NOT EXISTS signatures_no_{verb.lower()} BEFORE {verb} ON signatures "
                    f"BEGIN SELECT RAISE(ABORT, 'the journal is append-only: signatures rows cannot be {past}'); END;\n"
                    for verb, past in (("UPDATE", "changed"), ("DELETE", "deleted"))))


class SigningKeyError(Exception):
    """A signing or public key file cannot be used: the message names it and says why."""


def default_signing_key_path(journal_path: Path) -> Path:
    return Path(journal_path).absolute().parent / PRIVATE_NAME


def public_path(private_path: Path) -> Path:
    return Path(private_path).with_suffix(PUBLIC_SUFFIX)


def read_private_key(path: Path) -> Ed25519PrivateKey:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise SigningKeyError(f"the signing key {path} is missing: restore it from its backup, or enrol a new "
                              "key pair at the floor") from None
    except OSError as exc:
        raise SigningKeyError(f"the signing key {path} cannot be read: {exc.strerror or exc}") from None
    return _load(lambda: serialization.load_pem_private_key(data, password=None), Ed25519PrivateKey, str(path),
                 "private")


def _load(load, kind: type, name: str, what: str):
    """The key `load()` reads, when it is an Ed25519 key of `kind`; SigningKeyError naming `name` else."""
    try:
        key = load()
    except (ValueError, TypeError) as exc:
        raise SigningKeyError(f"{name} is not an Ed25519 {what} key in PEM ({exc})") from None
    if not isinstance(key, kind):
        raise SigningKeyError(f"{name} is not an Ed25519 {what} key")
    return key


def make_private_key(path: Path) -> Ed25519PrivateKey:
    """A new key pair: the private key written to `path` (mode 0600, never over an existing file,
    durable), the public key beside it. Another program's key made meanwhile is used instead."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return read_private_key(path)
    except OSError as exc:
        raise SigningKeyError(f"cannot create the signing key {path}: {exc.strerror or exc}") from None
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    write_public_key(public_path(path), key.public_key())
    return key


def signing_key_for(path: Path, *, create: bool) -> Ed25519PrivateKey:
    if create and not Path(path).exists():
        return make_private_key(Path(path))
    return read_private_key(Path(path))


def public_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def write_public_key(path: Path, key: Ed25519PublicKey) -> None:
    """Readable by all whatever the umask (a service's is often 0077): it is what others check with."""
    try:
        Path(path).write_bytes(public_pem(key))
        os.chmod(path, 0o644)
    except OSError as exc:
        raise SigningKeyError(f"cannot write the public key {path}: {exc.strerror or exc}") from None


def parse_public_key(data: bytes, name: str) -> Ed25519PublicKey:
    return _load(lambda: serialization.load_pem_public_key(data), Ed25519PublicKey, name, "public")


def read_public_key(path: Path) -> Ed25519PublicKey:
    """The public key in `path` (a `.pub` file; a private key file gives its public half)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SigningKeyError(f"the public key {path} cannot be read: {exc.strerror or exc}") from None
    if b"PRIVATE KEY" in data:
        return read_private_key(path).public_key()
    return parse_public_key(data, str(path))


def fingerprint(key: Ed25519PublicKey) -> str:
    """What a person compares: SHA-256 of the raw public key, its first 16 bytes in groups of four digits."""
    digest = hashlib.sha256(raw_public_key(key)).hexdigest()[:32]
    return ":".join(digest[i:i + 4] for i in range(0, 32, 4))


def _checks(key: Ed25519PublicKey, signature: str | None, message: bytes) -> bool:
    try:
        key.verify(bytes.fromhex(signature or ""), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def sign_event(key: Ed25519PrivateKey, digest: str) -> str:
    return key.sign(EVENT + digest.encode()).hex()


def event_signed(key: Ed25519PublicKey, digest: str, signature: str | None) -> bool:
    """The table holding `key` signed the event with this hash."""
    return _checks(key, signature, EVENT + digest.encode())


def signed_message(digest: str, signature: str | None) -> bytes | None:
    """What an Ed25519 check of an event's signature reads: the signature's 64 bytes, then what it
    signs; None when the signature is not 64 bytes in hex (no key signed it)."""
    try:
        sig, signed = bytes.fromhex(signature or ""), EVENT + digest.encode()
    except ValueError:  # not hex; a hash that is no text
        return None
    return sig + signed if len(sig) == 64 else None


def event_verifier() -> Callable[[bytes, bytes], bool]:
    """(raw public key, `signed_message`) -> whether that key signed it: libsodium's check (PyNaCl,
    about twice as fast as OpenSSL's, for the floor's ingester) where it is installed, else OpenSSL's.
    Plain bytes in and out: what the ingester hands the processes that check signatures beside it."""
    try:
        from nacl.bindings import crypto_sign_open
        from nacl.exceptions import CryptoError
    except ImportError:
        def openssl(raw: bytes, signed: bytes) -> bool:
            try:
                Ed25519PublicKey.from_public_bytes(raw).verify(signed[:64], signed[64:])
            except (InvalidSignature, ValueError):
                return False
            return True

        return openssl

    def sodium(raw: bytes, signed: bytes) -> bool:
        try:
            crypto_sign_open(signed, raw)
        except (CryptoError, ValueError, TypeError):
            return False
        return True

    return sodium


def raw_public_key(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def event_checker(key: Ed25519PublicKey) -> Callable[[str, str | None], bool]:
    """`event_signed` for many events of one key, with `event_verifier`'s check."""
    raw, verifier = raw_public_key(key), event_verifier()

    def check(digest: str, signature: str | None) -> bool:
        signed = signed_message(digest, signature)
        return signed is not None and verifier(raw, signed)

    return check


def _anchor_message(table_id: str, seq: int, digest: str, time: str) -> bytes:
    return ANCHOR + f"{table_id}\n{seq}\n{digest}\n{time}".encode()


def sign_anchor(key: Ed25519PrivateKey, table_id: str, seq: int, digest: str, time: str) -> str:
    return key.sign(_anchor_message(table_id, seq, digest, time)).hex()


def anchor_signed(key: Ed25519PublicKey, table_id: str, seq: int, digest: str, time: str,
                  signature: str | None) -> bool:
    """The floor holding `key` sent this receipt, for this table."""
    return _checks(key, signature, _anchor_message(table_id, seq, digest, time))


def sign_checkpoint(key: Ed25519PrivateKey, message: bytes) -> str:
    return key.sign(CHECKPOINT + message).hex()


def checkpoint_signed(key: Ed25519PublicKey, message: bytes, signature: str | None) -> bool:
    """The table holding `key` made this report checkpoint (croupier.journal.checkpoints)."""
    return _checks(key, signature, CHECKPOINT + message)


class EventSigner:
    """The journal's hook: inside the append's transaction, each new event's signature is stored."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self.key = key

    @staticmethod
    def prepare(conn: sqlite3.Connection) -> None:
        """Give a journal its signatures table (a journal made before signing gets it on first write)."""
        conn.executescript(SCHEMA)

    def record(self, conn: sqlite3.Connection, seq: int, digest: str) -> None:
        conn.execute("INSERT INTO signatures (seq, sig) VALUES (?, ?)", (seq, sign_event(self.key, digest)))


def has_signatures(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='signatures'").fetchone() is not None


def check_signatures(rows, key: Ed25519PublicKey) -> tuple[int, int | None, str | None]:
    """Over (seq, hash, signature) rows in order: how many carry the key's signature before the
    first that does not, that event's seq, and what is wrong with it (None, None when all do)."""
    checked = 0
    for seq, digest, signature in rows:
        if not signature:
            return checked, seq, f"event {seq} is not signed (recorded before the table had a signing key, or stripped)"
        if not event_signed(key, digest, signature):
            return checked, seq, f"event {seq} is not signed by this key (fingerprint {fingerprint(key)})"
        checked += 1
    return checked, None, None
