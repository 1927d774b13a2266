"""The players' monitor's figures, worked out by hand from short runs of results."""
from decimal import Decimal

import pytest

from billboard_kit import at, opened, spins, voided
from croupier.billboard.model import BallChange, Billboard, GolpeNulo, NewLimits, NoMoreBets
from croupier.table import events as ev
from croupier.table.state import INITIAL

RUN = [17, 5, 0, 17, 32, 17, 5]  # oldest first


def board_after(events, window: int = 100) -> Billboard:
    board = Billboard(INITIAL, window=window)
    for event in events:
        board.apply(event)
    return board


def test_last_numbers_newest_first():
    board = board_after([opened(), *spins(RUN)])
    assert board.last == 5
    assert board.last_numbers() == [5, 17, 32, 17, 0, 5, 17]
    assert board.last_numbers(3) == [5, 17, 32]


def test_hot_and_cold():
    board = board_after([opened(), *spins(RUN)])
    # 17 three times, 5 twice; of the numbers out once, 32 came after 0
    assert board.hot(3) == [(17, 3), (5, 2), (32, 1)]
    # never out: 1, 2, 3 first (all equally absent, by number)
    assert board.cold(3) == [(1, 0), (2, 0), (3, 0)]


def test_shares_of_the_spins():
    shares = board_after([opened(), *spins(RUN)]).shares()
    # 7 spins: red 5, 32, 5 (PT-A 6); black 17 x3; zero once
    assert shares.spins == 7
    assert (shares.red, shares.black, shares.zero) == pytest.approx((300 / 7, 300 / 7, 100 / 7))
    # odd 17, 5, 17, 17, 5; even 32 only: zero is neither
    assert (shares.odd, shares.even) == pytest.approx((500 / 7, 100 / 7))
    # dozens: 1-12 holds 5 x2, 13-24 holds 17 x3, 25-36 holds 32
    assert shares.dozens == pytest.approx((200 / 7, 300 / 7, 100 / 7))


def test_a_golpe_nulo_is_not_a_result_and_a_correction_replaces_one():
    board = board_after([opened(), *spins([8, 9]), *voided(3, 5, put_back=9)])
    assert board.last_numbers() == [9, 8]
    assert isinstance(board.announcement, GolpeNulo) and board.announcement.put_back == 9
    board.apply(ev.ResultCorrected(time=at(6), spin=2, previous=9, number=19, reason="misread", by="Marta"))
    assert board.last_numbers() == [19, 8]


def test_the_window_keeps_only_the_last_spins():
    board = board_after([opened(), *spins([1, 2, 3, 4])], window=3)
    assert board.last_numbers() == [4, 3, 2] and board.shares().spins == 3


def test_announcements_come_and_go_with_the_game():
    board = board_after([opened(), *spins([4])])
    board.apply(ev.BallSwapped(time=at(3), ball="B", previous="A", late=False, by="Ana"))
    assert isinstance(board.announcement, BallChange) and board.announcement.ball == "B"
    board.apply(spins([6], first_spin=2, minutes=4)[0])  # launched
    board.apply(spins([6], first_spin=2, minutes=4)[1])  # no more bets
    assert isinstance(board.announcement, NoMoreBets)
    board.apply(spins([6], first_spin=2, minutes=4)[2])  # the result
    assert board.announcement is None


def test_limits_follow_the_minimum_and_the_value_board_the_colours():
    board = board_after([opened()])
    limits = board.limits()
    # PT-A 32: maxima as multiples of the 5 minimum
    assert limits["plein"] == (Decimal(5), Decimal(150)) and limits["simple"] == (Decimal(5), Decimal(2700))
    assert limits["dozen"] == (Decimal(5), Decimal(1800)) and limits["line"] == (Decimal(5), Decimal(900))
    board.apply(ev.ColourAssigned(time=at(1), colour="blue", player="seat 2", chip_value=Decimal(10), chips=20,
                                  by="Ana"))
    board.apply(ev.LimitsChanged(time=at(2), minimum=Decimal(10), previous=Decimal(5), reason="busy", by="Marta"))
    assert board.limits()["plein"] == (Decimal(10), Decimal(300))
    assert board.colour_values() == [("blue", Decimal(10))]
    assert board.posted_values() == [Decimal(10), Decimal(20)]  # the new minimum is one of them
    assert isinstance(board.announcement, NewLimits)
