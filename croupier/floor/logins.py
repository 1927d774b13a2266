"""The broker's logins: one per table, one for the ingester, each allowed only what its program does.

A table may publish only its own events and heartbeats, and look up (never create, change or delete)
the two streams; it reads replies on its own inbox prefix only. The ingester may use JetStream's API,
acknowledge the events, publish the anchors and hear the heartbeats. Nobody but the ingester can
publish an anchor, and nobody but table T7 on `croupier.table.T7.events`.

`croupier floor login` writes a program's credentials file (mode 0600) and prints the entry for the
server's `authorization { users: [...] }` (NATS reads JSON), with the password's bcrypt hash: the
server's configuration holds nothing anyone could log in with, and the password only its file.
"""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from croupier.floor.wire import (ALIVE_SUBJECTS, ANCHOR_SUBJECTS, ANCHORS_STREAM, EVENTS_STREAM, alive_subject,
                                 events_subject, inbox)

INGESTER = "floor"
BCRYPT_ROUNDS = 11  # as `nats server passwd` makes them: a login costs the broker a tenth of a second


def table_permissions(table_id: str) -> dict:
    look = [f"$JS.API.STREAM.{verb}.{stream}" for stream in (EVENTS_STREAM, ANCHORS_STREAM) for verb in ("INFO", "MSG.GET")]
    return {"publish": {"allow": [events_subject(table_id), alive_subject(table_id), *look]},
            "subscribe": {"allow": [f"{inbox(table_id)}.>"]}}


def ingester_permissions(user: str = INGESTER) -> dict:
    return {"publish": {"allow": ["$JS.API.>", f"$JS.ACK.{EVENTS_STREAM}.>", ANCHOR_SUBJECTS]},
            "subscribe": {"allow": [ALIVE_SUBJECTS, f"{inbox(user)}.>"]}}


def user_entry(user: str, password: str, permissions: dict, rounds: int = BCRYPT_ROUNDS) -> str:
    import bcrypt  # the floor administrator's: a table never needs it

    hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds)).decode()
    return json.dumps({"user": user, "password": hashed, "permissions": permissions})


def write_credentials(path: Path, user: str, password: str | None = None) -> str:
    """Write `user`'s credentials file (mode 0600, never over an existing file); the password."""
    password = password or secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(f'user = {json.dumps(user)}\npassword = {json.dumps(password)}\n')
    return password
