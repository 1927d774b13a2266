"""The kinds of chip the regulations name besides a table's own colour chips (REGULATIONS.md §7):
a table of value chips only (`PT-B 15b`), value-marked chips that go on any bet (`PT-A 16`), and
colour chips of another table played here by mistake (`FR`). The configuration accepts each only
under a profile whose text allows it, naming the key otherwise; the core records them, and the
shift's figures count what the table paid for another table's chips. Expected figures are worked
out by hand from §2 (payouts) and §6 (limits)."""
from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path

import pytest

from croupier.config import ConfigError, default_config, load_config
from croupier.history.shift_results import foreign_chips_paid, shift_result_table, shift_results
from croupier.table import colours, payouts
from croupier.table import refusal as no
from croupier.table.cycle import open_table
from croupier.table.events import PayoutsRecorded, Stake, to_record

from table_kit import BALLS, Table, opened, seat, spin_to, staffed

OTHER_PROFILES = ("pt-americana", "pt-srij-french", "ru-american", "mt-fair")


def configured(tmp_path: Path, text: str):
    path = tmp_path / "croupier.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def config_error(tmp_path: Path, text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        configured(tmp_path, text)
    return caught.value


def pay(table: Table, paid: dict) -> list:
    return table.do(payouts.record_payouts, spin=table.state.last_result.spin, paid=paid, by="Ana")


# --- the configuration ------------------------------------------------------------------------


def test_the_defaults_have_colour_chips_and_no_value_marked_chips():
    table = default_config(environ={}).table
    assert table.value_only is False and table.marked_values == ()


def test_value_only_is_accepted_under_the_profile_that_names_it(tmp_path):
    config = configured(tmp_path, '[table]\nprofile = "pt-americana-2002"\nvalue_only = true\n')
    assert config.table.value_only is True


@pytest.mark.parametrize("profile", OTHER_PROFILES)
def test_value_only_is_refused_under_a_profile_that_does_not_name_it(tmp_path, profile):
    error = config_error(tmp_path, f'[table]\nprofile = "{profile}"\nvalue_only = true\n')
    assert error.key == "table.value_only" and f"{profile} has no tables of value chips only" in error.problem


@pytest.mark.parametrize("profile", OTHER_PROFILES)
def test_value_only_false_is_accepted_under_any_profile(tmp_path, profile):
    assert configured(tmp_path, f'[table]\nprofile = "{profile}"\nvalue_only = false\n').table.value_only is False


def test_marked_values_are_accepted_under_pt_a_as_money(tmp_path):
    config = configured(tmp_path, '[table]\nprofile = "pt-americana"\nmarked_values = [5, 25, 2.50]\n')
    assert config.table.marked_values == (Decimal(5), Decimal(25), Decimal("2.50"))


@pytest.mark.parametrize("profile", ("pt-americana-2002", "pt-srij-french", "ru-american", "mt-fair"))
def test_marked_values_are_refused_under_a_profile_that_does_not_allow_them(tmp_path, profile):
    error = config_error(tmp_path, f'[table]\nprofile = "{profile}"\nmarked_values = [25]\n')
    assert error.key == "table.marked_values" and f"{profile} has no value-marked chips" in error.problem


@pytest.mark.parametrize("values, key, words", [
    ("[5, 0]", "table.marked_values[1]", "above zero"),
    ("[5, 5]", "table.marked_values[1]", "listed twice"),
    ('["five"]', "table.marked_values[0]", "expected an amount"),
    ("[2.555]", "table.marked_values[0]", "at most 2 decimal places"),
])
def test_a_wrong_marked_value_is_refused_naming_its_entry(tmp_path, values, key, words):
    error = config_error(tmp_path, f'[table]\nprofile = "pt-americana"\nmarked_values = {values}\n')
    assert error.key == key and words in error.problem


def test_a_table_opened_under_a_profile_that_does_not_allow_the_kind_of_chip_is_refused(clock):
    table = staffed(clock)
    arguments = dict(minimum=Decimal(5), colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    refusal = table.refused(open_table, "pt-americana has no tables of value chips only", profile="pt-americana",
                            value_only=True, **arguments)
    assert isinstance(refusal, no.ValueOnlyNotAllowed)
    refusal = table.refused(open_table, "mt-fair has no value-marked chips", profile="mt-fair",
                            marked_values=(Decimal(25),), **arguments)
    assert isinstance(refusal, no.MarkedChipsNotAllowed)


# --- a table of value chips only (PT-B 15b) ----------------------------------------------------


def test_a_value_only_table_has_no_colours_to_give(clock):
    table = opened("pt-americana-2002", clock, value_only=True)
    assert table.state.value_only
    refusal = table.refused(colours.assign_colour, "uses value chips only", colour="red", player="seat 1",
                            chip_value=Decimal(5), chips=10, by="Ana")
    assert isinstance(refusal, no.ValueOnlyTable) and refusal.rule == "PT-B 15b"
    with pytest.raises(colours.Refused):
        colours.check_colour_chips(table.state)


def test_the_value_only_payout_sheet_pays_the_amounts_in_money_on_any_bet(clock):
    """Minimum 5 under PT-B: plein maximum 10 x 5 = 50, simple chance 180 x 5 = 900. 17 is black.
    20.00 on plein 17 pays 35 x 20 = 700.00; 50.00 on black pays 50.00; the table pays 750.00."""
    table = opened("pt-americana-2002", clock, value_only=True)
    spin_to(table, 17)
    recorded, _completed = pay(table, {"value": (Stake(bet="17", chips=20), Stake(bet="black", chips=50))})
    (outcome,) = recorded.outcomes
    assert (outcome.colour, outcome.staked, outcome.won, outcome.returned, outcome.lost) == ("value", 70, 750, 70, 0)
    assert recorded.played == ()  # value chips are no colour: the PT-A 12 count is about colours


def test_the_value_only_table_keeps_the_limits_in_money(clock):
    """60.00 on a plein is above its maximum, 10 x 5 = 50.00 (PT-B 34); PT-B refuses it."""
    table = opened("pt-americana-2002", clock, value_only=True)
    spin_to(table, 17)
    refusal = table.refused(payouts.record_payouts, "plein maximum is 50", spin=1,
                            paid={"value": (Stake(bet="17", chips=60),)}, by="Ana")
    assert isinstance(refusal, no.ColoursRefused)


def test_value_chips_on_a_plein_are_refused_at_a_pt_b_table_with_colours(clock):
    table = opened("pt-americana-2002", clock)
    spin_to(table, 17)
    table.refused(payouts.record_payouts, r"value chips may not be played on pleins under pt-americana-2002 "
                  r"\(PT-B 15a\)", spin=1, paid={"value": (Stake(bet="17", chips=10),)}, by="Ana")


# --- value-marked chips (PT-A 16) ---------------------------------------------------------------


def test_a_value_marked_chip_on_a_plein_is_paid_and_an_unmarked_one_refused(clock):
    """Minimum 5: 10.00 in marked chips on plein 17 pays 35 x 10 = 350.00. Unmarked value chips go on
    simple chances, dozens, columns and their two-way bets only (PT-A 16): on plein 17 they are refused,
    and 20.00 on black (17 is black) pays 20.00."""
    table = opened("pt-americana", clock, marked_values=(Decimal(5), Decimal(25)))
    spin_to(table, 17)
    table.refused(payouts.record_payouts, r"value chips may not be played on pleins under pt-americana \(PT-A 16\)",
                  spin=1, paid={"value": (Stake(bet="17", chips=10),)}, by="Ana")
    recorded, _completed = pay(table, {"value": (Stake(bet="17", chips=10, marked=True),
                                                 Stake(bet="black", chips=20))})
    (outcome,) = recorded.outcomes
    assert (outcome.won, outcome.staked, outcome.lost) == (370, 30, 0)
    assert recorded.stakes["value"] == (Stake(bet="17", chips=10, marked=True), Stake(bet="black", chips=20))


def test_marked_chips_need_a_table_that_offers_them(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    spin_to(table, 17)
    refusal = table.refused(payouts.record_payouts, "offers no value-marked chips", spin=1,
                            paid={"value": (Stake(bet="17", chips=10, marked=True),)}, by="Ana")
    assert isinstance(refusal, no.ColoursRefused)
    (colour, inner), = refusal.refusals
    assert colour == "value" and isinstance(inner, no.MarkedChipsNotOffered)


def test_a_stake_recorded_before_marked_chips_existed_reads_and_hashes_as_before():
    recorded = PayoutsRecorded(time=datetime(2025, 1, 1, tzinfo=timezone.utc), spin=1, number=17,
                               stakes={"red": (Stake(bet="17", chips=1),)}, outcomes=(), by="Ana")
    assert to_record(recorded)["stakes"] == {"red": [{"bet": "17", "chips": 1}]}


# --- another table's colour chips (FR) ----------------------------------------------------------


def foreign(at: Table, **arguments):
    (settled,) = at.do(colours.settle_foreign_chips, by="Ana", **arguments)
    return settled


def test_foreign_chips_that_win_are_paid_at_their_real_value(clock):
    table = opened("mt-fair", clock)
    spin_to(table, 17)
    # A plein of the other table's green chips, each really worth 2.00: the win pays 35 chips = 70.00.
    settled = foreign(table, colour="green", table="7", chips=35, won=True, chip_value=Decimal(2))
    assert settled.kind == "foreign-chips-settled"
    assert (settled.colour, settled.table, settled.chips, settled.chip_value, settled.table_minimum) == \
        ("green", "7", 35, Decimal(2), None)
    assert (settled.won, settled.amount, settled.spin, settled.by) == (True, Decimal(70), 1, "Ana")


def test_foreign_chips_of_unknown_value_are_paid_at_their_own_tables_minimum(clock):
    table = opened("mt-fair", clock)
    spin_to(table, 17)
    # Their value cannot be told; their table opens at 10.00: 35 chips x 10.00 = 350.00.
    settled = foreign(table, colour="green", table="7", chips=35, won=True, table_minimum=Decimal(10))
    assert (settled.chip_value, settled.table_minimum, settled.amount) == (None, Decimal(10), Decimal(350))


def test_foreign_chips_that_lose_are_taken_and_nothing_is_paid(clock):
    table = opened("mt-fair", clock)
    spin_to(table, 17)
    settled = foreign(table, colour="pink", table="3", chips=5, won=False)
    assert (settled.won, settled.chips, settled.amount) == (False, 5, Decimal(0))


def test_foreign_chips_that_win_need_a_value_to_be_paid_at(clock):
    table = opened("mt-fair", clock)
    refusal = table.refused(colours.settle_foreign_chips, "real value, or else at the minimum of their own table",
                            colour="green", table="7", chips=35, won=True, by="Ana")
    assert isinstance(refusal, no.ForeignChipsValue)


@pytest.mark.parametrize("profile", ("pt-americana", "pt-americana-2002", "pt-srij-french", "ru-american"))
def test_only_fr_settles_another_tables_colour_chips(clock, profile):
    table = opened(profile, clock)
    refusal = table.refused(colours.settle_foreign_chips, "colour chips of another table are not settled here",
                            colour="green", table="7", chips=3, won=True, chip_value=Decimal(2), by="Ana")
    assert isinstance(refusal, no.ForeignChipsNotSettled)


def test_the_shift_result_counts_what_the_table_paid_for_foreign_chips(clock):
    """mt-fair, minimum 5: red buys 100 chips at 5 = 500.00 and cashes out 100 = 500.00. Foreign chips:
    70.00 paid (35 x 2.00), 350.00 paid (35 x the other table's 10.00), 5 taken (0.00).
    Table: 500.00 - 500.00 - 0 late - 420.00 foreign = lost 420.00."""
    table = opened("mt-fair", clock)
    seat(table, "red", chips=100, value="5")
    spin_to(table, 17)
    table.do(payouts.record_payouts, spin=1, paid={}, by="Ana")
    foreign(table, colour="green", table="7", chips=35, won=True, chip_value=Decimal(2))
    foreign(table, colour="green", table="7", chips=35, won=True, table_minimum=Decimal(10))
    foreign(table, colour="pink", table="3", chips=5, won=False)
    table.do(colours.cash_out, colour="red", chips=100, by="Ana")
    results = shift_results(list(enumerate(table.events)))
    (shift,) = results
    assert [f["amount"] for f in shift.foreign] == ["70", "350", "0"]
    assert shift.foreign_money == Decimal(420)
    assert shift.table_result_money == Decimal(-420)
    settled, paid = foreign_chips_paid(results)
    assert len(settled) == 3 and paid == Decimal(420)
    # The review's colours tab and the PDF show the same, a row per settlement and the table's line.
    rows = shift_result_table(results, clock=lambda moment: "21:00").rows
    assert [row[1:] for row in rows if row[1].startswith("foreign")] == [
        ("foreign green (7)", "", "", "", "", "paid 35 x 2.00 = 70.00"),
        ("foreign green (7)", "", "", "", "", "paid 35 x 10.00 (their table's minimum) = 350.00"),
        ("foreign pink (3)", "", "", "", "", "lost: 5 taken")]
    (table_row,) = [row for row in rows if row[1] == "table"]
    assert table_row[-1] == "lost 420.00; foreign chips paid 420.00"


def test_this_tables_own_chips_are_not_settled_as_another_tables(clock):
    # The chips named as another table's are this table's own (its [table] id, in any case): refused.
    table = opened("mt-fair", clock, table_id="T7")
    spin_to(table, 17)
    refusal = table.refused(colours.settle_foreign_chips, "t7 is this table: the chips are not another table's",
                            colour="green", table="t7", chips=35, won=True, chip_value=Decimal(2), by="Ana")
    assert refusal.facts == {"table": "t7"}
    assert foreign(table, colour="green", table="T8", chips=35, won=True, chip_value=Decimal(2)).amount == 70
