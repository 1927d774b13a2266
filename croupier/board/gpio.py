"""The display board on GPIO: the only module that imports gpiozero for the board (inside its
functions), so the rest of croupier runs on any machine.

The two digits share their seven segment pins and are multiplexed through their digit-select pins
(gpiozero's LEDMultiCharDisplay, which keeps a thread switching them while they differ); each lamp
is one pin. Pins and polarity come from the configuration's [display] section. On a machine without
a Pi, gpiozero's MockFactory stands in (GPIOZERO_PIN_FACTORY=mock, or `pin_factory=`).
"""
from __future__ import annotations

from typing import Any

from croupier.board.model import DARK, FONT, Board
from croupier.board.names import LAMP_NAMES

KEPT_STATES = 64  # changes a mock pin of the demo's board remembers (gpiozero's keeps every one)


def use_mock_pins():
    """Make gpiozero's pins mock pins for a board that runs for hours (the demo), and return their
    factory: they keep only their last KEPT_STATES changes, where gpiozero's record every one, 200 a
    second while the two digits are multiplexed."""
    from collections import deque

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPin

    class RecentStatesPin(MockPin):
        states: deque[Any]  # gpiozero's list of the pin's states, kept short here

        def clear_states(self) -> None:
            super().clear_states()
            self.states = deque(self.states, maxlen=KEPT_STATES)

    Device.pin_factory = MockFactory(pin_class=RecentStatesPin)
    return Device.pin_factory


class GpioBoard:
    def __init__(self, config, pin_factory=None) -> None:
        """`config`: the configuration's [display] section (segments, digits, lamps, active_high)."""
        from gpiozero import LED, LEDCharDisplay, LEDMultiCharDisplay

        self._devices = []
        try:
            char = LEDCharDisplay(*config.segments, font=FONT, active_high=config.active_high,
                                  pin_factory=pin_factory)
            self._devices.append(char)
            self._digits = LEDMultiCharDisplay(char, *config.digits, active_high=config.active_high,
                                               pin_factory=pin_factory)
            self._devices.append(self._digits)
            self._lamps = {}
            for name in LAMP_NAMES:
                self._lamps[name] = LED(getattr(config.lamps, name), active_high=config.active_high,
                                        pin_factory=pin_factory)
                self._devices.append(self._lamps[name])
        except Exception:
            self.close()
            raise
        self.shown: Board | None = None
        self.show(DARK)

    def show(self, board: Board) -> None:
        if board == self.shown:
            return  # resetting the same value would restart the multiplexing for nothing
        self._digits.value = board.text
        for name, lamp in self._lamps.items():
            lamp.value = name in board.lamps
        self.shown = board

    def close(self) -> None:
        """Switch everything off and free the pins (the multiplexing thread stops with them)."""
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # a pin already gone must not keep the others busy
                pass
        self._devices = []

    def __enter__(self) -> "GpioBoard":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
