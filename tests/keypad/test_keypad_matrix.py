"""The 4x4 matrix keypad on mock GPIO pins, with the keypad's wiring modelled: a pressed key joins
its row to its column, so a column reads low while its pressed key's row is driven low."""
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


def test_idle_rows_are_high_and_columns_pulled_up(board, keypad):
    assert all(row.state for row in board.rows)
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


def test_the_scanning_thread_reports_presses(board):
    import time

    pressed = []
    with MatrixKeypad(ROWS, COLUMNS, pressed.append, pin_factory=board.factory) as pad:
        board.hold(3, 1)
        deadline = time.monotonic() + 3
        while not pressed and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pressed == [Key.D0]
        assert pad is not None


def test_pins_are_released_on_close(board):
    MatrixKeypad(ROWS, COLUMNS, lambda key: None, pin_factory=board.factory).close()
    # The same pins can be claimed again.
    MatrixKeypad(ROWS, COLUMNS, lambda key: None, pin_factory=board.factory).close()


def test_a_wrong_layout_is_refused(board):
    with pytest.raises(ValueError, match="does not fit 4 row pins and 3 column pins"):
        MatrixKeypad(ROWS, COLUMNS[:3], lambda key: None, pin_factory=board.factory)
    with pytest.raises(ValueError, match="unknown key label"):
        MatrixKeypad(ROWS[:1], COLUMNS[:1], lambda key: None, layout=[["X"]], pin_factory=board.factory)
