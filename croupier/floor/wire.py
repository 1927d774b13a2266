"""What travels between a table and the floor: stream and subject names, message ids, payloads.

Events: stream CROUPIER_EVENTS, subject `croupier.table.<table id>.events`, message id
`<table id>:<seq>:<first 16 digits of the event's hash>` of the message's last journal row. A message
holds one row (a JSON object), or, while a table catches up, several consecutive rows (a JSON list of
them, at most `MAX_LINKS` and `BUNDLE_BYTES`): the broker and the floor then handle one message for
many events. Each row is signed by the table's Ed25519 key. The hash in the id makes it unguessable
before the event exists: nobody can publish an id first and have the broker drop the table's own
event as its duplicate. Anchors: stream CROUPIER_ANCHORS, subject `croupier.anchor.<table id>`, only
the latest kept per table. Heartbeats (plain NATS, not stored): `croupier.alive.<table id>`.
"""
from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

try:  # the floor server's (its `floor-server` extra): stricter, and about four times as fast
    from orjson import loads
except ImportError:  # a table's, which only writes JSON
    from json import loads  # type: ignore[assignment]  # the same call, other keyword options

EVENTS_STREAM = "CROUPIER_EVENTS"
ANCHORS_STREAM = "CROUPIER_ANCHORS"
EVENTS_SUBJECTS = "croupier.table.*.events"
ANCHOR_SUBJECTS = "croupier.anchor.*"
ALIVE_SUBJECTS = "croupier.alive.*"
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a NATS subject token: no '.', '*' or '>'
RETRY_S = (0.5, 1, 2, 5)  # waits between attempts to reach the broker
MAX_MESSAGE = 64 * 1024  # no journal row comes near it; anything bigger is refused unread
MAX_LINKS = 64  # journal rows in one message at most
BUNDLE_BYTES = 32 * 1024  # a message of several rows stays within this (one row alone may be bigger)
ID_HASH = 16  # digits of the event's hash in its message id
DUPLICATE_WINDOW_S = 3600.0  # Nats-Msg-Id de-duplication; the subject-sequence check covers the rest
# The events stream's own cap (-1: none, the node's `jetstream { max_file_store }` is the cap). Full,
# the broker refuses new events (each table keeps them in its journal and publishes them once there is
# room) rather than drop an old one: no event leaves the stream by age or size, only by the ingester's
# purge of what the store has committed (ingester.STREAM_KEEP_S).
STREAM_MAX_BYTES = -1


class WireError(ValueError):
    """A message that is not what the floor sends: named, never stored."""


def check_table_id(table_id: str) -> str:
    if not TABLE_ID.fullmatch(table_id or ""):
        raise WireError(f"table id {table_id!r}: use 1-32 letters, digits, '_' or '-' (it names a NATS subject)")
    return table_id


def events_subject(table_id: str) -> str:
    return f"croupier.table.{table_id}.events"


def anchor_subject(table_id: str) -> str:
    return f"croupier.anchor.{table_id}"


def alive_subject(table_id: str) -> str:
    return f"croupier.alive.{table_id}"


@lru_cache(maxsize=4096)  # a few subjects, each on every message (one that raises is not kept)
def table_of(subject: str) -> str:
    """The table id in an events, anchor or heartbeat subject."""
    parts = subject.split(".")
    if len(parts) == 4 and parts[:2] == ["croupier", "table"] and parts[3] == "events":
        return check_table_id(parts[2])
    if len(parts) == 3 and parts[0] == "croupier" and parts[1] in ("anchor", "alive"):
        return check_table_id(parts[2])
    raise WireError(f"subject {subject!r} is not a croupier table subject")


def message_id(table_id: str, seq: int, digest: str) -> str:
    return f"{table_id}:{seq}:{digest[:ID_HASH]}"


def seq_of_message_id(table_id: str, msg_id: str | None) -> int:
    parts = (msg_id or "").split(":")
    if len(parts) != 3 or parts[0] != table_id or not parts[1].isdigit() or len(parts[2]) != ID_HASH:
        raise WireError(f"message id {str(msg_id)[:80]!r} is not {table_id}:<seq>:<hash>")
    return int(parts[1])


@dataclass(frozen=True)
class Link:
    """One journal row as published: enough for the floor to check it against the one before.
    `after` is the seq of the table's previous message on the stream: the floor waits for that one
    before this (a redelivery can come late), so a row missing from the journal itself is still
    seen as missing by the chain check, not awaited forever."""

    seq: int
    time: str
    kind: str
    body: str
    prev_hash: str
    hash: str
    mac: str  # the table's HMAC of `hash`: the floor keeps it, the table's secret key checks it
    after: int | None = None  # None: seq - 1
    sig: str = ""  # the table's Ed25519 signature of `hash`: the floor checks it with the enrolled public key

    @property
    def follows(self) -> int:
        return self.seq - 1 if self.after is None else self.after

    def encode(self) -> bytes:
        return json.dumps({"seq": self.seq, "time": self.time, "kind": self.kind, "body": self.body,
                           "prev_hash": self.prev_hash, "hash": self.hash, "mac": self.mac, "after": self.follows,
                           "sig": self.sig},
                          separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes) -> Link:
        """The one journal row of a message."""
        links = cls.decode_all(data)
        if len(links) != 1:
            raise WireError(f"not a journal row: {len(links)} rows in one message")
        return links[0]

    @classmethod
    def decode_all(cls, data: bytes) -> list[Link]:
        """The journal rows of a message: one row, or a list of 1 to `MAX_LINKS` rows."""
        try:
            record = loads(data)
            if type(record) is not list:
                return [cls._of(record)]
            if not 0 < len(record) <= MAX_LINKS:
                raise ValueError(f"{len(record)} rows in one message, not 1 to {MAX_LINKS}")
            return [cls._of(row) for row in record]
        except (ValueError, KeyError, TypeError) as exc:
            raise WireError(f"not a journal row: {exc}") from None

    @classmethod
    def _of(cls, record) -> Link:
        if type(record) is dict and tuple(record) == _ORDER and tuple(map(type, record.values())) == _TYPES:
            link = cls.__new__(cls)  # as a table's publisher sends it: taken as it is, without
            link.__dict__.update(record)  # the conversions below (a third of the ingester's reading)
            return link
        return cls(int(record["seq"]), str(record["time"]), str(record["kind"]), str(record["body"]),
                   str(record["prev_hash"]), str(record["hash"]), str(record["mac"]),
                   int(record.get("after", int(record["seq"]) - 1)), str(record.get("sig", "")))


def bundled(links: list[Link]) -> Iterator[tuple[Link, bytes]]:
    """Consecutive links as the messages that carry them: (the message's last link, its payload).
    Several rows to a message, up to `MAX_LINKS` and `BUNDLE_BYTES`; a message of one row is that
    row alone, as a table that is not behind sends each event."""
    encoded = [link.encode() for link in links]
    start, size = 0, 0
    for at, data in enumerate(encoded):
        if at > start and (at - start == MAX_LINKS or size + len(data) + 1 > BUNDLE_BYTES):
            yield links[at - 1], _payload(encoded[start:at])
            start, size = at, 0
        size += len(data) + 1
    if encoded:
        yield links[-1], _payload(encoded[start:])


def _payload(rows: list[bytes]) -> bytes:
    return rows[0] if len(rows) == 1 else b"[" + b",".join(rows) + b"]"


# Link's fields in the order and with the types a table's publisher sends them (`Link.encode`).
_ORDER = ("seq", "time", "kind", "body", "prev_hash", "hash", "mac", "after", "sig")
_TYPES = (int, str, str, str, str, str, str, int, str)


@dataclass(frozen=True)
class Anchor:
    """The floor's receipt: it holds a table's events up to `seq`, whose hash is `hash`; `sig` is the
    floor's Ed25519 signature of it (croupier.journal.signing.sign_anchor)."""

    seq: int
    hash: str
    time: str  # ISO 8601, UTC, the floor's clock
    sig: str = ""

    def encode(self) -> bytes:
        return json.dumps({"seq": self.seq, "hash": self.hash, "time": self.time, "sig": self.sig},
                          separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes) -> "Anchor":
        try:
            record = json.loads(data)
            return cls(int(record["seq"]), str(record["hash"]), str(record["time"]), str(record.get("sig", "")))
        except (ValueError, KeyError, TypeError) as exc:
            raise WireError(f"not an anchor: {exc}") from None


async def ensure_streams(js, replicas: int | None = None, *, owner: bool = False,
                         max_bytes: int = STREAM_MAX_BYTES) -> None:
    """Create the two streams if the broker has not got them (tables and the floor both may start
    first). The `owner` (the ingester) also sets an existing stream's limits, and with `replicas`
    how many cluster nodes keep each stream."""
    from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
    from nats.js.errors import BadRequestError, NotFoundError

    configs = [
        StreamConfig(name=EVENTS_STREAM, subjects=[EVENTS_SUBJECTS], storage=StorageType.FILE,
                     retention=RetentionPolicy.LIMITS, duplicate_window=DUPLICATE_WINDOW_S,
                     max_bytes=max_bytes, max_age=0, discard=DiscardPolicy.NEW),
        StreamConfig(name=ANCHORS_STREAM, subjects=[ANCHOR_SUBJECTS], storage=StorageType.FILE,
                     max_msgs_per_subject=1, discard=DiscardPolicy.OLD),
    ]
    for config in configs:
        config.num_replicas = replicas or 1
        try:
            await js.stream_info(config.name)  # a table may look, not create (its permissions say so)
        except NotFoundError:
            pass
        else:
            if replicas:
                await js.update_stream(config)
            continue
        try:
            await js.add_stream(config)
        except BadRequestError as exc:
            if getattr(exc, "err_code", None) != 10058:  # stream name already in use: made by another party
                raise
            if owner:
                config.num_replicas = replicas or (await js.stream_info(config.name)).config.num_replicas
                await js.update_stream(config)


@dataclass(frozen=True)
class Access:
    """How a program logs in to the broker: its credentials file (mode 0600: `user = "..."` and
    `password = "..."`, TOML) and the casino's CA the broker's TLS certificate is checked against.
    Never a login in a URL, a command line or a log."""

    credentials: Path | None = None
    ca: Path | None = None


def inbox(user: str) -> str:
    """The prefix of a login's reply subjects: its permissions allow it to read these only."""
    return f"_INBOX_{user}"


class AccessError(Exception):
    """The credentials or the CA cannot be used: the message names the file and says why."""


def read_credentials(path: Path) -> tuple[str, str]:
    """(user, password) from a credentials file only its owner can read."""
    import tomllib

    try:
        mode = os.stat(path).st_mode & 0o777
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise AccessError(f"the credentials file {path} cannot be read: {exc.strerror or exc}") from None
    if mode & 0o077:
        raise AccessError(f"the credentials file {path} has mode {mode:04o}: other users can read it; "
                          f"run chmod 600 {path}")
    try:
        record = tomllib.loads(text)
        user, password = record["user"], record["password"]
    except (tomllib.TOMLDecodeError, KeyError):
        raise AccessError(f"{path} is not a credentials file (user = \"...\" and password = \"...\")") from None
    if not isinstance(user, str) or not isinstance(password, str) or not user or not password:
        raise AccessError(f"{path}: user and password must be non-empty text")
    return user, password


def tls_context(ca: Path):
    import ssl

    try:
        return ssl.create_default_context(cafile=str(ca))
    except (OSError, ssl.SSLError) as exc:
        raise AccessError(f"the CA file {ca} cannot be used: {getattr(exc, 'strerror', None) or exc}") from None


def access_options(access: Access | None) -> dict:
    """nats.connect's options for `access`. Raises AccessError naming a file that cannot be used."""
    if access is None:
        return {}
    options: dict = {}
    if access.credentials is not None:
        user, password = read_credentials(access.credentials)
        options.update(user=user, password=password, inbox_prefix=inbox(user))
    if access.ca is not None:
        options["tls"] = tls_context(access.ca)
    return options


def redacted(url: str) -> str:
    """The URL(s) without any password, for every message and log."""
    def one(part: str) -> str:
        scheme, sep, rest = part.partition("://")
        userinfo, at, host = rest.rpartition("@")
        if at and ":" in userinfo:
            userinfo = userinfo.split(":")[0] + ":***"
        elif at and scheme in ("nats", "tls", "ws", "wss"):
            userinfo = "***"  # NATS reads a name alone as a token
        return f"{scheme}{sep}{userinfo}{at}{host}"

    return ",".join(one(part) for part in url.split(","))


_SPACE = re.compile(r"\s")  # what str.isspace() finds


def header_lines(raw: bytes) -> dict[str, str]:
    """A message's headers as nats-py reads them (`Client._parse_header_lines`: the same names and
    values, a name with white space in it dropped), without a Python step per character of each name,
    which cost the ingester a tenth of its time."""
    out: dict[str, str] = {}
    for line in raw.split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if not sep:
            continue
        try:
            key = name.strip().decode("ascii")
        except UnicodeDecodeError:
            continue
        if not _SPACE.search(key):
            out[key] = value.strip().decode("utf-8", "replace")
    return out


class _TlsEndNoise(logging.Filter):
    """asyncio warns that the stream protocol nats-py upgrades to TLS asks to stay half open when
    the broker ends the connection: true of every TLS connection, it says nothing wrong."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("returning true from eof_received() has no effect when using ssl")


_TLS_END_NOISE = _TlsEndNoise()


async def connect(servers: list[str], access: Access | None = None):
    """A connection to the floor's broker. It does not reconnect by itself: its user starts again
    from what the stream holds, and says itself when the broker is away (the client stays quiet)."""
    from croupier.floor.client import client_class

    logging.getLogger("asyncio").addFilter(_TLS_END_NOISE)  # once: a logger keeps a filter only once

    async def quiet(*_: object) -> None:
        pass

    nc = client_class()()
    # Each server tried twice, 2 s apart: nats-py otherwise tries a first connection 60 times before it
    # gives up (its own loop, whatever allow_reconnect says), and "broker unreachable" came 2 minutes late.
    await nc.connect(servers=servers, allow_reconnect=False, max_reconnect_attempts=1, connect_timeout=2,
                     error_cb=quiet, disconnected_cb=quiet, closed_cb=quiet, **access_options(access))
    return nc


async def close_quietly(nc) -> None:
    try:
        await nc.close()
    except Exception:  # the connection is gone already
        pass
