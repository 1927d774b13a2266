"""What the ingester lets through: only a message that is a table's own. Anyone who can reach the
broker can put bytes on a table's subject; what makes a message the table's is its signature by the
key the floor enrolled for that table (`croupier floor enrol`), over a hash the chain check then ties
to every column and to the event before. Anything else is refused, with a reason, before it is read
any further: the ingester terminates it (never redelivered), and it never counts as the table's.
"""
from __future__ import annotations

import atexit
import os
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from collections import OrderedDict
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from croupier.floor.client import MSG_ID, Delivered
from croupier.floor.wire import MAX_MESSAGE, Link, WireError, message_id, table_of
from croupier.journal.signing import (SigningKeyError, event_checker, event_verifier, parse_public_key, raw_public_key,
                                      signed_message)

KEYS_FOR_S = 5.0  # an enrolment (or a new key) is seen within this long, without a store query per message
KEYS_KEPT = 4096  # tables whose key (or that none is enrolled) is kept in memory
SHARED_FROM = 256  # signatures in one batch from which the other cores check a share of them (below: not worth the trip)
CHUNK = 128  # signatures handed to another core at a time
Checker = Callable[[str, str | None], bool]  # (event hash, signature) -> whether the table's key signed it

class RefusalReason(StrEnum):
    """Why a message is refused (the alarm names one, with the subject). The values are what the
    store keeps, so the rows of older floors read back; the view words each (croupier.floor.alarms)."""

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
    reason: RefusalReason
    detail: str


def printable(text: str, limit: int = 120) -> str:
    cleaned = "".join(c if c.isprintable() and c not in "[]" else "?" for c in text)
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 1] + "…"


class Gate:
    """Checks each message against the enrolled keys (`public_key_of(table)`: the PEM, or None;
    `public_keys_of(tables)`: those enrolled, by table)."""

    def __init__(self, public_key_of: Callable[[str], str | None], clock: Callable[[], float] = time.monotonic,
                 public_keys_of: Callable[[Sequence[str]], dict[str, str]] | None = None):
        self._public_key_of = public_key_of
        self._public_keys_of = public_keys_of  # many tables' at once (those enrolled), for `admit_all`
        self._clock = clock
        # Each table's key as read last, the least recently used first: a flood over made-up tables'
        # subjects passes through it and never grows it past `KEYS_KEPT` (a table pushed out is read again).
        self._keys: OrderedDict[str, tuple[float, Checker | None, bytes | None]] = OrderedDict()  # raw key
        self._proven: dict[tuple[str, str, str], bool] = {}  # (table, hash, signature): checked ahead by `submit`

    def _key(self, table_id: str):
        return self._cached(table_id)[1]

    def _cached(self, table_id: str) -> tuple[float, Checker | None, bytes | None]:
        now = self._clock()
        cached = self._kept(table_id, now) or self._keep(table_id, self._public_key_of(table_id), now)
        self._keys.move_to_end(table_id)
        return cached

    def _kept(self, table_id: str, now: float) -> tuple[float, Checker | None, bytes | None] | None:
        """The table's key as kept; None when not kept, or kept too long (an enrolment may have changed it)."""
        cached = self._keys.get(table_id)
        return cached if cached is not None and now - cached[0] <= KEYS_FOR_S else None

    def _keep(self, table_id: str, pem: str | None, now: float) -> tuple[float, Checker | None, bytes | None]:
        try:
            public = parse_public_key(pem.encode(), f"the key enrolled for table {table_id}") if pem else None
        except SigningKeyError:
            public = None
        cached = self._keys[table_id] = ((now, event_checker(public), raw_public_key(public)) if public is not None
                                         else (now, None, None))
        if len(self._keys) > KEYS_KEPT:
            self._keys.popitem(last=False)
        return cached

    def _read_keys(self, subjects: Iterable[str]) -> dict[str, Checker | None]:
        """The keys of the tables of these subjects not kept (or kept too long), read in one query."""
        if self._public_keys_of is None:
            return {}
        now, wanted = self._clock(), set()
        for subject in subjects:
            try:
                table_id = table_of(subject)
            except WireError:
                continue
            if self._kept(table_id, now) is None:
                wanted.add(table_id)
        pems = self._public_keys_of(sorted(wanted)) if wanted else {}
        return {table_id: self._keep(table_id, pems.get(table_id), now)[1] for table_id in wanted}

    def submit(self, by_table: Iterable[tuple[str, Iterable[Link]]]) -> "Proving | None":
        """Hand the signatures of many links (by table) to the machine's other cores (Ed25519 holds the
        interpreter's lock: threads would not help), which check them while this process does something
        else (fetches the next batch); `collect` takes the verdicts, and `signed` then takes each one
        instead of checking again. Only a verdict is kept, never a link: nothing is stored unchecked.
        Each chunk is plain bytes: the table's raw key and what its signature signs."""
        work = [(table_id, link.hash, link.sig, raw, signed) for table_id, links in by_table
                for raw in [self._cached(table_id)[2]] if raw is not None
                for link in links if link.sig for signed in [signed_message(link.hash, link.sig)] if signed]
        pool = _pool() if len(work) >= SHARED_FROM else None
        if pool is None:
            return None
        chunks = [work[i:i + CHUNK] for i in range(0, len(work), CHUNK)]
        return Proving(chunks, [pool.submit(_verify, [(raw, signed) for *_, raw, signed in part]) for part in chunks])

    def collect(self, proving: "Proving | None") -> None:
        """The verdicts of what `submit` handed out, this process checking the chunks no other core
        has begun, from the last (the other cores take them from the first): all are busy until the end."""
        if proving is None:
            return
        chunks, futures = proving.chunks, proving.futures
        verdicts: list[list[bool] | None] = [None] * len(chunks)
        for at in reversed(range(len(chunks))):
            if futures[at].cancel():
                verdicts[at] = _verify([(raw, signed) for *_, raw, signed in chunks[at]])
        for at, future in enumerate(futures):
            if verdicts[at] is None:
                try:
                    verdicts[at] = future.result()
                except Exception:  # a worker lost: `signed` checks these itself
                    continue
            for (table_id, digest, sig, *_), verdict in zip(chunks[at], verdicts[at] or ()):
                self._proven[table_id, digest, sig] = verdict

    def admit(self, subject: str, data: bytes, headers: dict | None, *, signature: bool = True
              ) -> tuple[str, list[Link]] | Refused:
        """(table id, its links) for a table's own message; Refused saying why for anything else.
        Without `signature` all but the signatures are checked (`signed` checks each: the costly
        part, done only for what is stored or counted)."""
        found = self._admitted(subject, data, (headers or {}).get(MSG_ID), self._key)
        if signature and not isinstance(found, Refused):
            for link in found[1]:
                refused = self.signed(subject, found[0], link)
                if refused is not None:
                    return refused
        return found

    def admit_all(self, msgs: Iterable) -> list[tuple[str, list[Link]] | Refused]:
        """`admit` without the signature for each message (subject, data, headers) of a batch, each
        table's key looked up once (those not kept read in one query)."""
        msgs = list(msgs)
        keys = self._read_keys({msg.subject for msg in msgs})

        def key(table_id: str) -> Checker | None:
            if table_id not in keys:
                keys[table_id] = self._key(table_id)
            return keys[table_id]

        return [self._admitted(msg.subject, msg.data, msg.msg_id if type(msg) is Delivered else
                               (getattr(msg, "headers", None) or {}).get(MSG_ID), key) for msg in msgs]

    def _admitted(self, subject: str, data: bytes, found: str | None,
                  key_of: Callable[[str], Checker | None]) -> tuple[str, list[Link]] | Refused:
        def refuse(reason: RefusalReason, detail: str) -> Refused:  # the subject made printable only for a refusal
            return Refused(printable(subject), reason, printable(detail, 200))

        if len(data) > MAX_MESSAGE:
            return refuse(RefusalReason.OVERSIZED, f"{len(data)} bytes, more than {MAX_MESSAGE}")
        try:
            table_id = table_of(subject)
        except WireError as exc:
            return refuse(RefusalReason.NOT_A_TABLE, str(exc))
        if key_of(table_id) is None:
            return refuse(RefusalReason.UNKNOWN_TABLE, f"no key is enrolled for table {table_id} (croupier floor enrol)")
        try:
            links = Link.decode_all(data)
        except WireError as exc:
            return refuse(RefusalReason.MALFORMED, str(exc))
        last = links[-1]  # the message id names it
        if not found:
            return refuse(RefusalReason.NO_ID, f"event {last.seq} came without a Nats-Msg-Id")
        expected = message_id(table_id, last.seq, last.hash)
        if found != expected:
            return refuse(RefusalReason.WRONG_ID, f"message id {found!r} for event {last.seq}, not {expected!r}")
        return table_id, links

    def signed(self, subject: str, table_id: str, link: Link) -> Refused | None:
        """None when the enrolled key signed `link`; Refused saying why otherwise."""
        return self.signer(table_id)(subject, link)

    def signer(self, table_id: str) -> Callable[[str, Link], Refused | None]:
        """`signed` for many links of one table, its key looked up once."""
        key = self._key(table_id)

        def signed(subject: str, link: Link) -> Refused | None:
            if not link.sig:
                return Refused(printable(subject), RefusalReason.UNSIGNED, f"event {link.seq} is not signed")
            proven = self._proven.pop((table_id, link.hash, link.sig), None) if key is not None else None
            if key is None or not (proven if proven is not None else key(link.hash, link.sig)):
                return Refused(printable(subject), RefusalReason.BAD_SIGNATURE,
                               f"event {link.seq} is not signed by the key enrolled for table {table_id}")
            return None

        return signed

    def enrolled(self, table_id: str) -> bool:
        return self._key(table_id) is not None

    def forget_proven(self) -> None:
        """Verdicts `prove` kept that no `signed` took (the batch's links held or repeated)."""
        self._proven.clear()


@dataclass(frozen=True)
class Proving:
    """Signatures handed to the other cores by `Gate.submit`: (table, hash, signature, raw key, what
    the signature signs) in chunks."""

    chunks: list[list[tuple[str, str, str, bytes, bytes]]]
    futures: list[Future]

    @staticmethod
    def joined(first: "Proving | None", then: "Proving | None") -> "Proving | None":
        """Both, in the order the other cores take them."""
        if first is None or then is None:
            return first or then
        return Proving(first.chunks + then.chunks, first.futures + then.futures)


_WORKERS = max(1, min(4, (os.cpu_count() or 1) - 1))
_POOL: list[Executor | None] = []


def _pool() -> Executor | None:
    """The processes that check signatures beside the ingester's own (None on a single core)."""
    if not _POOL:
        if (os.cpu_count() or 1) < 2:
            _POOL.append(None)
        else:
            import multiprocessing

            # Forked: "spawn" starts multiprocessing's resource tracker, which unblocks SIGTERM in this
            # thread, where the ingester keeps it blocked for its own signal thread (croupier floor serve).
            pool = ProcessPoolExecutor(_WORKERS, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_worker_start, initargs=(os.getpid(),))
            atexit.register(pool.shutdown, wait=False, cancel_futures=True)
            _POOL.append(pool)
    return _POOL[0]


def _worker_start(parent: int) -> None:
    """A checking process takes signals again, and ends with the ingester, however that ends."""
    import signal
    import threading

    signal.pthread_sigmask(signal.SIG_SETMASK, ())

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


@lru_cache(maxsize=1)
def _verifier() -> Callable[[bytes, bytes], bool]:
    return event_verifier()


def _verify(work: Sequence[tuple[bytes, bytes]]) -> list[bool]:
    """(raw public key, `signed_message`) -> whether that key signed it (in a worker, or here)."""
    verifier = _verifier()
    return [verifier(raw, signed) for raw, signed in work]
