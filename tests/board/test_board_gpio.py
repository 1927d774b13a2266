"""The display board's pins under gpiozero's MockFactory: what a wired board would light."""
import time

import pytest

from croupier.board.model import Board
from croupier.config import default_config

CONFIG = default_config().display  # segments a-g 4 17 27 22 10 9 11, digits 7 8, lamps below
SEGMENT_PINS = dict(zip("abcdefg", (4, 17, 27, 22, 10, 9, 11)))
TENS, UNITS = 7, 8
LAMP_PINS = {"red": 23, "black": 24, "green": 25, "bets_open": 18, "no_more_bets": 26, "void": 3}


@pytest.fixture
def recorded(mock_factory):
    """Every pin change, in the order it happened, across all pins."""
    from gpiozero.pins.mock import MockPin

    changes: list[tuple[int, bool]] = []

    class RecordingPin(MockPin):
        def _change_state(self, value):
            changed = super()._change_state(value)
            if changed and self.function == "output":
                changes.append((int(self.info.name.removeprefix("GPIO")), bool(value)))  # BCM number
            return changed

    mock_factory.pin_class = RecordingPin
    return changes


def board(pin_factory, **overrides):
    import dataclasses

    from croupier.board.gpio import GpioBoard

    return GpioBoard(dataclasses.replace(CONFIG, **overrides), pin_factory=pin_factory)


def level(factory, pin: int) -> bool:
    return factory.pin(pin).state


def test_lamps_follow_the_board(mock_factory):
    with board(mock_factory) as gpio:
        assert not any(level(mock_factory, p) for p in LAMP_PINS.values())  # dark at start
        gpio.show(Board(" 5", frozenset({"red", "bets_open"})))
        assert {n for n, p in LAMP_PINS.items() if level(mock_factory, p)} == {"red", "bets_open"}
        gpio.show(Board(" 0", frozenset({"green", "void"})))
        assert {n for n, p in LAMP_PINS.items() if level(mock_factory, p)} == {"green", "void"}


def test_a_sinking_board_drives_lit_lamps_low(mock_factory):
    with board(mock_factory, active_high=False) as gpio:
        gpio.show(Board("  ", frozenset({"no_more_bets"})))
        assert level(mock_factory, LAMP_PINS["no_more_bets"]) is False
        assert all(level(mock_factory, p) for n, p in LAMP_PINS.items() if n != "no_more_bets")


def test_one_digit_number_lights_only_the_units_with_its_segments(mock_factory):
    with board(mock_factory) as gpio:
        gpio.show(Board(" 7", frozenset({"red"})))
        assert level(mock_factory, UNITS) and not level(mock_factory, TENS)
        lit = {s for s, p in SEGMENT_PINS.items() if level(mock_factory, p)}
        assert lit == set("abc")  # a 7, drawn by hand


def test_two_different_digits_are_multiplexed_each_with_its_own_segments(mock_factory, recorded):
    with board(mock_factory) as gpio:
        recorded.clear()
        gpio.show(Board("17", frozenset({"black"})))
        time.sleep(0.1)  # the multiplexing thread switches digits every 5 ms
    # Replay every change: whenever one digit is selected, the segments show that digit.
    levels = {p: False for p in (*SEGMENT_PINS.values(), TENS, UNITS)}
    seen = set()
    expected = {TENS: set("bc"), UNITS: set("abc")}  # 1 and 7
    for pin, value in recorded:
        if pin not in levels:
            continue
        levels[pin] = value
        selected = [d for d in (TENS, UNITS) if levels[d]]
        assert len(selected) <= 1, "both digits selected at once would show a mix"
        if selected:
            lit = {s for s, p in SEGMENT_PINS.items() if levels[p]}
            assert lit == expected[selected[0]]
            seen.add(selected[0])
    assert seen == {TENS, UNITS}


def test_closing_frees_the_pins_for_the_next_user(mock_factory):
    board(mock_factory).close()
    board(mock_factory).close()  # the same pins again: refused if the first had kept them


@pytest.fixture
def demo_factory():
    """The demo's mock pins, as gpiozero's default for the test (see conftest.mock_factory)."""
    from gpiozero import Device

    from croupier.board.gpio import use_mock_pins

    previous = Device.pin_factory
    factory = use_mock_pins()
    yield factory
    factory.reset()
    Device.pin_factory = previous


def test_the_demo_board_keeps_its_memory_flat_while_the_digits_are_multiplexed(demo_factory):
    from croupier.board.gpio import KEPT_STATES

    with board(demo_factory) as gpio:
        gpio.show(Board("17", frozenset({"red"})))  # two different digits: the multiplexing thread runs
        tens = demo_factory.pin(TENS)
        deadline = time.monotonic() + 10
        while len(tens.states) < KEPT_STATES and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # another hundred switches at least
        assert len(tens.states) == KEPT_STATES  # it switched more often than a pin keeps
        assert all(len(pin.states) <= KEPT_STATES for pin in demo_factory.pins.values())
        assert level(demo_factory, LAMP_PINS["red"]) is True  # the board still shows what it should
