"""The 4x4 matrix keypad on mock GPIO pins, with the keypad's wiring modelled: a pressed key joins
its row to its column, so a column reads low while its pressed key's row is driven low."""
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from croupier.keypad.entry import Key
from croupier.keypad.matrix import MatrixKeypad

ROWS = (5, 6, 13, 19)
COLUMNS = (12, 16, 20, 21)


class Board:
    """The keys held down, and the column levels they make."""

    def __init__(self, factory):
        self.factory = factory
        self.held: set[tuple[int, int]] = set()
        self.rows = []

    def update(self):
        for c, pin in enumerate(COLUMNS):
            column = self.factory.pin(pin)
            if column.function != "input":
                continue
            low = any(not self.rows[r].state and (r, c) in self.held for r in range(len(ROWS)) if self.rows[r].function == "output")
            column.drive_low() if low else column.drive_high()

    def hold(self, row, column):
        self.held.add((row, column))
        self.update()

    def release(self, row, column):
        self.held.discard((row, column))
        self.update()


class RowPin(MockPin):
    board: Board | None = None

    def _change_state(self, value):
        changed = super()._change_state(value)
        if self.board is not None and self.function == "output":
            self.board.update()
        return changed


@pytest.fixture
def board():
    factory = MockFactory()
    board = Board(factory)
    for pin in ROWS:
        row = factory.pin(pin, pin_class=RowPin)
        row.board = board
        board.rows.append(row)
    yield board
    factory.reset()
    factory.close()


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def keypad(board):
    pressed, clock = [], Clock()
    pad = MatrixKeypad(ROWS, COLUMNS, pressed.append, debounce_s=0.03, clock=clock, pin_factory=board.factory)
    yield pad, pressed, clock
    pad.close()


def scan_for(pad, clock, seconds, step=0.01):
    for _ in range(round(seconds / step)):
        pad.scan()
        clock.now += step


def test_idle_rows_are_low_and_columns_pulled_up(board, keypad):
    assert not any(row.state for row in board.rows)
    assert all(board.factory.pin(pin).state for pin in COLUMNS)
    assert all(board.factory.pin(pin).pull == "up" for pin in COLUMNS)


def test_a_held_key_is_reported_once_after_the_debounce(board, keypad):
    pad, pressed, clock = keypad
    board.hold(1, 1)  # the "5" key
    scan_for(pad, clock, 0.02)
    assert pressed == []  # not yet stable for 30 ms
    scan_for(pad, clock, 0.5)
    assert pressed == [Key.D5]


def test_every_position_gives_its_key(board, keypad):
    pad, pressed, clock = keypad
    layout = [["1", "2", "3", "A"], ["4", "5", "6", "B"], ["7", "8", "9", "C"], ["*", "0", "#", "D"]]
    expected = []
    for r in range(4):
        for c in range(4):
            board.hold(r, c)
            scan_for(pad, clock, 0.06)
            board.release(r, c)
            scan_for(pad, clock, 0.06)
            expected.append(layout[r][c])
    from croupier.keypad.entry import KEY_FOR_LABEL

    assert pressed == [KEY_FOR_LABEL[label] for label in expected]


def test_contact_bounce_gives_one_press(board, keypad):
    pad, pressed, clock = keypad
    for _ in range(4):  # bouncing for 40 ms: held and released every 10 ms
        board.hold(3, 2)
        scan_for(pad, clock, 0.01)
        board.release(3, 2)
        scan_for(pad, clock, 0.01)
    board.hold(3, 2)
    scan_for(pad, clock, 0.2)
    board.release(3, 2)
    scan_for(pad, clock, 0.2)
    assert pressed == [Key.ENTER]


def test_pressing_twice_gives_two_presses(board, keypad):
    pad, pressed, clock = keypad
    for _ in range(2):
        board.hold(0, 0)
        scan_for(pad, clock, 0.1)
        board.release(0, 0)
        scan_for(pad, clock, 0.1)
    assert pressed == [Key.D1, Key.D1]


def test_two_keys_held_together_are_both_seen(board, keypad):
    pad, pressed, clock = keypad
    board.hold(0, 3)
    board.hold(2, 0)
    scan_for(pad, clock, 0.1)
    assert sorted(pressed) == sorted([Key.VOID, Key.D7])


def test_the_keypads_thread_reports_presses(board):
    pressed = []
    with MatrixKeypad(ROWS, COLUMNS, pressed.append, pin_factory=board.factory) as pad:
        board.hold(3, 1)
        assert wait_for(lambda: pressed == [Key.D0])
        assert pad is not None


def wait_for(condition, seconds=3.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def row_changes(board):
    return sum(len(row.states) for row in board.rows)


def test_an_idle_keypad_does_not_scan(board):
    """Nothing polls the pins while no key is down: the thread waits for a column's edge."""
    with MatrixKeypad(ROWS, COLUMNS, lambda key: None, pin_factory=board.factory):
        time.sleep(0.1)  # the scan made at start
        for row in board.rows:
            row.clear_states()
        time.sleep(0.3)
        assert row_changes(board) == len(ROWS)  # only each row's starting entry


def test_the_keypad_sleeps_again_once_every_key_is_up(board):
    pressed = []
    with MatrixKeypad(ROWS, COLUMNS, pressed.append, pin_factory=board.factory):
        board.hold(1, 2)
        assert wait_for(lambda: pressed == [Key.D6])
        board.release(1, 2)
        time.sleep(0.3)  # the release is debounced, then the scanning stops
        for row in board.rows:
            row.clear_states()
        time.sleep(0.2)
        assert row_changes(board) == len(ROWS)
        board.hold(1, 2)  # and the next press wakes it
        assert wait_for(lambda: pressed == [Key.D6, Key.D6])


def test_a_second_key_on_a_column_already_low_is_seen(board):
    """The column is held low by the first key, so the second makes no edge; the keypad keeps
    scanning while any key is down."""
    pressed = []
    with MatrixKeypad(ROWS, COLUMNS, pressed.append, pin_factory=board.factory):
        board.hold(0, 1)
        assert wait_for(lambda: pressed == [Key.D2])
        board.hold(2, 1)
        assert wait_for(lambda: pressed == [Key.D2, Key.D8])


def test_a_key_held_when_the_keypad_starts_is_seen(board):
    pressed = []
    board.hold(3, 3)
    with MatrixKeypad(ROWS, COLUMNS, pressed.append, pin_factory=board.factory):
        assert wait_for(lambda: pressed == [Key.MENU])


def test_pins_are_released_on_close(board):
    MatrixKeypad(ROWS, COLUMNS, lambda key: None, pin_factory=board.factory).close()
    # The same pins can be claimed again.
    MatrixKeypad(ROWS, COLUMNS, lambda key: None, pin_factory=board.factory).close()


def test_a_wrong_layout_is_refused(board):
    with pytest.raises(ValueError, match="does not fit 4 row pins and 3 column pins"):
        MatrixKeypad(ROWS, COLUMNS[:3], lambda key: None, pin_factory=board.factory)
    with pytest.raises(ValueError, match="unknown key label"):
        MatrixKeypad(ROWS[:1], COLUMNS[:1], lambda key: None, layout=[["X"]], pin_factory=board.factory)
