"""Colour chips (§7) and bets per colour settled by the rules engine. Expected figures are worked
out by hand from REGULATIONS.md (payout table §2, zero rules §4, colour values §7)."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from croupier.rules.spin import Direction
from croupier.table import bets, colours, cycle
from croupier.table.events import CashOutReason, Stake
from croupier.table.notices import ExchangeColour, InviteToEnd, notices

from table_kit import PROFILES, Table, opened, seat, spin_to

CW = Direction.CLOCKWISE


def result(table: Table, number: int) -> None:
    """Launch, record `number` from the keypad, pay."""
    spin_to(table, number)
    table.do(cycle.payouts_done)


def outcome(table: Table, colour: str):
    (found,) = [o for o in table.state.recent[-1].outcomes if o.colour == colour]
    return found


# --- colours -----------------------------------------------------------------------------------


@pytest.mark.parametrize("profile, allowed, refused, rule", [
    ("pt-americana", ["5", "7.50"], ["4", "10", "200"], "PT-A 9"),  # the minimum or posted, up to 30 x 5
    ("pt-americana-2002", ["5", "10", "50"], ["7.50", "55"], "PT-B 9"),  # whole multiples, up to 10 x 5
    ("ru-american", ["1", "25", "100"], ["3", "50"], "RU 4.7"),  # one of 1, 2, 5, 10, 25, 100
    ("mt-fair", ["5", "7.50"], ["10"], "FR"),  # the table minimum, unless the table posts another
    ("pt-srij-french", ["5", "150"], ["12", "155"], "SRIJ"),
])
def test_a_colour_takes_only_a_value_the_profile_allows(profile, allowed, refused, rule, clock):
    posted = ("7.50", "200")  # values posted at the table (PT-A 9); 200 is above the plein maximum 150
    for value in refused:
        table = opened(profile, clock, posted_values=posted)
        table.refused(colours.assign_colour, rule, colour="red", player="seat 1", chip_value=value, chips=20, by="Ana")
    for value in allowed:
        table = opened(profile, clock, posted_values=posted)
        (assigned,) = table.do(colours.assign_colour, colour="red", player="seat 1", chip_value=value, chips=20,
                               by="Ana")
        assert assigned.chip_value == Decimal(value)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_taken_colour_is_refused_naming_its_player_and_the_free_ones(profile, clock):
    table = opened(profile, clock)
    seat(table, "red")
    table.refused(colours.assign_colour, r"red is taken by player red \(one player per colour, PT-A 8\); free: green, "
                  "blue", colour="red", player="seat 9", chip_value="5", chips=10, by="Ana")
    table.refused(colours.assign_colour, "'purple' is not one of this table's colours", colour="purple",
                  player="seat 9", chip_value="5", chips=10, by="Ana")
    table.refused(colours.assign_colour, "player red already plays a colour", colour="green", player="player red",
                  chip_value="5", chips=10, by="Ana")


def test_the_waiting_list_is_served_in_order(clock):
    table = opened("pt-americana", clock)
    table.do(colours.join_waiting_list, player="Maria")
    table.do(colours.join_waiting_list, player="João")
    table.refused(colours.assign_colour, "Maria is first on the waiting list", colour="red", player="João",
                  chip_value="5", chips=10, by="Ana")
    table.do(colours.assign_colour, colour="red", player="Maria", chip_value="5", chips=10, by="Ana")
    assert table.state.waiting == ("João",)
    table.do(colours.leave_waiting_list, player="João")
    assert table.state.waiting == ()


@pytest.mark.parametrize("profile", ["pt-americana"])
def test_pt_a_12_no_bet_for_three_spins_while_someone_waits_loses_the_colour(profile, clock):
    table = opened(profile, clock)
    seat(table, "red")
    seat(table, "green")
    seat(table, "blue")
    table.do(colours.join_waiting_list, player="Maria")  # no colour is free
    for number in (4, 5):
        table.do(bets.place_bets, colour="green", stakes=(Stake(bet="red", chips=1),))
        table.do(bets.place_bets, colour="blue", stakes=(Stake(bet="red", chips=1),))
        result(table, number)
    assert not [n for n in notices(table.state, clock.now()) if isinstance(n, ExchangeColour)]
    table.refused(colours.cash_out, r"inactivity rule does not apply \(PT-A 12\)", colour="red", chips=100,
                  by="Ana", reason=CashOutReason.INACTIVE)
    result(table, 6)
    (notice,) = [n for n in notices(table.state, clock.now()) if isinstance(n, ExchangeColour)]
    assert (notice.colour, notice.player, notice.spins, notice.rule) == ("red", "player red", 3, "PT-A 12")
    table.do(colours.cash_out, colour="red", chips=100, by="Ana", reason=CashOutReason.INACTIVE)
    table.do(colours.assign_colour, colour="red", player="Maria", chip_value="5", chips=10, by="Ana")


def test_pt_a_12_does_not_apply_while_a_colour_is_free(clock):
    """A player on the waiting list while a colour is free takes that colour: nobody waits because
    of the idle colour, so it keeps its chips."""
    table = opened("pt-americana", clock)
    seat(table, "red")
    seat(table, "green")
    table.do(colours.join_waiting_list, player="Maria")  # blue is free
    for number in (4, 5, 6, 7):
        result(table, number)
    assert table.state.accounts["red"].idle_spins == 4
    assert not [n for n in notices(table.state, clock.now()) if isinstance(n, ExchangeColour)]
    table.refused(colours.cash_out, r"inactivity rule does not apply \(PT-A 12\)", colour="red", chips=100,
                  by="Ana", reason=CashOutReason.INACTIVE)


@pytest.mark.parametrize("moment", ["no-more-bets", "paying"])
def test_a_colour_given_after_no_more_bets_does_not_sit_that_spin_out(moment, clock):
    """PT-A 12 counts the spins a colour could have played: not the one closed before it came."""
    table = opened("pt-americana", clock)
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=CW)
    table.do(cycle.close_bets)
    if moment == "paying":
        table.do(cycle.enter_result, number=7, by="Ana")
        table.do(cycle.confirm_result, by="Ana")
    seat(table, "red")
    if moment == "no-more-bets":
        table.do(cycle.enter_result, number=7, by="Ana")
        table.do(cycle.confirm_result, by="Ana")
    table.do(cycle.payouts_done)
    assert table.state.accounts["red"].idle_spins == 0
    result(table, 8)  # the first spin red could play, and did not
    assert table.state.accounts["red"].idle_spins == 1


def test_pt_a_22_bets_stand_after_a_golpe_nulo(clock):
    """No bet taken back, none added, until the ball is launched again; the board shows no
    "bets open" while the void is in force."""
    from croupier.board.model import board_for

    table = opened("pt-americana", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=1),))
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=CW)
    table.do(cycle.void_spin, reason="chip-fell", by="Ana")
    table.refused(bets.withdraw_bets, r"bets stand after a golpe nulo \(PT-A 22\)", colour="red")
    table.refused(bets.place_bets, r"bets stand after a golpe nulo \(PT-A 22\)", colour="red",
                  stakes=(Stake(bet="5", chips=1),))
    lamps = board_for(table.state).lamps
    assert "bets_open" not in lamps and "void" in lamps
    table.do(cycle.launch, direction=CW.opposite())
    assert table.state.bets["red"] == (Stake(bet="17", chips=1),)


def test_pt_a_12_does_not_apply_when_nobody_waits(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    for number in (4, 5, 6, 7):
        result(table, number)
    assert table.state.accounts["red"].idle_spins == 4
    assert not [n for n in notices(table.state, clock.now()) if isinstance(n, ExchangeColour)]


def test_srij_31_a_player_idle_for_more_than_five_spins_is_invited_to_end(clock):
    table = opened("pt-srij-french", clock)
    seat(table, "red")
    for number in range(1, 6):
        result(table, number)
    assert not [n for n in notices(table.state, clock.now()) if isinstance(n, InviteToEnd)]
    result(table, 6)
    (notice,) = [n for n in notices(table.state, clock.now()) if isinstance(n, InviteToEnd)]
    assert notice.spins == 6 and notice.rule.startswith("SRIJ 31")


def test_cash_out_counts_chips_and_money_and_frees_the_colour(clock):
    table = opened("pt-americana", clock, posted_values=("7.50",))
    seat(table, "red", chips=100, value="7.50")
    table.do(colours.issue_chips, colour="red", chips=20, by="Ana")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=1),))
    result(table, 17)
    # 120 issued, 1 staked and handed back with 35 won: 155 chips at 7.50 (PT-A 27a: a plein pays 35)
    (cashed,) = table.do(colours.cash_out, colour="red", chips=155, by="Ana")
    assert (cashed.expected_chips, cashed.chips, cashed.amount) == (155, 155, Decimal("1162.50"))
    assert "red" in table.state.free_colours()
    table.refused(colours.cash_out, "red is not in play", colour="red", chips=1, by="Ana")


def test_chips_presented_late_are_worth_the_table_minimum(clock):
    table = opened("pt-americana", clock, posted_values=("25",))
    seat(table, "red", value="25")
    table.do(colours.cash_out, colour="red", chips=90, by="Ana")
    (late,) = table.do(colours.exchange_late_chips, colour="red", chips=10, by="Ana")
    assert (late.chip_value, late.amount) == (Decimal("5"), Decimal("50"))  # PT-A 15: 10 x the minimum 5
    table.refused(colours.exchange_late_chips, r"not valid here \(PT-A 7\)", colour="gold", chips=1, by="Ana")


def test_a_colour_with_bets_on_the_layout_does_not_cash_out(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=1),))
    table.refused(colours.cash_out, "red has bets on the layout", colour="red", chips=99, by="Ana")


# --- bets and settlement -----------------------------------------------------------------------


def test_bets_are_settled_per_colour(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    seat(table, "blue")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=2), Stake(bet="14/17", chips=1)))
    table.do(bets.place_bets, colour="blue", stakes=(Stake(bet="red", chips=3), Stake(bet="dozen2", chips=1)))
    result(table, 17)
    red, blue = outcome(table, "red"), outcome(table, "blue")
    # red: plein 2 x 35 = 70, split 1 x 17 = 17; stakes back. blue: 17 is black (loses 3), dozen2 pays 2.
    assert (red.staked, red.won, red.returned, red.lost) == (3, 87, 3, 0)
    assert (blue.staked, blue.won, blue.returned, blue.lost) == (4, 2, 1, 3)
    account = table.state.accounts["blue"]
    assert (account.staked, account.won, account.lost, account.held) == (4, 2, 3, 99)


@pytest.mark.parametrize("profile, returned, lost", [("pt-americana", 0, 4), ("pt-americana-2002", 2, 2),
                                                     ("ru-american", 2, 2)])
def test_zero_on_a_simple_chance_loses_all_or_half_by_profile(profile, returned, lost, clock):
    table = opened(profile, clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="even", chips=4),))
    result(table, 0)
    found = outcome(table, "red")
    assert (found.returned, found.lost, found.imprisoned) == (returned, lost, 0)  # PT-A 28, PT-B 29, RU 4.11


@pytest.mark.parametrize("next_number, freed", [(1, True), (2, False)])
def test_mt_fair_an_odd_chip_goes_en_prison_and_is_freed_or_taken_next_spin(next_number, freed, clock):
    table = opened("mt-fair", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))
    result(table, 0)
    first = outcome(table, "red")
    # five chips halved at once: 2 back, 2 to the bank, the odd one en prison
    assert (first.staked, first.returned, first.lost, first.imprisoned) == (5, 2, 2, 1)
    assert table.state.prison == {"red": (Stake(bet="red", chips=1),)}
    result(table, next_number)  # 1 is red, 2 is black
    second = outcome(table, "red")
    assert (second.staked, second.returned, second.lost, second.won) == (0, 1 if freed else 0, 0 if freed else 1, 0)
    assert table.state.prison == {}
    assert table.state.accounts["red"].held == (98 if freed else 97)


@pytest.mark.parametrize("profile, spec, rule", [("mt-fair", "dozen1+2", "FR"), ("pt-americana", "nassa", "PT-A 25a")])
def test_a_bet_the_profile_does_not_offer_is_refused(profile, spec, rule, clock):
    table = opened(profile, clock)
    seat(table, "red")
    table.refused(bets.place_bets, f"{profile} does not offer .*{rule}", colour="red",
                  stakes=(Stake(bet=spec, chips=1),))


def test_bad_bets_are_refused_with_the_reason(clock):
    table = opened("pt-americana", clock)
    seat(table, "red", chips=10)
    table.refused(bets.place_bets, "1/5 is not a split", colour="red", stakes=(Stake(bet="1/5", chips=1),))
    table.refused(bets.place_bets, "green is not in play", colour="green", stakes=(Stake(bet="5", chips=1),))
    table.refused(bets.place_bets, "red holds 10 chips, not the 12", colour="red",
                  stakes=(Stake(bet="5", chips=3), Stake(bet="voisins", chips=1)))


def test_pt_a_31_disturbed_winning_bets_are_rebuilt_from_the_record(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    seat(table, "blue")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="orphelins", chips=2), Stake(bet="17", chips=1)))
    table.do(bets.place_bets, colour="blue", stakes=(Stake(bet="black", chips=1), Stake(bet="0", chips=1)))
    result(table, 17)
    (rebuilt,) = table.do(bets.rebuild_winning_bets, by="Ana")
    # orphelins: plein 1 and splits 6/9, 14/17, 17/20, 31/34; 17 sits in two of its splits
    assert rebuilt.spin == 1
    assert sorted(rebuilt.stakes["red"], key=lambda s: s.bet) == [
        Stake(bet="14/17", chips=2), Stake(bet="17", chips=1), Stake(bet="17/20", chips=2)]
    assert rebuilt.stakes["blue"] == (Stake(bet="black", chips=1),)


def test_bets_can_be_taken_back_after_a_void(clock):
    table = opened("pt-srij-french", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=1),))
    clock.advance(seconds=30)
    table.do(cycle.launch, direction=CW)
    table.refused(bets.withdraw_bets, "bets closed when the ball was launched", colour="red")
    table.do(cycle.void_spin, reason="too-few-revolutions")
    table.do(bets.withdraw_bets, colour="red")  # SRIJ 24: keep, take back or change
    assert table.state.bets == {} and table.state.accounts["red"].held == 100


def test_a_sensor_only_table_records_no_bets(clock):
    table = opened("pt-americana", clock, sensor_only=True, colours=("red",))
    table.refused(bets.place_bets, "wheel sensor alone", colour="red", stakes=(Stake(bet="5", chips=1),))


def test_statement_per_colour_srij_29(clock):
    table = opened("pt-srij-french", clock)
    seat(table, "red", value="10")
    for number, stake in ((17, Stake(bet="17", chips=1)), (3, Stake(bet="dozen1+2", chips=2))):
        table.do(bets.place_bets, colour="red", stakes=(stake,))
        result(table, number)
    account = table.state.accounts["red"]
    # spin 1: plein wins 35; spin 2: two dozens on 3 pays half, 2 chips -> 1 (SRIJ: cavalo de dúzia, 1/2)
    assert (account.staked, account.won, account.lost) == (3, 36, 0)
    assert account.won - account.lost == Fraction(36)


def test_pt_a_a_stake_above_the_maximum_is_refused(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=20),))
    # PT-A 32: a plein takes at most 30 x the minimum 5 = 150, i.e. 30 chips of 5, counting the 20 there
    table.refused(bets.place_bets, r"plein maximum is 150 on 17.*refused \(PT-A 32", colour="red",
                  stakes=(Stake(bet="17", chips=11),))
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=10),))


def test_ru_a_stake_above_the_maximum_plays_to_it_and_the_excess_goes_back(clock):
    table = opened("ru-american", clock)
    seat(table, "red")
    (placed,) = table.do(bets.place_bets, colour="red", stakes=(Stake(bet="17", chips=40),))
    assert placed.stakes == (Stake(bet="17", chips=30),)  # RU 4.8: up to the maximum 150
    (note,) = placed.notes
    assert "10 chips go back" in note and "RU 4.8" in note


def test_ru_a_stake_below_the_minimum_is_refused(clock):
    table = opened("ru-american", clock)
    seat(table, "red", value="1")
    table.refused(bets.place_bets, r"below the table minimum 5; refused \(RU 4.8", colour="red",
                  stakes=(Stake(bet="17", chips=2),))


def test_fr_colour_chips_go_at_least_five_together_on_a_simple_chance(clock):
    table = opened("mt-fair", clock)
    seat(table, "red")
    table.refused(bets.place_bets, "at least 5 colour chips go together on a simple chance", colour="red",
                  stakes=(Stake(bet="red", chips=4),))
    table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=5),))
