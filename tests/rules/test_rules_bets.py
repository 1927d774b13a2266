"""Parsing bets from the `croupier payout` grammar, and refusing what a profile does not offer."""
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.rules.bets import BetError, make_bet, offered_specs, parse_bet
from croupier.rules.profiles import load_profile, load_profile_file

from rules_support import shipped_text

PT_A = load_profile("pt-americana")
FR = load_profile("mt-fair")
PT_B = load_profile("pt-americana-2002")


def test_spec_chips_and_owner():
    bet = parse_bet("orphelinsx5@blue", PT_A)
    assert (bet.spec, bet.category, bet.chips, bet.owner, bet.stake) == ("orphelins", "series", 5,
                                                                         "blue", 25)
    assert parse_bet("17/14", PT_A).chips == 1 and parse_bet("17/14", PT_A).owner is None


def test_units_multiply_the_recipe_by_the_chips():
    units = {p.name: chips for p, chips in parse_bet("voisinsx3", PT_A).units}
    assert units["0/2/3"] == 6 and units["4/7"] == 3 and sum(units.values()) == 27


@pytest.mark.parametrize("text, category", [
    ("17", "pleins"), ("0/3", "splits"), ("0/1/2", "streets"), ("0/1/2/3", "corners"),
    ("31/32/33/34/35/36", "lines"), ("dozen3", "dozens"), ("dozen2+3", "dozens"),
    ("column1", "columns"), ("column1+2", "columns"), ("high", "simple"), ("tiers", "series"),
    ("neighbours:5:3", "neighbours"), ("complete:36", "complete"),
])
def test_each_bet_has_its_payout_category(text, category):
    assert parse_bet(text, PT_A).category == category


@given(st.sampled_from(offered_specs(FR)), st.integers(1, 99))
def test_every_offered_spec_parses_back_to_itself(spec, chips):
    bet = parse_bet(f"{spec}x{chips}@green", FR)
    assert (bet.spec, bet.chips, bet.owner) == (spec, chips, "green")


@pytest.mark.parametrize("text, profile, message", [
    ("1/5x2@blue", PT_A, "1/5x2@blue: 1/5 is not a split"),
    ("nassa", PT_A, "nassa: pt-americana does not offer nassa bets"),
    ("zero-spiel", PT_A, "does not offer zero-spiel"),
    ("dozen1+2", FR, "dozen1+2: mt-fair does not offer two-dozens bets"),
    ("neighbours:17:3", FR, "mt-fair takes 2 neighbours each side, not 3"),
    ("neighbours:17", PT_A, "write it as neighbours:N:K"),
    ("finale:7", PT_A, "does not offer finale-en-plein"),
    ("finale:3/4", FR, "3/4 is not a finale à cheval"),
    ("17x0", PT_A, "x0 is not a number of chips"),
    ("17x1.5", PT_A, "x1.5 is not a number of chips"),
    ("17x", PT_A, "x is not a number of chips"),
    ("x3", PT_A, "no bet before x3"),
    ("17@", PT_A, "nothing after @"),
    ("17@blue green", PT_A, "'blue green' is not a colour name"),
    ("17@value", PT_A, "value chips may not be played on pleins under pt-americana (PT-A 16)"),
    ("dozen1@value", PT_B, "value chips may not be played on dozens under pt-americana-2002"),
    ("complete:37", PT_A, "37 is not a number on the wheel"),
    ("17@value-marked", FR, "mt-fair has no value-marked chips"),
    ("17x10@value-marked", PT_B, "pt-americana-2002 has no value-marked chips"),
])
def test_refusals_name_the_argument_and_the_reason(text, profile, message):
    with pytest.raises(BetError, match=re.escape(message)) as error:
        parse_bet(text, profile)
    assert str(error.value).startswith(f"{text}: ")


def test_value_chips_where_the_profile_allows_them():
    assert parse_bet("dozen1+2@value", PT_A).value_chips
    assert parse_bet("17@value", FR).value_chips


def test_value_marked_chips_go_on_any_bet_as_value_chips():
    bet = parse_bet("14/17x10@value-marked", PT_A)  # a split: no place for plain value chips (PT-A 16)
    assert bet.value_chips and (bet.chips, bet.category, bet.text) == (10, "splits", "14/17x10@value-marked")


def test_an_american_wheel_refuses_neighbours_for_want_of_the_french_ring(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(shipped_text("pt-americana").replace('"french"', '"american"'))
    with pytest.raises(BetError, match="needs the French numbering and this wheel is american"):
        parse_bet("neighbours:17:1", load_profile_file(path))


def test_make_bet_refuses_chips_that_are_not_whole():
    with pytest.raises(BetError, match="chips must be a whole number above 0"):
        make_bet("17", 0, "blue", PT_A)


def test_with_chips_keeps_everything_else():
    bet = parse_bet("tiersx4@pink", PT_A).with_chips(2)
    assert (bet.spec, bet.stake, bet.owner, bet.text) == ("tiers", 12, "pink", "tiersx4@pink")


def test_offered_specs_count_what_each_profile_offers():
    # FR: 145 inside and 12 outside positions (no two-way bets), 5 series, 37 numbers with 2
    # neighbours, 37 complete bets, 10 finales en plein and 17 à cheval.
    assert len(offered_specs(FR)) == 145 + 12 + 5 + 37 + 37 + 10 + 17
    # PT-A: 145 + 16 positions, 3 series, 37 x 3 neighbour bets, 37 complete bets.
    assert len(offered_specs(PT_A)) == 145 + 16 + 3 + 111 + 37
    assert len(offered_specs(PT_A, outside=False)) == 145 + 3 + 111 + 37
