"""Shared test set-up."""
import os

from hypothesis import HealthCheck, settings

# Rules and decoders are exercised hard, but a slow CI core must not turn into flaky deadlines.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def machine_time_zone_in_english():
    """Each test starts in English, showing times in the machine's zone, whatever an earlier one
    configured (a command run with a table's configuration sets its language and zone as its default)."""
    from croupier.i18n import Presentation, present

    present(Presentation())
    yield
    present(Presentation())


@pytest.fixture(autouse=True)
def own_cache_directory(tmp_path_factory, monkeypatch):
    """Each test has a cache directory of its own: a report's saved fold never carries over."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def machine_zone(monkeypatch):
    """`machine_zone("Europe/Rome")` sets the machine's time zone (TZ) for the test; put back after."""
    import time

    def setting(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield setting
    monkeypatch.undo()
    time.tzset()
