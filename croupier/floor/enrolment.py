"""Enrolment: the floor learns each table's public key once, and from then on stores only what that
key signed. A table's key pair is made beside its journal (at install, or at the journal's first
start); the floor's administrator enrols the `.pub` file and compares its fingerprint with the one
`croupier doctor` shows at the table."""
from __future__ import annotations

from pathlib import Path

from croupier.floor.store import FloorStore
from croupier.journal.signing import (default_signing_key_path, fingerprint, public_path, public_pem, read_public_key,
                                      signing_key_for)


def table_public_key(journal_path: Path):
    """The public key of the table writing `journal_path`; its key pair made now when it has none."""
    private = default_signing_key_path(journal_path)
    if not private.exists():
        signing_key_for(private, create=True)
    return read_public_key(public_path(private))


def enrol(store: FloorStore, table_id: str, key, *, replace: bool = False) -> str | None:
    """Enrol `key` for the table; the fingerprint of another key enrolled before (kept), else None."""
    return store.enrol(table_id, public_pem(key).decode(), fingerprint(key), replace=replace)
