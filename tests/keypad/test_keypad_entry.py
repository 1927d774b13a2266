"""Typing a winning number: 0 and 4-9 complete at once, 1-3 wait, a typed number must be confirmed."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.keypad.entry import KEY_FOR_LABEL, MATRIX_LAYOUT, Entry, Key, NumberEntry, Step


def press(entry, *labels):
    """Press matrix labels ("1", "7", "#") in turn; the last Entry."""
    result = None
    for label in labels:
        result = entry.press(KEY_FOR_LABEL[label])
    return result


@pytest.mark.parametrize("digit", [0, 4, 5, 6, 7, 8, 9])
def test_0_and_4_to_9_complete_at_once(digit):
    assert press(NumberEntry(), str(digit)) == Entry(Step.PROPOSED, str(digit), digit)


@pytest.mark.parametrize("digit", [1, 2, 3])
def test_1_to_3_wait_for_a_second_digit(digit):
    assert press(NumberEntry(), str(digit)) == Entry(Step.TYPING, str(digit))


@pytest.mark.parametrize("labels, number", [(("1", "0"), 10), (("1", "9"), 19), (("2", "7"), 27), (("3", "6"), 36)])
def test_two_digit_numbers(labels, number):
    assert press(NumberEntry(), *labels) == Entry(Step.PROPOSED, str(number), number)


@pytest.mark.parametrize("digit", [1, 2, 3])
def test_1_to_3_then_enter_is_that_digit(digit):
    assert press(NumberEntry(), str(digit), "#") == Entry(Step.PROPOSED, str(digit), digit)


@pytest.mark.parametrize("second", ["7", "8", "9"])
def test_no_pocket_above_36(second):
    entry = NumberEntry()
    result = press(entry, "3", second)
    assert result.step is Step.REJECTED and f"no pocket 3{second}" in result.message
    assert press(entry, "4") == Entry(Step.PROPOSED, "34", 34)  # the 3 is still there


def test_a_typed_number_is_only_taken_when_confirmed():
    entry = NumberEntry()
    assert press(entry, "1", "7").step is Step.PROPOSED
    assert press(entry, "#") == Entry(Step.CONFIRMED, "17", 17)
    assert entry.proposed is None and entry.typed == ""  # ready for the next spin


def test_a_digit_after_a_proposal_starts_again():
    entry = NumberEntry()
    press(entry, "8")
    assert press(entry, "2", "3") == Entry(Step.PROPOSED, "23", 23)
    assert press(entry, "#").number == 23


def test_clear_and_cancel():
    entry = NumberEntry()
    assert press(entry, "2", "C") == Entry(Step.TYPING)
    assert press(entry, "5", "*") == Entry(Step.CANCELLED)
    assert press(entry, "#").step is Step.REJECTED  # nothing typed: Enter confirms nothing


@pytest.mark.parametrize("label", ["A", "B", "D"])
def test_function_keys_are_not_entry_keys_and_keep_what_was_typed(label):
    entry = NumberEntry()
    press(entry, "3")
    assert press(entry, label).step is Step.NOT_ENTRY
    assert press(entry, "2").number == 32


def test_the_matrix_layout_has_every_key_once():
    labels = [label for row in MATRIX_LAYOUT for label in row]
    assert sorted(labels) == sorted("0123456789ABCD*#")
    assert {KEY_FOR_LABEL[label] for label in labels} == set(Key)


digits = st.sampled_from([str(d) for d in range(10)])
any_label = st.sampled_from(list(KEY_FOR_LABEL))


@given(st.lists(any_label, max_size=30))
def test_only_pockets_are_ever_proposed_or_confirmed(labels):
    entry = NumberEntry()
    for label in labels:
        result = entry.press(KEY_FOR_LABEL[label])
        if result.step in (Step.PROPOSED, Step.CONFIRMED):
            assert 0 <= result.number <= 36
        else:
            assert result.number is None or result.step is Step.NOT_ENTRY


@given(st.lists(any_label, max_size=30))
def test_confirmation_always_follows_a_proposal_of_the_same_number(labels):
    entry, shown = NumberEntry(), None
    for label in labels:
        result = entry.press(KEY_FOR_LABEL[label])
        if result.step is Step.CONFIRMED:
            assert label == "#" and result.number == shown
        shown = result.number if result.step is Step.PROPOSED else shown if result.step is Step.NOT_ENTRY else None


@given(st.integers(0, 36))
def test_every_pocket_can_be_typed_and_confirmed(number):
    # Typed as a croupier would: the digits, then Enter if the number is still waiting, then Enter.
    entry = NumberEntry()
    for digit in str(number):
        result = press(entry, digit)
    if result.step is Step.TYPING:
        result = press(entry, "#")
    assert result == Entry(Step.PROPOSED, str(number), number)
    assert press(entry, "#") == Entry(Step.CONFIRMED, str(number), number)
