"""What the ingester lets through: only a message that is a table's own. Anyone who can reach the
broker can put bytes on a table's subject; what makes a message the table's is its signature by the
key the floor enrolled for that table (`croupier floor enrol`), over a hash the chain check then ties
to every column and to the event before. Anything else is refused, with a reason, before it is read
any further: the ingester terminates it (never redelivered), and it never counts as the table's.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from croupier.floor.wire import MAX_MESSAGE, Link, WireError, message_id, table_of
from croupier.journal.signing import SigningKeyError, event_signed, parse_public_key

KEYS_FOR_S = 5.0  # an enrolment (or a new key) is seen within this long, without a store query per message

# The reasons a message is refused (the alarm names one, with the subject).
OVERSIZED = "oversized"
NOT_A_TABLE = "not a table subject"
UNKNOWN_TABLE = "unknown table"
MALFORMED = "malformed"
NO_ID = "no message id"
WRONG_ID = "wrong message id"
UNSIGNED = "missing signature"
BAD_SIGNATURE = "bad signature"


@dataclass(frozen=True)
class Refused:
    subject: str  # printable, at most 120 characters: it came from whoever sent it
    reason: str
    detail: str


def printable(text: str, limit: int = 120) -> str:
    cleaned = "".join(c if c.isprintable() and c not in "[]" else "?" for c in text)
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 1] + "…"


class Gate:
    """Checks each message against the enrolled keys (`public_key_of(table)`: the PEM, or None)."""

    def __init__(self, public_key_of: Callable[[str], str | None], clock: Callable[[], float] = time.monotonic):
        self._public_key_of = public_key_of
        self._clock = clock
        self._keys: dict[str, tuple[float, object]] = {}

    def _key(self, table_id: str):
        now = self._clock()
        cached = self._keys.get(table_id)
        if cached is None or now - cached[0] > KEYS_FOR_S:
            pem = self._public_key_of(table_id)
            try:
                key = parse_public_key(pem.encode(), f"the key enrolled for table {table_id}") if pem else None
            except SigningKeyError:
                key = None
            cached = self._keys[table_id] = (now, key)
        return cached[1]

    def admit(self, subject: str, data: bytes, headers: dict | None, *, signature: bool = True
              ) -> tuple[str, Link] | Refused:
        """(table id, link) for a table's own message; Refused saying why for anything else. Without
        `signature` all but the signature is checked (`signed` checks it: the costly part, done only
        for what is stored or counted)."""
        shown = printable(subject)

        def refuse(reason: str, detail: str) -> Refused:
            return Refused(shown, reason, printable(detail, 200))

        if len(data) > MAX_MESSAGE:
            return refuse(OVERSIZED, f"{len(data)} bytes, more than {MAX_MESSAGE}")
        try:
            table_id = table_of(subject)
        except WireError as exc:
            return refuse(NOT_A_TABLE, str(exc))
        key = self._key(table_id)
        if key is None:
            return refuse(UNKNOWN_TABLE, f"no key is enrolled for table {table_id} (croupier floor enrol)")
        try:
            link = Link.decode(data)
        except WireError as exc:
            return refuse(MALFORMED, str(exc))
        found = (headers or {}).get("Nats-Msg-Id")
        if not found:
            return refuse(NO_ID, f"event {link.seq} came without a Nats-Msg-Id")
        expected = message_id(table_id, link.seq, link.hash)
        if found != expected:
            return refuse(WRONG_ID, f"message id {found!r} for event {link.seq}, not {expected!r}")
        return (self.signed(subject, table_id, link) if signature else None) or (table_id, link)

    def signed(self, subject: str, table_id: str, link: Link) -> Refused | None:
        """None when the enrolled key signed `link`; Refused saying why otherwise."""
        key = self._key(table_id)
        if not link.sig:
            return Refused(printable(subject), UNSIGNED, f"event {link.seq} is not signed")
        if key is None or not event_signed(key, link.hash, link.sig):
            return Refused(printable(subject), BAD_SIGNATURE,
                           f"event {link.seq} is not signed by the key enrolled for table {table_id}")
        return None

    def enrolled(self, table_id: str) -> bool:
        return self._key(table_id) is not None
