"""Fixtures of the screen tests: a table session on a copy of a staffed journal, and its app."""
import pytest

from croupier.session import TableSession
from croupier.table.clock import FakeClock
from ui_kit import config_for, open_table, register_staff, staffed_journal


@pytest.fixture(scope="session")
def staffed_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("template") / "journal.db"
    with TableSession.open(path, FakeClock()) as session:
        register_staff(session)
    return path


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def session(staffed_template, tmp_path, clock):
    """An open table: Ana at the wheel, Ines inspecting; red (seat 1, 5 EUR x100) and blue (seat 4,
    10 EUR x50) in play."""
    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as opened:
        open_table(opened)
        yield opened


@pytest.fixture
def config(tmp_path):
    return config_for(tmp_path)


@pytest.fixture
def table_app(session, config):
    from croupier.ui.app import TableApp

    return TableApp(session, config, wheel=False)


def pytest_configure(config):
    config.addinivalue_line("markers", "survives_bug: the test makes a screen bug on purpose")


@pytest.fixture(autouse=True)
def no_screen_bug(request, caplog):
    """A screen bug is survived at the table, so a test would not see it: each fails on one here,
    unless it makes one on purpose."""
    import logging

    caplog.set_level(logging.ERROR, logger="croupier.ui")
    yield
    if request.node.get_closest_marker("survives_bug") is None:
        bugs = [r.getMessage() for r in caplog.get_records("call") if r.name == "croupier.ui" and r.levelno >= logging.ERROR]
        assert bugs == [], "a screen bug was survived: see the log"
