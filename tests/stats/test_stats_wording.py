"""What the statistics say over very few spins, and the maximum count in plain words: no test
claims evidence (or raises an alert) before each of its cells expects 5 spins, and chances are
said as a share or as "1 in N" runs, never "at most 1"."""
import math
import random
import re

import pytest
from scipy import stats as reference

from croupier.stats import CountedSpin, summary

FAMILIES = ["chi_square", "numbers", "max_count", "sectors", "sector_split"]


def spins_of(numbers, croupier="ana"):
    return [CountedSpin(number, croupier, "clockwise") for number in numbers]


def test_four_spins_are_too_few_even_when_a_p_value_is_small():
    # The trial's case: 17 three times in 4 spins. On a fair wheel some pocket does that with a
    # chance of at most 37 * P(Binomial(4, 1/37) >= 3), about 0.3%: a p-value, not evidence.
    result = summary(spins_of([17, 3, 17, 17]))
    assert result["max_count"]["p_value"] == pytest.approx(37 * reference.binom.sf(2, 4, 1 / 37))
    assert result["max_count"]["p_value"] < 0.05
    assert result["alerts"] == []
    texts = [result[family]["plain"] for family in FAMILIES] + [result["signature"]["plain"]]
    for text in texts:
        assert "Evidence" not in text and "too few" in text, text
    assert "4 spins are too few to test: this test says nothing before 185 spins" in result["chi_square"]["plain"]


@pytest.mark.parametrize("family, minimum", [
    ("chi_square", 185),  # 5 expected in each of 37 pockets: 5 x 37
    ("numbers", 185),
    ("max_count", 185),
    ("sectors", 62),  # 5 expected in a run of 3 pockets: 5 x 37 / 3 = 61.7, rounded up
    ("sector_split", 24),  # 5 expected in orphelins, the smallest sector (8 pockets): 5 x 37 / 8 = 23.1
])
def test_a_test_speaks_from_five_expected_in_its_smallest_cell(family, minimum):
    # A wheel that only ever gives 17 (an orphelin): as biased as can be, yet silent one spin short.
    short, enough = summary(spins_of([17] * (minimum - 1))), summary(spins_of([17] * minimum))
    assert family not in short["alerts"] and short[family]["minimum_spins"] == minimum
    assert f"too few to test: this test says nothing before {minimum} spins" in short[family]["plain"]
    assert family in enough["alerts"] and "too few" not in enough[family]["plain"]


def test_a_dealer_signature_needs_185_spins_in_its_group():
    # Each result 10 pockets on from the one before: as steady a signature as there is.
    ring = list(range(37))
    numbers = [ring[(10 * i) % 37] for i in range(186)]
    assert summary(spins_of(numbers[:185]))["alerts"] == []  # 184 distances
    assert "signature" in summary(spins_of(numbers))["alerts"]  # 185 distances


def max_count_chances(counts):
    """The maximum count's chance on a fair wheel, bracketed by hand from scipy's binomial tail."""
    spins, top = sum(counts), max(counts)
    q = reference.binom.sf(top - 1, spins, 1 / 37)
    return min(1.0, 37 * q), 1 - (1 - q) ** 37


def test_an_ordinary_maximum_is_said_as_a_share_of_runs():
    numbers = random.Random(5).choices(range(37), k=400)
    result = summary(spins_of(numbers))
    upper, lower = max_count_chances([numbers.count(n) for n in range(37)])
    assert upper >= 0.5  # an ordinary maximum: the upper bound says nothing, the lower one does
    text = result["max_count"]["plain"]
    assert f"a fair wheel brings some pocket up that often in at least {lower:.0%} of runs of 400 spins" in text
    assert "at most 1." not in text and "at most 1 " not in text


def test_a_rare_maximum_is_said_as_one_in_so_many_runs():
    numbers = random.Random(6).choices(range(37), k=1000) + [17] * 25
    result = summary(spins_of(numbers))
    upper, _ = max_count_chances([numbers.count(n) for n in range(37)])
    said = re.search(r"in at most 1 in ([\d,]+) runs of 1,025 spins", result["max_count"]["plain"])
    assert said, result["max_count"]["plain"]
    one_in = int(said.group(1).replace(",", ""))
    # Two figures, rounded so the chance said is never smaller than the bound.
    assert 1 / upper * 0.9 <= one_in <= 1 / upper and len(str(one_in).rstrip("0")) <= 2
    assert math.isclose(result["max_count"]["p_value"], upper, rel_tol=1e-6)
