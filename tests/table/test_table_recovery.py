"""A paid spin corrected: per colour, what the players were handed on the number replaced and are not
given by the corrected one - payouts and the stakes they kept on bets that now lose - less what a
bet recorded before the spin now wins (owed to its player)."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from croupier.rules.spin import Direction
from croupier.table import bets, cycle, payouts
from croupier.table.events import Stake
from croupier.table.state import decode_state, encode_state

from table_kit import PINS, opened, seat


def paid_then_corrected(clock):
    """Red, green and blue 5 a chip; 17 paid, corrected to 20."""
    table = opened("pt-americana", clock)
    for colour in ("red", "green", "blue"):
        seat(table, colour)
    table.do(bets.place_bets, colour="blue", stakes=(Stake(bet="20", chips=1),))  # loses on 17, wins on 20
    table.clock.advance(seconds=30)
    table.do(cycle.launch, direction=Direction.CLOCKWISE)
    table.do(cycle.enter_result, number=17)
    table.do(cycle.confirm_result)
    table.do(payouts.record_payouts, spin=1, paid={
        "red": (Stake(bet="17", chips=2), Stake(bet="17/20", chips=3)),  # the split wins on both
        "green": (Stake(bet="odd", chips=6), Stake(bet="dozen2", chips=4))})
    (correction,) = table.do(cycle.correct_result, spin=1, number=20, reason="misread", by="Boss", pin=PINS["Boss"])
    return table, correction


def test_the_correction_names_per_colour_payouts_and_stakes_kept_to_recover_and_what_is_owed(clock):
    table, correction = paid_then_corrected(clock)
    figures = {r.colour: (r.won, r.kept, r.chips, r.money) for r in correction.recover}
    assert figures == {
        "red": (70, 2, 72, Decimal(360)),  # plein 17 x2: 70 paid and the 2 kept, the 10 kept were left out
        "green": (6, 6, 12, Decimal(60)),  # odd x6 loses on 20; the dozen wins on both
        "blue": (-35, -1, -36, Decimal(-180)),  # plein 20 x1 was swept on 17: owed its payout and stake
    }
    assert [r.colour for r in correction.recover] == ["blue", "red", "green"]  # bets first, then the sheet
    assert table.state.recent[-1].recover == correction.recover
    assert decode_state(encode_state(table.state)).recent[-1].recover == correction.recover


def test_a_second_correction_counts_from_the_number_it_replaces(clock):
    table, _ = paid_then_corrected(clock)
    (back,) = table.do(cycle.correct_result, spin=1, number=17, reason="video", by="Boss", pin=PINS["Boss"])
    assert {r.colour: r.chips for r in back.recover} == {"red": -72, "green": -12, "blue": 36}
    assert table.state.recent[-1].recover == ()  # back on the number paid: nothing to recover


def test_a_correction_before_the_payouts_has_nothing_to_recover_from_the_sheet(clock):
    table = opened("pt-americana", clock)
    seat(table)
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))
    table.clock.advance(seconds=30)
    table.do(cycle.launch, direction=Direction.CLOCKWISE)
    table.do(cycle.enter_result, number=1)  # red
    table.do(cycle.confirm_result)
    (correction,) = table.do(cycle.correct_result, spin=1, number=2, reason="misread", by="Boss", pin=PINS["Boss"])
    (red,) = correction.recover
    assert (red.won, red.kept, red.money) == (Fraction(5), Fraction(5), Decimal(50))
