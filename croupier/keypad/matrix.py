"""The 4x4 matrix keypad on GPIO: the only module that imports gpiozero (inside its functions).

The four rows are outputs, idle low; the four columns are inputs with pull-ups and gpiozero's edge
detection. With no key down nothing runs: the keypad's thread sleeps until a column falls (a pressed
key joins a low row to its column), as Linux's matrix-keypad driver does. Then it scans every
`scan_interval_s` - all rows high, one row low at a time, reading the columns - until every key is up
again, and goes back to sleep. A key counts as pressed (or released) only once it has read the same
for `debounce_s`, so contact bounce never gives two presses, and a second key held on a column that
is already low is still seen. Each press is reported once, as a `Key`, to `on_key` from the keypad's
thread (a Textual screen passes `post_message`).

Pins are BCM numbers (hw/wiring.md has the wiring). On a machine without a Pi, gpiozero's
MockFactory stands in (GPIOZERO_PIN_FACTORY=mock).
"""
from __future__ import annotations

import logging
import threading
import time as _time
from typing import Callable, Sequence

from croupier.keypad.entry import KEY_FOR_LABEL, MATRIX_LAYOUT, Key

log = logging.getLogger(__name__)

SCAN_INTERVAL_S = 0.01
DEBOUNCE_S = 0.03


class _KeyState:
    __slots__ = ("raw", "since", "down")

    def __init__(self) -> None:
        self.raw = False
        self.since = 0.0
        self.down = False


class MatrixKeypad:
    def __init__(
        self,
        rows: Sequence[int | str],
        columns: Sequence[int | str],
        on_key: Callable[[Key], None],
        *,
        layout: Sequence[Sequence[str]] = MATRIX_LAYOUT,
        debounce_s: float = DEBOUNCE_S,
        scan_interval_s: float = SCAN_INTERVAL_S,
        clock: Callable[[], float] = _time.monotonic,
        pin_factory=None,
    ):
        if len(layout) != len(rows) or any(len(row) != len(columns) for row in layout):
            raise ValueError(
                f"the key layout does not fit {len(rows)} row pins and {len(columns)} column pins"
            )
        unknown = [label for row in layout for label in row if label not in KEY_FOR_LABEL]
        if unknown:
            raise ValueError(f"unknown key label {unknown[0]!r} in the layout")
        from gpiozero import DigitalInputDevice, OutputDevice

        self._keys = [[KEY_FOR_LABEL[label] for label in row] for row in layout]
        self._on_key = on_key
        self._debounce = debounce_s
        self._interval = scan_interval_s
        self._clock = clock
        self._state = [[_KeyState() for _ in columns] for _ in rows]
        self._wake = threading.Event()  # set by a column's falling edge
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._rows: list = []
        self._columns: list = []
        try:
            # active_high=False: "on" drives the row low, as every row is while idle.
            for pin in rows:
                self._rows.append(OutputDevice(pin, active_high=False, initial_value=True, pin_factory=pin_factory))
            for pin in columns:
                column = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                self._columns.append(column)
                column.when_activated = self._wake.set  # active = pulled low by a key
        except Exception:
            self.close()
            raise

    def start(self) -> "MatrixKeypad":
        if self._thread is None:
            self._stop.clear()
            self._wake.set()  # a key already held at start is seen
            self._thread = threading.Thread(target=self._run, name="matrix-keypad", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(1.0)
            self._thread = None
        for device in (*self._rows, *self._columns):
            device.close()
        self._rows, self._columns = [], []

    def __enter__(self) -> "MatrixKeypad":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def scan(self) -> list[Key]:
        """One pass over the matrix; returns (and reports) the keys that became pressed."""
        now = self._clock()
        pressed: list[Key] = []
        for row in self._rows:
            row.off()
        try:
            for r, row in enumerate(self._rows):
                row.on()
                try:
                    raw = [column.is_active for column in self._columns]
                finally:
                    row.off()
                for c, is_down in enumerate(raw):
                    state = self._state[r][c]
                    if is_down != state.raw:
                        state.raw, state.since = is_down, now
                    elif is_down != state.down and now - state.since >= self._debounce:
                        state.down = is_down
                        if is_down:
                            pressed.append(self._keys[r][c])
        finally:
            for row in self._rows:
                row.on()
        for key in pressed:
            try:
                self._on_key(key)
            except Exception:  # a consumer's bug must not stop the keypad
                log.exception("keypad handler failed on %s", key)
        return pressed

    def settled(self) -> bool:
        """Every key is up and has read up since the last scan: nothing is left to debounce."""
        return not any(state.raw or state.down for states in self._state for state in states)

    def _run(self) -> None:
        while self._wake.wait() and not self._stop.is_set():
            while True:
                self.scan()  # its own row changes make edges, cleared below
                if self.settled():
                    self._wake.clear()
                    # A key pressed since the scan holds its column low; one pressed after this
                    # reading sets the event again.
                    if not any(column.is_active for column in self._columns):
                        break
                if self._stop.wait(self._interval):
                    return
