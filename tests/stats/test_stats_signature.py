"""Dealer signature: the pocket distance from the previous result, per croupier and direction."""
import random

import pytest
from scipy import stats as reference

from croupier.stats.signature import dealer_signatures, pocket_distance, wheel_positions


def test_distance_follows_the_printed_wheel_order(french_ring):
    positions = wheel_positions(french_ring)
    assert pocket_distance(0, 32, positions) == 1  # 0-32-15-... : 32 is the next pocket
    assert pocket_distance(26, 0, positions) == 1  # ...-3-26 and round to 0
    assert pocket_distance(0, 26, positions) == 36
    assert pocket_distance(17, 17, positions) == 0
    assert pocket_distance(0, 10, positions) == 18  # 10 is the 19th pocket from 0


def test_first_result_only_starts_the_count_and_groups_follow_the_current_spin(french_ring):
    results = [(0, "ana", "clockwise"), (32, "ana", "clockwise"), (15, "rui", "anticlockwise"),
               (0, "ana", "clockwise")]
    groups = {(g.croupier, g.direction): g for g in dealer_signatures(results, french_ring)}
    assert set(groups) == {("ana", "clockwise"), ("rui", "anticlockwise")}
    ana = groups[("ana", "clockwise")].distance_counts
    assert ana[1] == 1 and ana[35] == 1 and sum(ana) == 2  # 0->32 one on; 15->0 two back
    assert groups[("rui", "anticlockwise")].distance_counts[1] == 1  # 32->15


def simulated_shift(rng: random.Random, ring, spins: int, signature: dict[str, int]) -> list[tuple]:
    """Spins alternating direction, croupiers taking turns by the hour (60 spins); a croupier in
    `signature` lands within two pockets of a fixed distance from the previous result a third of
    the time, the others land anywhere."""
    results, position = [], 0
    directions = ["clockwise", "anticlockwise"]
    croupiers = ["ana", "rui", "eva"]
    for spin in range(spins):
        croupier = croupiers[(spin // 60) % 3]
        if croupier in signature and rng.random() < 1 / 3:
            position = (position + signature[croupier] + rng.randint(-2, 2)) % 37
        else:
            position = rng.randrange(37)
        results.append((ring[position], croupier, directions[spin % 2]))
    return results


def test_a_croupier_with_a_fixed_signature_is_found_and_the_others_are_not(french_ring):
    # 3,000 spins: about 500 per croupier and direction. A third of 500 spins squeezed into 5 of
    # 37 distances gives a chi-square far beyond any correction; the honest croupiers stay quiet at
    # 5% each (fixed seed).
    results = simulated_shift(random.Random(20240917), french_ring, 3000, {"rui": 12})
    groups = dealer_signatures(results, french_ring)
    flagged = {(g.croupier, g.direction) for g in groups if g.p_adjusted < 0.05}
    assert flagged == {("rui", "clockwise"), ("rui", "anticlockwise")}
    for group in groups:
        if group.croupier == "rui":
            assert 10 <= group.commonest_distance <= 14
        assert group.test.p_value == pytest.approx(reference.chisquare(group.distance_counts).pvalue, rel=1e-8)
