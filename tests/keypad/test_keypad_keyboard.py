"""A USB numeric keypad or keyboard gives the same keys as the matrix."""
import pytest

from croupier.keypad.entry import KEY_FOR_LABEL, Key, NumberEntry, Step
from croupier.keypad.keyboard import key_for


@pytest.mark.parametrize(
    "name, label",
    [("0", "0"), ("9", "9"), ("enter", "#"), ("number_sign", "#"), ("asterisk", "*"), ("escape", "*"),
     ("a", "A"), ("B", "B"), ("c", "C"), ("d", "D"), ("minus", "A"), ("plus", "B"), ("full_stop", "C"),
     ("backspace", "C"), ("slash", "D"), ("ctrl+j", "#")],
)
def test_keyboard_key_is_the_matrix_key(name, label):
    assert key_for(name) is KEY_FOR_LABEL[label]


@pytest.mark.parametrize("name", ["x", "f1", "tab", "space", "ctrl+c", ""])
def test_other_keys_mean_nothing_at_the_table(name):
    assert key_for(name) is None


def test_enter_typed_before_the_terminal_was_raw_is_enter():
    """The terminal's line discipline turns Enter typed as the table starts into a line feed."""
    assert key_for("ctrl+j") is Key.ENTER


def test_every_table_key_can_be_typed_on_a_numeric_keypad():
    # A numeric keypad has digits, Enter, + - * / and '.': nothing else is needed.
    numpad = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "enter", "plus", "minus", "asterisk", "slash", "full_stop"]
    assert {key_for(name) for name in numpad} == set(Key)


def test_typing_a_result_on_the_keyboard():
    entry = NumberEntry()
    steps = [entry.press(key_for(name)) for name in ("2", "6", "enter")]
    assert steps[-1].step is Step.CONFIRMED and steps[-1].number == 26
