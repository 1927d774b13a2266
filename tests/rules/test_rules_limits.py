"""Table limits per profile (§6), colour-chip values (§7) and how a breach is handled."""
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.rules.bets import parse_bet
from croupier.rules.limits import (ACCEPTED, ADJUSTED, REFUSED, check_bet, check_player,
                                   colour_value_problem, table_limits)
from croupier.rules.profiles import load_profile

from rules_support import bet_texts

PT_A = load_profile("pt-americana")
PT_B = load_profile("pt-americana-2002")
RU = load_profile("ru-american")
FR = load_profile("mt-fair")
FIVE = Decimal(5)


def player(profile, *texts, chip_value=FIVE, minimum=5):
    bets = [parse_bet(t, profile) for t in texts]
    return check_player(bets, table_limits(profile, minimum), chip_value)


def test_maxima_are_the_ratios_times_the_minimum():
    # PT-A 32 at a minimum of 5: plein 30x, split 60x, ... simple 540x.
    maxima = table_limits(PT_A, 5).maxima
    assert (maxima["plein"], maxima["split"], maxima["corner"], maxima["two-dozens"],
            maxima["simple"]) == (150, 300, 600, 3600, 2700)
    assert table_limits(PT_B, "2.50").maxima["plein"] == Decimal("25.00")  # PT-B 34: 10x


@pytest.mark.parametrize("bad", ["0", "-5", "NaN"])
def test_a_table_minimum_must_be_an_amount_above_zero(bad):
    with pytest.raises(ValueError, match="is not a table minimum"):
        table_limits(PT_A, bad)


def test_pt_a_accepts_the_maximum_and_refuses_one_chip_more():
    ok, over = player(PT_A, "17x30@blue"), player(PT_A, "17x31@blue")
    assert ok[0].status == ACCEPTED and ok[0].played.stake == 30
    assert over[0].status == REFUSED and over[0].played is None
    assert over[0].returned_chips == 31 and "plein maximum is 150" in over[0].message
    assert over[0].rule == "PT-A 32a-b"


def test_ru_plays_to_the_maximum_and_returns_the_excess():
    check = player(RU, "17x40@blue")[0]
    assert check.status == ADJUSTED
    assert (check.played.chips, check.returned_chips) == (30, 10)
    assert "RU 4.8" in check.rule


def test_fr_cuts_to_the_maximum_and_the_excess_wins_nothing():
    check = player(FR, "14/17x70@blue")[0]  # split maximum 60 x 5 = 300: 60 chips
    assert check.status == ADJUSTED and (check.played.chips, check.returned_chips) == (60, 10)
    assert "the excess wins nothing" in check.message


def test_a_players_bets_on_one_position_count_together():
    pt_a = player(PT_A, "17x20@blue", "17x20@blue")
    assert [c.status for c in pt_a] == [ACCEPTED, REFUSED]
    assert "100 of it already the player's" in pt_a[1].message
    ru = player(RU, "17x20@blue", "17x20@blue")
    assert [c.status for c in ru] == [ACCEPTED, ADJUSTED] and ru[1].played.chips == 10


def test_pt_a_neighbours_with_the_players_pleins_stay_within_the_plein_maximum():
    # PT-A 32d: 17 and one neighbour each side covers 34, 17 and 25.
    assert player(PT_A, "17x25@blue", "neighbours:17:1x5@blue")[1].status == ACCEPTED
    assert player(PT_A, "17x25@blue", "neighbours:17:1x6@blue")[1].status == REFUSED
    assert player(PT_A, "3x25@blue", "neighbours:17:1x30@blue")[1].status == ACCEPTED


@pytest.mark.parametrize("text, chip_value, status", [
    ("voisinsx15", 5, ACCEPTED),  # 135 chips: the most PT-A 32c allows
    ("voisinsx16", 5, REFUSED),
    ("voisinsx8", 10, REFUSED),  # 72 chips worth twice the minimum count as 144
    ("tiersx20", 5, ACCEPTED),  # 120
    ("orphelinsx10", 5, ACCEPTED),  # 50
    ("orphelinsx11", 5, REFUSED),
    ("orphelinsx3", Decimal("7.5"), REFUSED),  # 22.5 chips at the minimum: not a multiple of 5
])
def test_pt_a_series_ranges(text, chip_value, status):
    assert player(PT_A, f"{text}@blue", chip_value=Decimal(chip_value))[0].status == status


def test_pt_b_series_and_neighbours_together_at_most_120_minimums():
    checks = player(PT_B, "voisinsx10@blue", "neighbours:0:3x4@blue", "neighbours:0:3x5@blue")
    # 90 + 28 = 118 minimums fit; 35 more would make 125.
    assert [c.status for c in checks] == [ACCEPTED, ACCEPTED, REFUSED]
    assert checks[2].rule == "PT-B 34c"


def test_ru_announced_bets_are_taken_only_up_to_the_maximum():
    # Tiers by 70 puts 70 on each of six splits: the split maximum (60 x 5) takes 60 a unit.
    check = player(RU, "tiersx70@blue")[0]
    assert check.status == ADJUSTED and check.played.chips == 60 and check.returned_chips == 60
    # Orphelins holds the plein 1, whose maximum (30 x 5) binds first.
    check = player(RU, "orphelinsx70@blue")[0]
    assert check.played.chips == 30 and check.returned_chips == 200
    assert "plein maximum is 150 on 1" in check.message and check.rule == "RU 4.8, 4.17"


def test_ru_a_stake_below_the_minimum_is_void_and_returned():
    # RU 4.7: a colour chip may be worth 1; two of them on a plein at a minimum of 5 are void.
    check = player(RU, "17x2@blue", chip_value=Decimal(1))[0]
    assert check.status == REFUSED and check.returned_chips == 2
    assert "below the table minimum 5" in check.message and "RU 4.8" in check.rule
    assert player(RU, "17x5@blue", chip_value=Decimal(1))[0].status == ACCEPTED


def test_fr_colour_chips_go_five_together_on_outside_bets():
    assert player(FR, "redx4@blue")[0].status == REFUSED
    assert player(FR, "redx5@blue")[0].status == ACCEPTED
    assert player(FR, "red@value")[0].status == ACCEPTED  # value chips: no number of pieces


def test_fr_colour_chips_go_five_in_all_on_numbers():
    short = player(FR, "17x2@blue", "14/17x2@blue", "redx5@blue")
    assert [c.status for c in short] == [REFUSED, REFUSED, ACCEPTED]
    assert "this player has 4" in short[0].message
    enough = player(FR, "17@blue", "14/17@blue", "8@blue", "9@blue", "0/3@blue")
    assert all(c.status == ACCEPTED for c in enough)


def test_check_bet_is_one_bet_alone():
    check = check_bet(parse_bet("17x31@blue", RU), table_limits(RU, 5), FIVE)
    assert check.status == ADJUSTED and check.played.chips == 30


@given(st.integers(1, 200))
def test_ru_a_plein_plays_at_most_30_minimums(chips):
    check = player(RU, f"0x{chips}@blue")[0]
    assert check.played.stake == min(chips, 30)
    assert check.played.stake + check.returned_chips == chips


@pytest.mark.parametrize("profile", [PT_A, PT_B, RU, FR], ids=lambda p: p.id)
@given(data=st.data())
def test_what_plays_and_what_goes_back_add_up_to_what_was_placed(profile, data):
    texts = data.draw(st.lists(bet_texts(profile, owners=("blue",)), min_size=1, max_size=6))
    bets = [parse_bet(t, profile) for t in texts]
    for check in check_player(bets, table_limits(profile, 5), FIVE):
        played = check.played.stake if check.played else 0
        assert played + check.returned_chips == check.bet.stake
        assert (check.status == ACCEPTED) == (check.returned_chips == 0)


@pytest.mark.parametrize("profile, value, posted, problem", [
    (PT_B, "10", (), None),
    (PT_B, "12", (), "whole multiple"),  # PT-B 9
    (PT_B, "55", (), "above the plein maximum 50"),
    (PT_A, "5", (), None),
    (PT_A, "7", (), "not a value of this table: the minimum or a posted value, 5 (PT-A 9)"),  # PT-A 9
    (PT_A, "7", (Decimal(7),), None),
    (PT_A, "200", (Decimal(200),), "above the plein maximum 150"),
    (RU, "25", (), None),  # RU 4.7: 1, 2, 5, 10, 25, 100
    (RU, "20", (), "one of 1, 2, 5, 10, 25, 100"),
    (FR, "5", (), None),
    (FR, "10", (), "the minimum or a posted value, 5 ("),
])
def test_colour_chip_values(profile, value, posted, problem):
    found = colour_value_problem(table_limits(profile, 5), Decimal(value), posted)
    assert found == problem if problem is None else problem in found
