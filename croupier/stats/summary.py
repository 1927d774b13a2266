"""Every wheel-integrity test over a run of spins, as one JSON-able summary with each result in
plain words and the number of spins it needs before its silence means anything.

Significance: the whole summary is held at `alpha` (0.05): a fair wheel raises any alert at all in at
most 5% of runs. Bonferroni shares alpha equally among the test families that run (six on a French
wheel, five on an American one, which has no announced sectors), and inside each family Holm over
the 37 numbers and over the signature groups, Bonferroni over the 259 sliding sectors and for the
maximum count, hold the family at its share.
Power: the spins needed to see a 10% bias (the favoured pocket or sector comes up 10% more often
than on a fair wheel) at least 80% of the time, computed for the test as it is run: the exact
binomial test at the corrected level of one test in its family (its share / 37 for a number, its
share / 259 for a run of pockets), the chi-square at its critical value. A run of 5 pockets is counted as seen
only when that very run is flagged; the overlapping runs around it make the sliding-sector family
raise its alarm somewhat more often than that, so its figure errs on the safe side.
"""
from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from croupier.stats.pockets import chi_square_uniform, max_count_test, number_deviations
from croupier.stats.power import biased, spins_for_binomial_test, spins_for_chi_square
from croupier.stats.sectors import SECTOR_WIDTHS, sector_split, sliding_sectors
from croupier.stats.signature import dealer_signatures
from croupier.stats.spins import POCKETS, checked_number, direction_name
from croupier.stats.words import counted

ALPHA = 0.05
POWER = 0.80
BIAS = 0.10
POWER_SECTOR_WIDTH = 5  # the sector a neighbours bet covers: a number and two each side
SIGNATURE_SECTOR_WIDTH = 9  # a quarter of the wheel, where a steady launch sends the ball
SECTOR_WINDOWS_SHOWN = 10
UNIFORM = (1.0 / POCKETS,) * POCKETS
# A count test says nothing until each of its cells expects this many spins (the usual rule for the
# chi-square; held for the exact tests too, so that a handful of spins is never called evidence).
MIN_EXPECTED = 5


def _level(alpha: float) -> str:
    return f"{alpha:.2g}"


def _p(value: float) -> str:
    return f"{value:.2g}" if value >= 0.001 else f"{value:.1e}"


def _about(spins: int) -> str:
    """A sample size rounded up to two significant figures (61,929 -> 62,000), up so that the
    figure shown never promises the power at fewer spins than it takes."""
    step = 10 ** max(0, len(str(spins)) - 2)
    return f"{-(-spins // step) * step:,}"


def _degrees(df: int) -> str:
    return counted(df, "degree of freedom", "degrees of freedom")


def _minimum(smallest_share: float) -> int:
    """The spins a test needs before it says anything: MIN_EXPECTED in its smallest cell."""
    return math.ceil(MIN_EXPECTED / smallest_share - 1e-9)


def _how_often(upper: float, lower: float, spins: int) -> str:
    """How often a fair wheel does it, in words, from a chance bracketed by `lower` and `upper`:
    the upper bound while it is small, the lower one once the upper says nothing."""
    runs = f"runs of {counted(spins, 'spin')}"
    if upper < 1e-6:
        return f"in fewer than 1 in a million {runs}"
    if upper < 0.01:
        rarity = int(1 / upper)
        step = 10 ** max(0, len(str(rarity)) - 2)  # two figures, rounded down: still an upper bound
        return f"in at most 1 in {rarity // step * step:,} {runs}"
    if upper < 0.5:
        return f"in at most {upper:.0%} of {runs}"
    return f"in at least {lower:.0%} of {runs}"


def _verdict(flagged: bool, spins: int, needed: int, p_value: float, alpha: float, bias_on: str,
             minimum: int, cell: str) -> str:
    if spins == 0:
        return "No spins yet."
    if spins < minimum:
        return (f"{counted(spins, 'spin')} {'is' if spins == 1 else 'are'} too few to test: this test says "
                f"nothing before {minimum:,} spins ({MIN_EXPECTED} expected in each {cell}), and a {BIAS:.0%} bias "
                f"on {bias_on} needs about {_about(needed)} spins to be seen at least {POWER:.0%} of the time.")
    if flagged:
        return f"Evidence of bias (p = {_p(p_value)}, below {_level(alpha)})."
    if spins < needed:
        return (f"No sign of bias (p = {_p(p_value)}), but {counted(spins, 'spin')} "
                f"{'is' if spins == 1 else 'are'} too few to mean much: a {BIAS:.0%} bias on {bias_on} needs "
                f"about {_about(needed)} spins to be seen at least {POWER:.0%} of the time.")
    return (f"No sign of bias (p = {_p(p_value)}); with {counted(spins, 'spin')} a {BIAS:.0%} bias on "
            f"{bias_on} would have been seen at least {POWER:.0%} of the time.")


@lru_cache(maxsize=64)
def _needed_chi_square(null: tuple[float, ...], favoured: frozenset[int], alpha: float) -> int:
    return spins_for_chi_square(null, biased(null, favoured, BIAS), alpha, POWER)


@lru_cache(maxsize=64)
def _needed_proportion(share: float, alpha: float, two_sided: bool) -> int:
    return spins_for_binomial_test(share, share * (1 + BIAS), alpha, POWER, two_sided)


def _chi_square_section(counts: list[int], alpha: float) -> dict:
    test = chi_square_uniform(counts)
    spins = sum(counts)
    needed = _needed_chi_square(UNIFORM, frozenset({0}), alpha)
    minimum = _minimum(1 / POCKETS)
    flagged = spins >= minimum and test.p_value < alpha
    words = (f"Chi-square over the 37 pockets: {test.statistic:.1f} with {_degrees(test.df)}. "
             + _verdict(flagged, spins, needed, test.p_value, alpha, "one pocket", minimum, "pocket"))
    return {"statistic": test.statistic, "df": test.df, "p_value": test.p_value, "flagged": flagged,
            "minimum_spins": minimum, "spins_needed": needed, "enough_spins": spins >= needed, "plain": words}


def _numbers_section(counts: list[int], alpha: float) -> dict:
    rows = number_deviations(counts)
    spins = sum(counts)
    needed = _needed_proportion(1 / POCKETS, alpha / POCKETS, True)
    minimum = _minimum(1 / POCKETS)
    flagged = [row for row in rows if spins >= minimum and row.p_adjusted < alpha]
    extreme = min(rows, key=lambda row: (row.p_adjusted, -abs(row.z)))
    if flagged:
        listed = ", ".join(f"{row.number} ({counted(row.count, 'time')}, z = {row.z:+.1f})" for row in flagged)
        words = f"Numbers out of line after Holm's correction for 37 tests: {listed}."
    else:
        words = (f"Most unusual number: {extreme.number}, {counted(extreme.count, 'time')} for {extreme.expected:.1f} "
                 f"expected (z = {extreme.z:+.1f}, Holm-corrected over 37 numbers). "
                 + _verdict(False, spins, needed, extreme.p_adjusted, alpha, "one pocket", minimum, "pocket"))
    return {
        "correction": "holm",
        "rows": [{"number": row.number, "count": row.count, "expected": row.expected, "z": row.z,
                  "p_value": row.p_value, "p_adjusted": row.p_adjusted} for row in rows],
        "flagged": [row.number for row in flagged], "minimum_spins": minimum,
        "spins_needed": needed, "enough_spins": spins >= needed, "plain": words,
    }


def _max_count_section(counts: list[int], alpha: float) -> dict:
    test = max_count_test(counts)
    spins = sum(counts)
    needed = _needed_proportion(1 / POCKETS, alpha / POCKETS, False)
    minimum = _minimum(1 / POCKETS)
    flagged = spins >= minimum and test.p_value < alpha
    numbers = " and ".join(str(n) for n in test.numbers)
    words = (f"Most frequent: {numbers}, {counted(test.count, 'time')} for {test.expected:.1f} expected"
             + (f"; a fair wheel brings some pocket up that often "
                f"{_how_often(test.p_value, test.p_value_lower, spins)}. " if spins >= minimum else ". ")
             + _verdict(flagged, spins, needed, test.p_value, alpha, "one pocket", minimum, "pocket"))
    return {"numbers": list(test.numbers), "count": test.count, "expected": test.expected,
            "p_value": test.p_value, "p_value_lower": test.p_value_lower, "flagged": flagged,
            "minimum_spins": minimum, "spins_needed": needed, "enough_spins": spins >= needed, "plain": words}


def _sectors_section(counts: list[int], wheel_order: Sequence[int], alpha: float) -> dict:
    windows = sliding_sectors(counts, wheel_order)
    spins = sum(counts)
    tests = len(SECTOR_WIDTHS) * POCKETS
    needed = _needed_proportion(POWER_SECTOR_WIDTH / POCKETS, alpha / tests, True)
    minimum = _minimum(SECTOR_WIDTHS[0] / POCKETS)
    flagged = [w for w in windows if spins >= minimum and w.p_adjusted < alpha]
    top = windows[0]
    pockets = "-".join(str(n) for n in top.pockets)
    words = (f"Most unusual run of adjacent pockets: {pockets}, {counted(top.count, 'time')} for {top.expected:.1f} "
             f"expected (Bonferroni-corrected over {tests} overlapping runs of "
             f"{SECTOR_WIDTHS[0]} to {SECTOR_WIDTHS[-1]} pockets). "
             + _verdict(bool(flagged), spins, needed, top.p_adjusted, alpha,
                        f"a sector of {POWER_SECTOR_WIDTH} pockets", minimum, f"run of {SECTOR_WIDTHS[0]} pockets"))
    return {
        "widths": list(SECTOR_WIDTHS), "tests": tests, "correction": "bonferroni",
        "windows": [{"pockets": list(w.pockets), "count": w.count, "expected": w.expected, "z": w.z,
                     "p_value": w.p_value, "p_adjusted": w.p_adjusted} for w in windows[:SECTOR_WINDOWS_SHOWN]],
        "flagged": len(flagged), "minimum_spins": minimum, "spins_needed": needed, "enough_spins": spins >= needed, "plain": words,
    }


def _split_section(counts: list[int], sectors: Mapping[str, frozenset[int]], alpha: float) -> dict:
    test, cells = sector_split(counts, sectors)
    spins = sum(counts)
    smallest = min(cells, key=lambda cell: cell.pockets)
    null = tuple(cell.pockets / POCKETS for cell in cells)
    needed = _needed_chi_square(null, frozenset({cells.index(smallest)}), alpha)
    minimum = _minimum(smallest.pockets / POCKETS)
    flagged = spins >= minimum and test.p_value < alpha
    shares = ", ".join(f"{cell.name} {cell.count} ({cell.expected:.1f} expected)" for cell in cells)
    words = (f"Sectors: {shares}; chi-square {test.statistic:.2f} with {_degrees(test.df)}. "
             + _verdict(flagged, spins, needed, test.p_value, alpha,
                        f"{smallest.name} ({counted(smallest.pockets, 'pocket')})", minimum, "sector"))
    return {"cells": {cell.name: {"pockets": cell.pockets, "count": cell.count, "expected": cell.expected}
                      for cell in cells},
            "statistic": test.statistic, "df": test.df, "p_value": test.p_value, "flagged": flagged,
            "minimum_spins": minimum, "spins_needed": needed, "enough_spins": spins >= needed, "plain": words}


def _signature_section(results: Iterable[tuple[int, str | None, str | None]], wheel_order: Sequence[int],
                       alpha: float) -> dict:
    groups = dealer_signatures(results, wheel_order)
    needed = _needed_chi_square(UNIFORM, frozenset(range(SIGNATURE_SECTOR_WIDTH)), alpha / max(1, len(groups)))
    minimum = _minimum(1 / POCKETS)  # a group's distances fall in 37 cells
    rows = []
    for group in groups:
        flagged = group.spins >= minimum and group.p_adjusted < alpha
        who = f"{group.croupier or 'unknown croupier'}, {group.direction or 'unknown direction'}"
        words = (f"{who}: {counted(group.spins, 'spin')}, "
                 f"commonest distance {counted(group.commonest_distance, 'pocket')} on "
                 f"(chi-square {group.test.statistic:.1f}, {_degrees(group.test.df)}). "
                 + _verdict(flagged, group.spins, needed, group.p_adjusted, alpha,
                            f"a quarter of the wheel ({SIGNATURE_SECTOR_WIDTH} pockets) from the previous result",
                            minimum, "distance"))
        rows.append({"croupier": group.croupier, "direction": group.direction, "spins": group.spins,
                     "distance_counts": list(group.distance_counts), "statistic": group.test.statistic,
                     "df": group.test.df, "p_value": group.test.p_value, "p_adjusted": group.p_adjusted,
                     "commonest_distance": group.commonest_distance, "flagged": flagged,
                     "minimum_spins": minimum, "enough_spins": group.spins >= needed, "plain": words})
    flagged_groups = [row for row in rows if row["flagged"]]
    if not rows:
        words = "Dealer signature: no pair of consecutive results yet."
    elif all(row["spins"] < minimum for row in rows):
        where = ("its one croupier and direction group" if len(rows) == 1
                 else f"any of its {len(rows)} croupier and direction groups")
        words = (f"Dealer signature: too few spins to test in {where} (a group needs at least {minimum:,} spins, "
                 f"{MIN_EXPECTED} expected at each distance).")
    elif flagged_groups:
        words = "Dealer signature found for " + "; ".join(
            f"{row['croupier']} ({row['direction']}, corrected p = {_p(row['p_adjusted'])})" for row in flagged_groups) + "."
    else:
        words = (f"No dealer signature among {counted(len(rows), 'croupier and direction group')} (Holm's correction). "
                 f"Each group needs about {_about(needed)} spins to see a {BIAS:.0%} bias toward a quarter of the wheel "
                 f"at least {POWER:.0%} of the time.")
    return {"correction": "holm", "groups": rows, "minimum_spins": minimum, "spins_needed": needed, "plain": words}


def summarise(spins: Iterable, wheel_order: Sequence[int], sectors: Mapping[str, frozenset[int]] | None,
              *, alpha: float = ALPHA) -> dict:
    """The summary for spins of one wheel with the given geometry (`sectors` None: no sector split,
    as on an American-numbered wheel, where the announced sectors do not exist, `PT-A 25`)."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha}")
    if sorted(wheel_order) != list(range(POCKETS)):
        raise ValueError("the wheel order must hold each of 0..36 exactly once")
    counts = [0] * POCKETS
    # One byte per number and four per (croupier, direction) group keep 500,000 spins in ~2.5 MB.
    numbers = bytearray()
    group_of = array("I")
    groups: dict[tuple[str | None, str | None], int] = {}
    wheels: set = set()
    for position, spin in enumerate(spins):
        number = checked_number(spin.number, position)
        counts[number] += 1
        numbers.append(number)
        key = (getattr(spin, "croupier", None), direction_name(getattr(spin, "direction", None)))
        group_of.append(groups.setdefault(key, len(groups)))
        wheels.add(getattr(spin, "wheel", None))
    keys = list(groups)
    results = ((number, *keys[group]) for number, group in zip(numbers, group_of))
    if len(wheels) > 1:
        names = ", ".join(sorted(str(wheel) for wheel in wheels))
        raise ValueError(f"these spins come from several wheels ({names}): summarise each wheel apart "
                         "with summary_by_wheel")
    share = alpha / (6 if sectors else 5)  # one equal share per family that runs (Bonferroni)
    sections = {
        "chi_square": _chi_square_section(counts, share),
        "numbers": _numbers_section(counts, share),
        "max_count": _max_count_section(counts, share),
        "sectors": _sectors_section(counts, wheel_order, share),
        "sector_split": _split_section(counts, sectors, share) if sectors else None,
        "signature": _signature_section(results, wheel_order, share),
    }
    alerts = [name for name, section in sections.items() if section and _is_alert(section)]
    return {"spins": len(numbers), "wheel": next(iter(wheels), None), "alpha": alpha, "family_alpha": share,
            "power": POWER, "bias": BIAS, "counts": counts, **sections, "alerts": alerts,
            "alert_lines": [_ALERT_LINES[name](sections[name], counts) for name in alerts]}


def _times(count: int, expected: float) -> str:
    return f"{counted(count, 'time')} for {expected:.1f} expected"


def _uneven_pockets(section: dict, counts: list[int]) -> str:
    spins = sum(counts)
    worst = max(range(POCKETS), key=lambda number: abs(counts[number] * POCKETS - spins))
    return (f"the 37 pockets are not evenly hit (p = {_p(section['p_value'])}); furthest out: number {worst}, "
            f"{_times(counts[worst], spins / POCKETS)}")


def _numbers_out_of_line(section: dict, counts: list[int]) -> str:
    rows = {row["number"]: row for row in section["rows"]}
    listed = ", ".join(f"{number} ({_times(rows[number]['count'], rows[number]['expected'])})"
                       for number in section["flagged"])
    return f"number{'s' if len(section['flagged']) > 1 else ''} out of line: {listed}"


def _most_frequent(section: dict, counts: list[int]) -> str:
    numbers = " and ".join(str(n) for n in section["numbers"])
    return f"number {numbers} came up too often: {_times(section['count'], section['expected'])}"


def _hot_run(section: dict, counts: list[int]) -> str:
    top = section["windows"][0]
    pockets = "-".join(str(n) for n in top["pockets"])
    return f"adjacent pockets {pockets} out of line: {_times(top['count'], top['expected'])}"


def _uneven_split(section: dict, counts: list[int]) -> str:
    name, cell = max(section["cells"].items(), key=lambda item: abs(item[1]["count"] / item[1]["expected"] - 1))
    return f"the wheel's sectors are uneven: {name} {_times(cell['count'], cell['expected'])}"


def _signature_found(section: dict, counts: list[int]) -> str:
    return "dealer signature: " + "; ".join(
        f"{group['croupier'] or 'unknown croupier'} ({group['direction'] or 'unknown direction'}), "
        f"commonest distance {counted(group['commonest_distance'], 'pocket')} on"
        for group in section["groups"] if group["flagged"])


# Each alert in words that name the pocket, run of pockets, sector or croupier it is about.
_ALERT_LINES = {"chi_square": _uneven_pockets, "numbers": _numbers_out_of_line, "max_count": _most_frequent,
                "sectors": _hot_run, "sector_split": _uneven_split, "signature": _signature_found}


def _is_alert(section: dict) -> bool:
    if "groups" in section:
        return any(group["flagged"] for group in section["groups"])
    return bool(section["flagged"])


def summary(spins: Iterable, numbering: str = "french", *, alpha: float = ALPHA) -> dict:
    """`summarise` for one wheel with the given numbering ("french" or "american"). The sector
    split exists only on the French numbering (`PT-A 25`)."""
    from croupier.rules import wheel

    sectors = None
    if numbering == "french":
        sectors = {"voisins": frozenset(wheel.VOISINS), "tiers": frozenset(wheel.TIERS),
                   "orphelins": frozenset(wheel.ORPHELINS)}
    return summarise(spins, wheel.numbering(numbering), sectors, alpha=alpha)


def summary_by_wheel(spins: Iterable, numbering: str = "french", *, alpha: float = ALPHA) -> dict:
    """One summary per wheel (keyed by the spins' `wheel`), for a journal covering several."""
    by_wheel: dict = {}
    for spin in spins:
        by_wheel.setdefault(getattr(spin, "wheel", None), []).append(spin)
    return {wheel: summary(group, numbering, alpha=alpha) for wheel, group in by_wheel.items()}
