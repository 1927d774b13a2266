"""The floor's tests run against real servers: nats-server and PostgreSQL."""
import pytest

from floor_kit import ThrowawayPostgres, pg_binaries


@pytest.fixture
def postgres():
    if pg_binaries() is None:
        pytest.skip("no PostgreSQL on this machine (initdb not found under /usr/lib/postgresql/*/bin or on PATH)")
    pytest.importorskip("psycopg", reason="psycopg comes with the floor extra: pip install '.[floor-server]'")
    server = ThrowawayPostgres().start()
    yield server
    server.stop()


@pytest.fixture
def broker(tmp_path):
    from croupier.floor.broker import LocalBroker

    pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor-server]'")
    server = LocalBroker(tmp_path / "nats", log_file=tmp_path / "nats.log").start()
    yield server
    server.stop()
