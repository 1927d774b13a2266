"""The events stream's retention: it never drops an event by age or size (full, it refuses new ones,
which the tables keep), and the ingester purges only what the store has committed, keeping each
table's head for its publisher."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from croupier.floor.store import open_store
from croupier.floor.wire import EVENTS_STREAM, STREAM_MAX_BYTES, Link, connect, events_subject

from floor_kit import enrol_journal, journal_links, log_text, publish, start_ingester, stop, wait_for

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import write_shift  # noqa: E402


def in_stream(url: str) -> tuple[dict[str, int], object]:
    async def ask():
        nc = await connect([url])
        try:
            info = await nc.jetstream().stream_info(EVENTS_STREAM, subjects_filter=">")
            return dict(info.state.subjects or {}), info.config
        finally:
            await nc.close()

    return asyncio.run(ask())


def test_committed_events_are_purged_and_uncommitted_ones_kept(tmp_path, broker):
    from nats.js.api import DiscardPolicy

    write_shift(tmp_path / "T1.db").close()
    t1 = journal_links(tmp_path / "T1.db")
    gap = [Link(seq, "2026-01-01T00:00:00+00:00", "result-recorded", "{}", "0" * 64, "1" * 64, "")
           for seq in range(5, 55)]  # T9's first four events never come
    url = str(tmp_path / "floor.db")
    log_path = tmp_path / "ingester.log"
    enrol_journal(url, tmp_path / "T1.db", "T1")
    with open(log_path, "wb") as log:
        ingester = start_ingester(broker.url, url, log, 0.5, "--stream-keep", "0")
        try:
            publish(broker.url, "T1", t1)
            publish(broker.url, "T9", gap)

            def stored() -> int:
                try:
                    with open_store(url, read_only=True) as store:
                        return store.head("T1")[0]
                except Exception:
                    return -1

            assert wait_for(lambda: stored() == len(t1), timeout=30), log_text(log_path)
            assert wait_for(lambda: in_stream(broker.url)[0].get(events_subject("T1")) == 1, timeout=30)
            subjects, config = in_stream(broker.url)
            assert subjects[events_subject("T9")] == len(gap)  # nothing of it committed: all kept
            assert config.discard in ("new", DiscardPolicy.NEW) and config.max_bytes == STREAM_MAX_BYTES and not config.max_age
        finally:
            assert stop(ingester) == 0
