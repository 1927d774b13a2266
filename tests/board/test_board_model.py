"""What the players' board shows: the digits and lamps, read off a drawing of a 7-segment digit
(a top, b top right, c bottom right, d bottom, e bottom left, f top left, g middle)."""
from hypothesis import given, strategies as st

from board_kit import closed_bets, launched, opened, paid, result, voided
from croupier.board.model import CHARACTER_SEGMENTS, DARK, board_for
from croupier.table.state import INITIAL, apply, fold

# PT-A 6: the red numbers; the others from 1 to 36 are black, zero is neither.
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
# Drawn by hand, digit by digit.
SEVEN_SEGMENT = {
    0: "abcdef", 1: "bc", 2: "abged", 3: "abgcd", 4: "fgbc", 5: "afgcd", 6: "afgedc", 7: "abc", 8: "abcdefg",
    9: "abcdfg",
}


def test_each_digit_lights_the_segments_drawn_for_it():
    for digit, lit in SEVEN_SEGMENT.items():
        assert set(CHARACTER_SEGMENTS[str(digit)]) == set(lit), digit


def test_a_closed_table_shows_nothing():
    assert board_for(INITIAL) == DARK


def test_open_table_without_a_result_shows_bets_open_and_blank_digits():
    board = board_for(fold([opened()]))
    assert board.text == "  " and board.number is None
    assert board.lamps == {"bets_open"}


def test_a_result_shows_its_number_and_colour_until_the_next():
    state = fold([opened(), launched(1, 1), closed_bets(1, 1.2), result(1, 17, 1.5)])
    board = board_for(state)
    assert board.text == "17"  # 17 is black (PT-A 6)
    assert board.segments(0) == set("bc") and board.segments(1) == set("abc")
    assert board.lamps == {"black"}  # paying: neither bets open nor no more bets
    state = fold([paid(1, 2), launched(2, 3)], state)
    assert board_for(state).text == "17" and board_for(state).lamps == {"black", "bets_open"}  # PT-A 20
    state = fold([closed_bets(2, 3.2)], state)
    assert board_for(state).lamps == {"black", "no_more_bets"}
    state = fold([result(2, 0, 3.5)], state)
    assert board_for(state).text == " 0" and board_for(state).lamps == {"green"}


def test_a_betting_period_profile_closes_bets_at_the_launch():
    # SRIJ 14: the betting period ends at the exact moment the ball is launched.
    state = fold([opened("pt-srij-french"), launched(1, 1)])
    assert board_for(state).lamps == {"no_more_bets"}


def test_the_void_lamp_stays_from_the_golpe_nulo_until_the_next_launch():
    # PT-A 22; the state is the journal's fold, so a restarted table lights it again. Bets stand
    # meanwhile: "bets open" stays dark until the next launch.
    state = fold([opened(), launched(1, 1), result(1, 5, 1.5), paid(1, 2), launched(2, 3), voided(2, 3.3, 5)])
    assert board_for(state).lamps == {"red", "void"} and board_for(state).text == " 5"
    assert "void" not in board_for(apply(state, launched(2, 4))).lamps


@given(st.integers(0, 36))
def test_any_result_shows_its_two_digits_and_one_colour_lamp(number):
    board = board_for(fold([opened(), launched(1, 1), result(1, number, 1.5)]))
    assert board.number == number
    tens, units = divmod(number, 10)
    assert board.segments(0) == (set(SEVEN_SEGMENT[tens]) if tens else set())  # no leading zero
    assert board.segments(1) == set(SEVEN_SEGMENT[units])
    expected = "green" if number == 0 else "red" if number in RED else "black"
    assert board.lamps & {"red", "black", "green"} == {expected}
