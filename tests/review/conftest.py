"""The review tests' journal: the shift of review_shift.py, written to a temporary file."""
import pytest
from review_shift import shift_events

from croupier.journal.store import Journal


@pytest.fixture
def shift_journal(tmp_path):
    """The path of a closed journal holding `shift_events()`, one event per transaction."""
    path = tmp_path / "shift.db"
    with Journal.open(path) as journal:
        for event in shift_events():
            journal.append([event])
    return path


@pytest.fixture
def table_zone(machine_zone):
    """The table's time zone set to Lisbon's (summer time, UTC+01:00, in September), and put back."""
    machine_zone("Europe/Lisbon")
