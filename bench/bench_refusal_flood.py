"""A flood of forged messages, each on a made-up table's subject of its own, measured with a real
nats-server and the ingester (`croupier floor serve`, its own process). Run by hand:

    .venv/bin/python bench/bench_refusal_flood.py [--messages 100000] [--store URL]

The messages are in the stream before the ingester starts. It prints how long publishing them took,
how long the ingester took to refuse and count them all, the rows the store then holds
(floor_refusals, and floor_refused: the stream sequences noted until the consumer's ack floor
passes them), and the ingester's resident memory after its first batch and at its peak (VmHWM).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from croupier.floor.broker import LocalBroker
from croupier.floor.store import open_store
from croupier.floor.wire import Link, ensure_streams, events_subject, message_id


def memory_kib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


async def flood(url: str, messages: int) -> None:
    import nats

    forged = Link(1, "2026-01-01T00:00:00+00:00", "table-opened", "{}", "0" * 64, "a" * 64, "0" * 64, sig="00" * 64)
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        await ensure_streams(js)
        data = forged.encode()
        for start in range(0, messages, 500):  # 500 in flight at a time
            await asyncio.gather(*(js.publish(events_subject(f"X{n}"), data,
                                              headers={"Nats-Msg-Id": message_id(f"X{n}", 1, forged.hash)})
                                   for n in range(start, min(messages, start + 500))))
    finally:
        await nc.close()


def rows(store_url: str) -> tuple[int, int, int]:
    with open_store(store_url, read_only=True) as store:
        refusals = store._execute("SELECT count(*), coalesce(sum(messages), 0) FROM floor_refusals").fetchone()
        noted = store._execute("SELECT count(*) FROM floor_refused").fetchone()[0]
    return int(refusals[0]), int(refusals[1]), int(noted)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--store", help="a PostgreSQL URL (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, LocalBroker(Path(folder) / "nats") as broker:
        store_url = args.store or str(Path(folder) / "floor.db")
        open_store(store_url).close()
        began = time.monotonic()
        asyncio.run(flood(broker.url, args.messages))
        print(f"published {args.messages} messages on as many subjects in {time.monotonic() - began:.1f} s")
        with open(Path(folder) / "ingester.log", "wb") as log:
            ingester = subprocess.Popen(
                [sys.executable, "-m", "croupier", "floor", "serve", "--nats", broker.url, "--store", store_url,
                 "--signing-key", str(Path(folder) / "floor-signing.key")],
                stdout=subprocess.DEVNULL, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"})
            try:
                began = time.monotonic()
                first_rss = 0
                while (counted := rows(store_url)[1]) < args.messages:
                    if ingester.poll() is not None:
                        sys.exit(f"the ingester ended ({ingester.returncode}): see its log")
                    if counted and not first_rss:  # the first batch counted: the ingester is under way
                        first_rss = memory_kib(ingester.pid, "VmRSS")
                    time.sleep(0.5)
                took = time.monotonic() - began
                time.sleep(5)  # two words: the noted stream sequences below the ack floor forgotten
                refusals, counted, noted = rows(store_url)
                peak = memory_kib(ingester.pid, "VmHWM")
                print(f"refused and counted {counted} messages in {took:.1f} s ({counted / took:.0f}/s)")
                print(f"store: {refusals} floor_refusals rows, {noted} floor_refused rows")
                print(f"ingester memory: {first_rss / 1024:.0f} MiB resident after its first batch, {peak / 1024:.0f} MiB "
                      "peak")
            finally:
                ingester.terminate()
                ingester.wait(15)


if __name__ == "__main__":
    main()
