"""The summary the review app and the shift report show: quiet on a fair wheel, loud on a biased
one, honest about how many spins it needs, and JSON-able."""
import json
import random
import re
from datetime import datetime, timedelta

import pytest
from scipy import stats as reference

from croupier.stats import CountedSpin, select_window, summary, summary_by_wheel

FAMILIES = ["chi_square", "numbers", "max_count", "sectors", "sector_split", "signature"]
SEEDS = range(40)


def fair_spins(seed: int, spins: int = 3700) -> list[CountedSpin]:
    rng = random.Random(seed)
    start = datetime(2025, 9, 16, 20, 0)
    return [CountedSpin(rng.randrange(37), ("ana", "rui", "eva")[(i // 60) % 3],
                        ("clockwise", "anticlockwise")[i % 2], None, start + timedelta(minutes=i))
            for i in range(spins)]


def sector_biased_spins(seed: int, spins: int, ring, sector: set[int], bias: float) -> list[CountedSpin]:
    """A wheel on which the pockets of `sector` come up `bias` (0.3 = 30%) more often."""
    rng = random.Random(seed)
    weights = [1 + bias if number in sector else 1.0 for number in range(37)]
    numbers = rng.choices(range(37), weights=weights, k=spins)
    return [CountedSpin(n, "ana", ("clockwise", "anticlockwise")[i % 2]) for i, n in enumerate(numbers)]


@pytest.fixture(scope="module")
def fair_summaries():
    return [summary(fair_spins(seed)) for seed in SEEDS]


def test_a_fair_wheel_raises_no_more_alarms_than_the_nominal_rate_allows(fair_summaries):
    # Each family is held at 5% (Holm and Bonferroni only make that more conservative), so over
    # 40 independent fair shifts its alarms count at most like binomial(40, 0.05). Allow up to the
    # count that binomial reaches less than once in a thousand shifts.
    limit = next(c for c in range(41) if reference.binom.sf(c - 1, len(SEEDS), 0.05) < 0.001)
    for family in FAMILIES:
        alarms = sum(family in s["alerts"] for s in fair_summaries)
        assert alarms < limit, f"{family}: {alarms} alarms in {len(SEEDS)} fair shifts"


def test_chi_square_p_values_of_fair_shifts_are_uniform(fair_summaries):
    # On a fair wheel the p-value is uniform on [0, 1]: anything else means a wrong distribution.
    p_values = [s["chi_square"]["p_value"] for s in fair_summaries]
    assert reference.kstest(p_values, "uniform").pvalue > 0.001


def test_a_wheel_biased_toward_a_sector_is_detected(french_ring):
    # Five adjacent pockets 30% too often over 20,000 spins: that sector is expected 2,703 times
    # on a fair wheel and about 3,500 times here, some 16 standard deviations away, far past the
    # Bonferroni threshold for 259 windows (about 3.9 standard deviations).
    start = french_ring.index(5)
    sector = {french_ring[(start + i) % 37] for i in range(5)}
    result = summary(sector_biased_spins(7, 20_000, french_ring, sector, 0.30))
    assert "sectors" in result["alerts"]
    top = result["sectors"]["windows"][0]
    assert set(top["pockets"]) & sector and top["z"] > 10
    assert result["sectors"]["plain"].startswith("Most unusual run of adjacent pockets")
    assert "Evidence of bias" in result["sectors"]["plain"]
    assert result["sectors"]["enough_spins"] is True


def test_a_few_hundred_spins_are_called_too_few(french_ring):
    result = summary(sector_biased_spins(7, 300, french_ring, {5, 24, 16, 33, 1}, 0.10))
    for family in ("chi_square", "numbers", "sectors"):
        assert result[family]["enough_spins"] is False
        if family not in result["alerts"]:
            assert "too few to mean much" in result[family]["plain"]


def test_a_croupier_signature_shows_in_the_summary(french_ring):
    rng = random.Random(99)
    spins, position = [], 0
    for i in range(4000):
        croupier = "rui" if (i // 60) % 2 else "ana"
        if croupier == "rui" and rng.random() < 1 / 3:
            position = (position + 20 + rng.randint(-2, 2)) % 37
        else:
            position = rng.randrange(37)
        spins.append(CountedSpin(french_ring[position], croupier, ("clockwise", "anticlockwise")[i % 2]))
    result = summary(spins)
    assert "signature" in result["alerts"]
    flagged = {g["croupier"] for g in result["signature"]["groups"] if g["flagged"]}
    assert flagged == {"rui"}
    assert "rui" in result["signature"]["plain"]


def test_summary_is_json_and_carries_what_the_report_needs():
    result = json.loads(json.dumps(summary(fair_spins(1, 500))))
    assert result["spins"] == 500
    assert set(result["chi_square"]) >= {"statistic", "p_value", "df", "plain", "spins_needed", "enough_spins"}
    assert sum(result["counts"]) == 500
    assert result["sector_split"]["cells"]["voisins"]["pockets"] == 17


def test_no_spins_is_a_summary_that_says_so():
    result = summary([])
    assert result["spins"] == 0 and result["alerts"] == []
    assert "No spins yet" in result["chi_square"]["plain"]


def test_american_numbering_has_no_sector_split():
    # The announced sectors exist only on the French numbering (PT-A 25).
    result = summary(fair_spins(2, 400), "american")
    assert result["sector_split"] is None


def test_a_spin_that_is_not_a_pocket_is_refused_by_position():
    spins = fair_spins(3, 10)
    spins[4] = CountedSpin(37)
    with pytest.raises(ValueError, match="spin 5: 37 is not a pocket number"):
        summary(spins)


def test_spins_of_several_wheels_are_refused_and_summarised_apart():
    spins = [CountedSpin(n % 37, "ana", "clockwise", "wheel-A" if n % 2 else "wheel-B") for n in range(200)]
    with pytest.raises(ValueError, match="several wheels"):
        summary(spins)
    per_wheel = summary_by_wheel(spins)
    assert set(per_wheel) == {"wheel-A", "wheel-B"}
    assert per_wheel["wheel-A"]["spins"] == 100 and per_wheel["wheel-A"]["wheel"] == "wheel-A"


def test_window_selects_by_time_then_by_count():
    spins = fair_spins(4, 100)  # one a minute from 20:00
    start = datetime(2025, 9, 16, 20, 30)
    chosen = select_window(spins, since=start, until=start + timedelta(minutes=20))
    assert [s.time for s in chosen] == [start + timedelta(minutes=i) for i in range(20)]
    assert select_window(spins, last=5) == spins[-5:]
    assert select_window(spins, last=0) == []
    with pytest.raises(ValueError, match="last"):
        select_window(spins, last=-1)


def test_counted_spins_from_journal_events_take_the_corrected_number():
    from croupier.history.spins import counted_spins
    from croupier.rules.spin import Direction, VoidReason
    from croupier.table.events import ResultCorrected, ResultRecorded, Source, SpinVoided

    def result(spin: int, number: int, croupier: str, direction: Direction, time: str) -> ResultRecorded:
        return ResultRecorded(spin=spin, number=number, source=Source.KEYPAD, ball="A", croupier=croupier,
                              direction=direction, time=datetime.fromisoformat(time))

    events = [
        (5, result(1, 5, "ana", Direction.CLOCKWISE, "2025-09-16T20:03:30.000000+00:00")),
        (6, SpinVoided(spin=2, reason=next(iter(VoidReason)), put_back=5, source=Source.KEYPAD, by="ana")),
        (9, result(2, 7, "rui", Direction.ANTICLOCKWISE, "2025-09-16T20:05:00.000000+00:00")),
        (10, ResultCorrected(spin=1, previous=5, number=24, reason="misread", by="boss")),
    ]
    spins = counted_spins(events)
    assert [(s.number, s.croupier, s.direction) for s in spins] == [(24, "ana", "clockwise"), (7, "rui", "anticlockwise")]
    assert spins[0].time == datetime.fromisoformat("2025-09-16T20:03:30+00:00")
    with pytest.raises(ValueError, match="event 3: corrects spin 9, which has no recorded result"):
        counted_spins([(3, ResultCorrected(spin=9, previous=1, number=1, reason="misread", by="boss"))])


def every_text(result) -> list[str]:
    texts = [result[family]["plain"] for family in FAMILIES if result[family]]
    return texts + [group["plain"] for group in result["signature"]["groups"]]


def test_one_of_anything_is_said_in_the_singular(french_ring):
    from croupier.stats import wheel_chart

    # Two spins by one croupier, the second one pocket on from the first: the signature group then
    # holds 1 spin at a distance of 1 pocket, and every pocket came up at most 1 time.
    first = french_ring[10]
    result = summary([CountedSpin(first, "ana", "clockwise"), CountedSpin(french_ring[11], "ana", "clockwise")])
    one_spin = summary([CountedSpin(first, "ana", "clockwise")])
    texts = every_text(result) + every_text(one_spin) + [wheel_chart(one_spin["counts"], french_ring)]
    for text in texts:
        assert re.search(r"\b1 (spins|times|pockets|groups|degrees)\b", text) is None, text
        assert "1 spin are" not in text, text
    assert "1 spin is too few to test" in one_spin["numbers"]["plain"]
    assert f"Most unusual number: {first}, 1 time for" in one_spin["numbers"]["plain"]
    group = result["signature"]["groups"][0]["plain"]
    assert "ana, clockwise: 1 spin, commonest distance 1 pocket on" in group
    assert "in its one croupier and direction group (" in result["signature"]["plain"]
    assert "(1 spin)" in wheel_chart(one_spin["counts"], french_ring)


def test_the_spins_a_text_says_are_needed_are_never_fewer_than_the_figure(french_ring):
    result = summary(sector_biased_spins(3, 500, french_ring, set(), 0.0))
    for family in ("chi_square", "numbers", "max_count", "sectors", "sector_split"):
        section = result[family]
        said = int(re.search(r"needs about ([\d,]+) spins", section["plain"]).group(1).replace(",", ""))
        # Rounded up to two significant figures: at most one unit of the second figure above.
        assert section["spins_needed"] <= said < section["spins_needed"] * 1.1, (family, said)
