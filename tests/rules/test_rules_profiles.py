"""The five regulation profiles as data, and clear errors for a malformed profile file."""
import re

import pytest

from croupier.rules.profiles import (DEFAULT_PROFILE, ProfileError, profile_ids,
                                     load_profile, load_profile_file)

from rules_support import shipped_text


@pytest.mark.parametrize("profile_id", profile_ids())
def test_every_shipped_profile_loads_and_cites_a_rule_for_every_topic(profile_id):
    profile = load_profile(profile_id)
    assert profile.id == profile_id
    assert profile.rules and all(rule.strip() for rule in profile.rules.values())


def test_the_default_is_pt_americana():
    assert DEFAULT_PROFILE == "pt-americana" and load_profile().id == "pt-americana"


def test_unknown_profile_is_refused_with_the_known_ids():
    with pytest.raises(ProfileError, match="'pt-french' is not a profile; use one of mt-fair, pt-americana, "):
        load_profile("pt-french")


@pytest.mark.parametrize("profile_id, zero", [("pt-americana", "lose"),
                                              ("pt-americana-2002", "half-back"),
                                              ("pt-srij-french", "lose"),
                                              ("ru-american", "half-back"),
                                              ("mt-fair", "en-prison")])
def test_zero_rule_per_profile(profile_id, zero):
    # §4: PT-A 28, PT-B 27b/29, SRIJ 21, RU 4.11, FR.
    assert load_profile(profile_id).zero.simple_chances == zero


def test_pt_a_and_pt_b_limit_ratios():
    # §6: PT-A 32 and PT-B 34.
    assert dict(load_profile("pt-americana").limits.ratios) == {
        "plein": 30, "split": 60, "street": 90, "corner": 120, "line": 180, "dozen": 360,
        "column": 360, "two-dozens": 720, "two-columns": 720, "simple": 540}
    pt_b = load_profile("pt-americana-2002").limits.ratios
    assert (pt_b["plein"], pt_b["split"], pt_b["street"], pt_b["line"], pt_b["dozen"],
            pt_b["two-columns"], pt_b["simple"]) == (10, 20, 30, 60, 120, 240, 180)


def test_srij_ratios_match_its_rule_11(seed):
    text = seed("002")
    ratios = load_profile("pt-srij-french").limits.ratios
    for word, kind in (("Pleno", "plein"), ("Cavalo", "split"), ("Rua", "street"),
                       ("Quadro", "corner"), ("Linha", "line"), ("Dúzia", "dozen")):
        stated = re.search(rf"{word}: (\d+) vezes o valor da aposta mínima", text).group(1)
        assert ratios[kind] == int(stated), word


def test_which_bets_each_profile_offers():
    fr, srij, ru = load_profile("mt-fair"), load_profile("pt-srij-french"), load_profile("ru-american")
    pt_a, pt_b = load_profile("pt-americana"), load_profile("pt-americana-2002")
    # FR: no two-way bets on dozens or columns; nassa and finales only there.
    assert not fr.offers("two-dozens") and not fr.offers("two-columns")
    assert fr.offers("nassa") and fr.offers("finale-a-cheval") and not pt_a.offers("nassa")
    # Série do zero is PT-B's, not PT-A's.
    assert pt_b.offers("zero-spiel") and not pt_a.offers("zero-spiel")
    assert not any(srij.offers(k) for k in ("voisins", "tiers", "orphelins", "neighbours"))
    assert pt_a.neighbour_sides() == (1, 2, 3) and fr.neighbour_sides() == (2,)
    assert all(p.offers("plein") and p.offers("simple") for p in (fr, srij, ru, pt_a, pt_b))


@pytest.mark.parametrize("profile_id, first, last", [
    ("pt-americana", ("columns", "simple", "dozens", "neighbours", "series"),
     ("lines", "streets", "corners", "splits", "pleins")),
    ("pt-americana-2002", ("columns", "dozens", "simple"),
     ("lines", "streets", "corners", "splits", "pleins")),
    ("mt-fair", ("columns", "dozens", "simple"), ("pleins",)),
])
def test_payout_order_follows_the_regulation(profile_id, first, last):
    order = load_profile(profile_id).payout.order
    assert order[:len(first)] == first and order[-len(last):] == last


def test_fr_pays_multiple_chances_owner_by_owner_colour_first():
    payout = load_profile("mt-fair").payout
    assert payout.multiple_chances_by_owner and payout.colour_before_value


def test_procedures_other_modules_need():
    pt_a, pt_b = load_profile("pt-americana"), load_profile("pt-americana-2002")
    srij, ru, fr = load_profile("pt-srij-french"), load_profile("ru-american"), load_profile("mt-fair")
    assert (ru.min_ball_revolutions, srij.min_ball_revolutions, pt_a.min_ball_revolutions) == (5, 3, None)
    assert (pt_a.relief.kind, pt_a.relief.minutes) == ("at-most", 60)
    assert (pt_b.relief.kind, pt_b.relief.minutes) == ("at-most-or-force-majeure", 30)
    assert (ru.relief.minutes, ru.relief.configurable) == (60, True)
    assert pt_a.ball_swap_minutes == pt_b.ball_swap_minutes == 60
    assert srij.betting_period.min_seconds == 30 and not srij.betting_period.countdown_required
    assert ru.min_bets_per_spin == 1 and pt_a.min_bets_per_spin == 0
    assert (pt_a.inactivity.after_spins, pt_a.inactivity.only_when_waiting) == (3, True)
    assert srij.inactivity.after_spins == 6  # "more than 5 consecutive spins"
    assert fr.inactivity.after_spins is None
    assert [str(v) for v in ru.colour_chips.values] == ["1", "2", "5", "10", "25", "100"]
    assert pt_b.colour_chips.value == "multiple-of-minimum"
    assert pt_b.value_chips.categories == {"simple"}
    assert pt_a.value_chips.categories == {"columns", "dozens", "simple"}
    assert (fr.colour_minimum.outside_pieces, fr.colour_minimum.numbers_pieces) == (5, 5)


def test_an_american_numbered_wheel_loses_the_wheel_bets(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(shipped_text("pt-americana").replace('numbering = "french"',
                                                         'numbering = "american"'))
    profile = load_profile_file(path)
    assert not profile.offers("voisins") and not profile.offers("neighbours")
    assert profile.offers("complete")  # layout positions only


# --- malformed files -----------------------------------------------------------------------


def broken(tmp_path, old: str, new: str, profile_id: str = "pt-americana"):
    text = shipped_text(profile_id)
    assert old in text
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize("old, new, key, problem", [
    ("plein = 30", "plein = 30\npleine = 3", "limits.pleine", "unknown key"),
    ("plein = 30", "plein = -30", "limits.plein", "whole number"),
    ("plein = 30", 'plein = "30"', "limits.plein", "whole number"),
    ("plein = 30\n", "", "limits.plein", "missing"),
    ('simple_chances = "lose"', 'simple_chances = "lost"', "zero.simple_chances",
     "'lost' is not one of: lose, half-back, en-prison"),
    ('rule = "PT-A 28"', 'rule = ""', "zero.rule", "must not be empty"),
    ('"series", "complete"', '"series"', "payout.order", "does not place complete"),
    ('"splits", "pleins"', '"splits", "pleins", "pleins"', "payout.order", "twice"),
    ("[ball_swap]", "[ball_swaps]", "ball_swaps", "unknown key"),
    ("sides = [1, 2, 3]", "sides = [1, 4]", "bets.neighbours.sides", "1, 2 or 3"),
    ("nassa = { offered = false,", "nassa = { offered = 0,", "bets.nassa.offered", "true or false"),
    ("tiers = { min = 6, max = 120, multiple = 6 }", "tiers = { min = 6, max = 121, multiple = 6 }",
     "announced_limits.series.tiers", "multiples of 6"),
    ('value = "minimum-or-posted"', 'value = "one-of"', "colour_chips.values", "one-of"),
])
def test_malformed_keys_are_named_with_the_file(tmp_path, old, new, key, problem):
    path = broken(tmp_path, old, new)
    with pytest.raises(ProfileError) as error:
        load_profile_file(path)
    message = str(error.value)
    assert message.startswith(f"{path}: {key}: ") and problem in message


def test_a_bad_amount_in_the_colour_values_is_named(tmp_path):
    path = broken(tmp_path, '"25", "100"', '"25", "lots"', "ru-american")
    with pytest.raises(ProfileError, match=r"colour_chips\.values: 'lots' is not an amount"):
        load_profile_file(path)


def test_a_file_that_is_not_toml_is_named(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("id = pt-americana\n")
    with pytest.raises(ProfileError, match=rf"{re.escape(str(path))}: not valid TOML"):
        load_profile_file(path)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ProfileError, match="nowhere.toml: cannot read it"):
        load_profile_file(tmp_path / "nowhere.toml")


def test_a_journal_names_the_numbering_of_its_profile_even_one_this_program_does_not_know():
    from croupier.rules.profiles import numbering_of

    assert numbering_of("pt-americana") == "french"
    assert numbering_of("pt-roleta-1999") == "french"  # written by another version: still wheel order
    assert numbering_of(None) == "french"
