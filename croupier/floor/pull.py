"""Batches from the ingester's durable pull consumer. nats-py's `fetch` awaits each message of a
batch in an asyncio task of its own, which cost the ingester more than reading the message; here one
request asks for the batch and what the broker sends for it is collected as it is read
(croupier.floor.client). Nothing is acknowledged here: the ingester acknowledges a batch's messages
after its commit."""
from __future__ import annotations

import asyncio
import json

from croupier.floor.wire import WireError

API = "$JS.API"


class Pull:
    """`fetch` asks the consumer for up to a batch and returns what came within the wait."""

    def __init__(self, nc, stream: str, durable: str) -> None:
        self._nc = nc
        self._next = f"{API}.CONSUMER.MSG.NEXT.{stream}.{durable}"
        self._inbox = ""
        self._sub = None
        self._msgs: list = []  # delivered and not yet handed out (a request outlives a fetch that gave up waiting)
        self._wanted = 0
        self._ended = asyncio.Event()

    async def start(self) -> "Pull":
        self._inbox = self._nc.new_inbox()  # under the login's own inbox prefix: its permissions allow it
        self._sub = await self._nc.collect(self._inbox, self._got)
        return self

    def _got(self, msg) -> None:
        if not msg.data and msg.headers and "Status" in msg.headers:  # 404 none, 408 expired, 409 limits
            self._ended.set()
            return
        self._msgs.append(msg)
        if len(self._msgs) >= self._wanted:
            self._ended.set()

    async def fetch(self, batch: int, wait_s: float) -> list:
        """Up to `batch` messages: what the stream holds, or what comes first within `wait_s`; never
        waiting for a batch to fill (with `no_wait` and `expires` the broker waits for a first message
        only, then sends what it holds and ends the request with a status). With `wait_s` 0, what the
        stream holds now: the broker says at once that it holds nothing, and sends a backlog whole
        however long that takes (an `expires` would cut it short)."""
        if len(self._msgs) < batch:
            self._wanted = batch
            self._ended.clear()
            request = {"batch": batch - len(self._msgs), "no_wait": True}
            if wait_s:
                request["expires"] = int(wait_s * 1e9)
            await self._nc.publish(self._next, json.dumps(request).encode(), reply=self._inbox)
            try:
                await asyncio.wait_for(self._ended.wait(), wait_s + 1.0)
            except asyncio.TimeoutError:
                pass
        taken, self._msgs = self._msgs[:batch], self._msgs[batch:]
        return taken

    async def stop(self) -> None:
        if self._sub is not None:
            try:
                await self._nc.stop_collecting(self._sub)
            except Exception:  # the connection is gone already
                pass


def stream_seq(msg) -> int:
    """The stream sequence of a JetStream message, from its reply subject ($JS.ACK.<stream>.<consumer>.
    <delivered>.<stream seq>...; from nats-server 2.10 also with domain and account before the stream);
    0 for a message without one. Read without nats-py's metadata, which builds objects the ingester
    does not use."""
    reply = getattr(msg, "reply", None) or ""
    tokens = reply.split(".")
    if tokens[:2] != ["$JS", "ACK"] or len(tokens) not in (9, 11, 12):
        metadata = getattr(msg, "metadata", None)  # a test's stand-in carries its metadata
        return metadata.sequence.stream if metadata is not None else 0
    try:
        return int(tokens[5] if len(tokens) == 9 else tokens[7])
    except ValueError:
        raise WireError(f"reply subject {reply[:80]!r} has no stream sequence") from None
