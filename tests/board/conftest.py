"""Fixtures of the display-board tests; the tables are built in board_kit.py."""
import pytest


@pytest.fixture
def mock_factory():
    """A fresh MockFactory, also gpiozero's default (its composite devices ask for the default even
    when given a factory), whose pins are free again after the test (mock pins are class-level)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    factory = Device.pin_factory = MockFactory()
    yield factory
    factory.reset()
    Device.pin_factory = previous
