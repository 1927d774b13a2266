"""The continuous watch: its alerts do not depend on how often anyone looks, a shift's chart never
rings where the whole journal's would not, its alert line is the bound the module cites, a fair wheel
stays quiet and a biased one is caught and named; every reader says which rate applies."""
import math
import random

import pytest

from croupier.rules.wheel import FRENCH as french_ring
from croupier.history.statistics import statistics_text
from croupier.stats import CountedSpin, summary
from croupier.stats.watch import ALPHA, CHARTS, THRESHOLD, YEAR_SPINS, watch


def biased(rng, spins, favoured, ratio):
    weights = [ratio if n in favoured else 1.0 for n in range(37)]
    return rng.choices(range(37), weights=weights, k=spins)


def test_the_alert_line_is_the_bound_for_a_wheel_year_of_74_charts():
    # Doob: P(max R >= A within N spins) <= N / A per chart; Bonferroni over the 74 charts.
    assert CHARTS == 74
    assert YEAR_SPINS * CHARTS / math.exp(THRESHOLD) == pytest.approx(ALPHA)


def test_looking_more_often_raises_no_more_alerts():
    """What a look at the first n spins shows is what the whole run showed at spin n: the charts
    depend on the spins alone, so a look every spin sees the same alerts as one look at the end."""
    numbers = biased(random.Random(5), 30_000, {17}, 1.4)
    whole = watch(numbers, french_ring)
    assert any(chart.alarm_at for chart in whole)
    for looked_at in range(1_000, 30_001, 1_000):
        seen = watch(numbers[:looked_at], french_ring)
        for early, late in zip(seen, whole):
            assert early.alarm_at == (late.alarm_at if late.alarm_at and late.alarm_at <= looked_at else None)


def test_a_shift_chart_is_never_above_the_whole_journal_chart():
    """A chart restarted at a shift's first spin is at most the journal's, so the views of every
    shift, range and the whole journal together keep the one wheel-year rate."""
    numbers = biased(random.Random(9), 6_000, {5, 24, 16, 33, 1}, 1.3)
    whole = watch(numbers, french_ring)
    for start in (1, 700, 2_500, 5_999):
        for part, full in zip(watch(numbers[start:], french_ring), whole):
            assert part.pockets == full.pockets and part.value <= full.value + 1e-9


def test_a_fair_wheel_stays_quiet_over_wheel_years():
    rng = random.Random(11)
    rung = sum(any(chart.alarm_at for chart in watch(rng.choices(range(37), k=40_000), french_ring))
               for _ in range(10))
    assert rung == 0  # the bound allows 5%; the real rate is far lower (bench/bench_watch.py)


def test_a_favoured_pocket_is_caught_and_named():
    spins = [CountedSpin(n) for n in biased(random.Random(3), 30_000, {17}, 1.5)]
    watched = summary(spins)["watch"]
    assert watched["alarms"] and watched["alarms"][0]["pockets"] == [17]
    assert watched["alert_lines"][0].startswith("number 17 favoured, alert at spin ")


def test_a_favoured_sector_is_caught_and_named():
    sector = {5, 24, 16, 33, 1}
    spins = [CountedSpin(n) for n in biased(random.Random(4), 20_000, sector, 1.3)]
    watched = summary(spins)["watch"]
    assert any(set(alarm["pockets"]) & sector for alarm in watched["alarms"])
    assert any(line.startswith("adjacent pockets ") for line in watched["alert_lines"])


def test_the_statistics_say_which_rate_applies_and_one_look_raises_no_alert():
    # 17 every time: the one-look tests find it, and say they are one look; the watch alerts.
    text = statistics_text([CountedSpin(17)] * 200, "french", "shift 1")
    assert "ALERT: number 17 favoured, alert at spin " in text
    assert "at most 5% of wheel-years, however often it is looked at" in text
    assert "for one look at these spins" in text
    assert "One look: number 17 came up too often" in text
    fair = statistics_text([CountedSpin(n % 37) for n in range(370)], "french", "shift 1")
    assert "ALERT:" not in fair and "No alert; highest chart now: " in fair



def test_the_charts_are_those_of_every_spin_in_turn():
    # The charts are brought up to date one chart at a time: the same figures, to the last bit, as
    # the six charts each spin raises brought up to date spin by spin, as the watch once did.
    from croupier.stats import watch as watching

    rng = random.Random(3)
    numbers = [rng.choice([0, 0, 32, *range(37)]) for _ in range(20_000)]
    steps = [watching._steps(1 / 37, watching.POCKET_RATIO)] * 37 + [watching._steps(5 / 37, watching.SECTOR_RATIO)] * 37
    position = {number: at for at, number in enumerate(french_ring)}
    value, highest, last, alarm = [0.0] * 74, [0.0] * 74, [0] * 74, [None] * 74
    for spin, number in enumerate(numbers, 1):
        for chart in (number, *(37 + (position[number] - offset) % 37 for offset in range(5))):
            rise, fall = steps[chart]
            now = value[chart] - fall * (spin - 1 - last[chart])
            now = (now if now > 0.0 else 0.0) + rise
            value[chart], last[chart] = now, spin
            if now > highest[chart]:
                highest[chart] = now
                if now >= THRESHOLD and alarm[chart] is None:
                    alarm[chart] = spin
    charts = watch(numbers, french_ring)
    assert [(c.value, c.highest, c.alarm_at) for c in charts] == [
        (max(0.0, value[c] - steps[c][1] * (len(numbers) - last[c])), highest[c], alarm[c]) for c in range(74)]
    assert [c.pockets for c in charts[37:]] == [tuple(french_ring[(s + i) % 37] for i in range(5)) for s in range(37)]


def test_charts_taken_up_after_some_spins_end_exactly_where_one_pass_does():
    """A report from a checkpoint goes on from the charts the table kept: bit for bit the charts of
    one pass, at any split (the watch depends on the order of the spins)."""
    numbers = biased(random.Random(11), 20_000, {5, 24}, 1.3)
    whole = watch(numbers, french_ring)
    for split in (0, 1, 37, 9_999, 19_999, 20_000):
        first = watch(numbers[:split], french_ring)
        assert watch(numbers[split:], french_ring, first, split) == whole


def test_charts_of_other_spins_are_not_taken_up():
    with pytest.raises(ValueError):
        watch([1, 2], french_ring, watch(range(37), french_ring), 10)
