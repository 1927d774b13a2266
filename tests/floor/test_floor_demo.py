"""`croupier floor demo` brings up a whole floor on one machine and leaves nothing running after it."""
from __future__ import annotations

import socket

import pytest

from croupier.floor.demo import Floor
from croupier.floor.store import open_store

from floor_kit import wait_for


def test_the_demo_floor_fills_the_store_and_stops_every_process(tmp_path):
    pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor-server]'")
    floor = Floor(tmp_path)
    try:
        floor.start(tables=2, speed=25)

        def tables_stored() -> list[str]:
            with open_store(str(floor.store), read_only=True) as store:
                return [t.table_id for t in store.tables() if t.head_seq >= 2]

        assert wait_for(lambda: tables_stored() == ["T1", "T2"], timeout=60), tables_stored()
    finally:
        floor.stop()
    assert floor.processes and all(proc.poll() is not None for proc in floor.processes)
    with socket.socket() as s:  # the broker is gone too
        assert s.connect_ex(("127.0.0.1", floor.broker.port)) != 0
