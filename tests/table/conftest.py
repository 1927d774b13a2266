"""Fixtures of the table tests; the helpers are in table_kit.py."""
import pytest

from croupier.table.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
