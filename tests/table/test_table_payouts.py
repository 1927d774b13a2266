"""Payouts recorded per colour after a result: the chips the croupier counts on the winning positions,
checked against the limits and settled by the rules engine, and the colours marked as having played
(`PT-A 12`). Expected figures are worked out by hand from REGULATIONS.md (§2 payouts, §4 zero, §6
limits, §7 colours)."""
from __future__ import annotations

import pytest

from croupier.table import bets, payouts
from croupier.table.events import Stake
from croupier.table.state import Phase

from table_kit import Table, opened, seat, spin_to


def pay(table: Table, paid: dict, played: tuple[str, ...] = ()) -> list:
    return table.do(payouts.record_payouts, spin=table.state.last_result.spin, paid=paid, played=played, by="Ana")


def chips(*pairs: tuple[str, int]) -> tuple[Stake, ...]:
    return tuple(Stake(bet=bet, chips=n) for bet, n in pairs)


def test_the_winners_counted_per_colour_are_settled_and_recorded(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    seat(table, "blue", value="5")
    spin_to(table, 17)
    recorded, completed = pay(table, {"red": chips(("black", 3), ("17", 2)), "blue": chips(("column2", 1))})
    # 17 is black: 3 chips on black pay 3 (1:1); 2 on plein 17 pay 70 (35:1); 1 on the 2nd column pays 2.
    red, blue = recorded.outcomes
    assert (red.colour, red.staked, red.won, red.returned, red.lost) == ("red", 5, 73, 5, 0)
    assert (blue.colour, blue.staked, blue.won, blue.returned, blue.lost) == ("blue", 1, 2, 1, 0)
    assert recorded.stakes == {"red": chips(("black", 3), ("17", 2)), "blue": chips(("column2", 1))}
    assert recorded.by == "Ana" and completed.kind == "payouts-completed"
    assert table.state.phase is Phase.BETTING
    # 100 chips issued, and 73 paid: the stakes on the winners stay the player's (PT-A 30)
    assert table.state.accounts["red"].held == 173 and table.state.accounts["red"].won == 73


def test_announced_bets_settled_with_the_result_and_the_count_settled_at_the_payouts_add_up(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=chips(("orphelins", 1)))  # 5 chips: 1, 6/9, 14/17, 17/20, 31/34
    spin_to(table, 17)
    assert table.state.accounts["red"].won == 34  # two splits holding 17 pay 17 each; the other 3 chips lose
    pay(table, {"red": chips(("17", 1))})
    assert table.state.accounts["red"].won == 34 + 35
    assert table.state.accounts["red"].lost == 3


@pytest.mark.parametrize("count, message", [
    # PT-A 32: a plein is at most 30 x the 5 minimum = 150; 31 chips of 5 are 155
    (chips(("17", 31)), r"red: 17: the plein maximum is 150 on 17; refused \(PT-A 32"),
    (chips(("14/15", 1)), "red: 14/15 is not paid on 17"),
    (chips(("17", 0)), "red: the chips on 17 are a whole number above 0, not 0"),
])
def test_a_count_the_table_cannot_pay_is_refused_and_nothing_is_recorded(count, message, clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    seat(table, "blue")
    spin_to(table, 17)
    table.refused(payouts.record_payouts, message, spin=1, paid={"blue": chips(("17", 1)), "red": count}, by="Ana")
    assert table.state.phase is Phase.PAYING


def test_the_count_adds_to_a_position_what_the_colour_announced_on_it(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=chips(("complete:17", 1)))  # 1 chip on plein 17, among 40
    spin_to(table, 17)
    # 30 chips on plein 17 are within 150 alone, not with the complete bet's chip there (PT-A 32d)
    table.refused(payouts.record_payouts, "the plein maximum is 150 on 17, 5 of it already the player's",
                  spin=1, paid={"red": chips(("17", 30))}, by="Ana")
    pay(table, {"red": chips(("17", 29))})


def test_ru_4_8_a_count_over_the_maximum_plays_up_to_it_and_the_rest_goes_back(clock):
    table = opened("ru-american", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=chips(("dozen3", 1)))  # RU 4.9: a spin needs a bet
    spin_to(table, 17)
    (recorded, _done) = pay(table, {"red": chips(("17", 40))})
    # the plein maximum is 30 x 5 = 150: 30 chips play and win 30 x 35 = 1050; 10 go back
    assert recorded.stakes == {"red": chips(("17", 30))}
    (red,) = recorded.outcomes
    assert (red.staked, red.won, red.returned) == (30, 1050, 30)
    assert recorded.notes and "10 chips go back" in recorded.notes[0] and "RU 4.8" in recorded.notes[0]


@pytest.mark.parametrize("profile, returned, lost", [("pt-americana-2002", 2, 2), ("ru-american", 2, 2)])
def test_after_zero_half_the_simple_chance_chips_counted_come_back(profile, returned, lost, clock):
    table = opened(profile, clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=chips(("dozen3", 1)))  # RU 4.9: a spin needs a bet
    spin_to(table, 0)
    (recorded, _done) = pay(table, {"red": chips(("even", 4))})
    (red,) = recorded.outcomes
    assert (red.staked, red.won, red.returned, red.lost) == (4, 0, returned, lost)  # PT-B 29, RU 4.11


def test_pt_a_28_simple_chances_are_not_paid_on_zero(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    spin_to(table, 0)
    table.refused(payouts.record_payouts, "red: even is not paid on 0", spin=1, paid={"red": chips(("even", 4))},
                  by="Ana")


@pytest.mark.parametrize("next_number, freed", [(1, True), (2, False)])
def test_mt_fair_an_odd_chip_counted_after_zero_goes_en_prison_for_the_next_spin(next_number, freed, clock):
    table = opened("mt-fair", clock)
    seat(table, "red")
    spin_to(table, 0)
    (recorded, _done) = pay(table, {"red": chips(("red", 5))})
    (red,) = recorded.outcomes
    # five chips halved at once: 2 back, 2 to the bank, the odd one en prison (FR)
    assert (red.staked, red.returned, red.lost, red.imprisoned) == (5, 2, 2, 1)
    assert table.state.prison == {"red": chips(("red", 1))}
    spin_to(table, next_number)  # the prisoner alone is a bet on the layout; 1 is red, 2 is black
    (second,) = table.state.last_result.outcomes
    assert (second.returned, second.lost) == ((1, 0) if freed else (0, 1))
    assert table.state.prison == {}


def test_payouts_for_another_spin_or_colour_are_refused(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    table.refused(payouts.record_payouts, "no payouts under way", spin=1, paid={}, by="Ana")
    spin_to(table, 17)
    table.refused(payouts.record_payouts, "for spin 1, not spin 2", spin=2, paid={}, by="Ana")
    table.refused(payouts.record_payouts, "green is not in play", spin=1, paid={}, played=("green",), by="Ana")
    table.refused(payouts.record_payouts, "'gold' is not one of this table's colours", spin=1,
                  paid={"gold": chips(("17", 1))}, by="Ana")
    table.refused(payouts.record_payouts, "'Zé' is not registered staff", spin=1, paid={}, by="Zé")


def test_pt_a_31_the_winning_bets_counted_at_the_payouts_can_be_rebuilt(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    spin_to(table, 17)
    pay(table, {"red": chips(("black", 3), ("17", 2))})
    (rebuilt,) = table.do(bets.rebuild_winning_bets, by="Ines")
    assert rebuilt.stakes == {"red": chips(("black", 3), ("17", 2))}
