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

from croupier.stats import power_known
from croupier.stats.pockets import chi_square_uniform, max_count_test, number_deviations
from croupier.stats.power import biased, spins_for_binomial_test, spins_for_chi_square
from croupier.stats.sectors import SECTOR_WIDTHS, sector_split, sliding_sectors
from croupier.stats.signature import SignatureGroup, column_signatures
from croupier.stats.spins import POCKETS, SpinColumns, checked_number, direction_name
from croupier.stats import watch as watching
from croupier.i18n import N_, _, formats, ngettext
from croupier.stats.words import grouped

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
    return formats.significant(alpha)


def _p(value: float) -> str:
    return formats.significant(value)


def _about(spins: int) -> str:
    """A sample size rounded up to two significant figures (61,929 -> 62,000), up so that the
    figure shown never promises the power at fewer spins than it takes."""
    step = 10 ** max(0, len(str(spins)) - 2)
    return grouped(-(-spins // step) * step)


def _degrees(df: int) -> str:
    return ngettext("{count} degree of freedom", "{count} degrees of freedom", df).format(count=grouped(df))


def _spins(count: int) -> str:
    return ngettext("{count} spin", "{count} spins", count).format(count=grouped(count))


def _pockets(count: int) -> str:
    return ngettext("{count} pocket", "{count} pockets", count).format(count=grouped(count))


def _share(value: float) -> str:
    return formats.percent(value)


def _and(items: Iterable[str]) -> str:
    return f" {_('and')} ".join(items)


# The way a launch went, as the spins record it (the same words as the table screen's).
_DIRECTIONS = {"clockwise": N_("clockwise"), "anticlockwise": N_("anticlockwise")}


def _group(croupier: str | None, direction: str | None) -> tuple[str, str]:
    """A croupier and direction group's names, either unknown."""
    return (croupier or _("unknown croupier"),
            _(_DIRECTIONS[direction]) if direction in _DIRECTIONS else direction or _("unknown direction"))


def _minimum(smallest_share: float) -> int:
    """The spins a test needs before it says anything: MIN_EXPECTED in its smallest cell."""
    return math.ceil(MIN_EXPECTED / smallest_share - 1e-9)


def _how_often(upper: float, lower: float, spins: int) -> str:
    """How often a fair wheel does it, in words, from a chance bracketed by `lower` and `upper`:
    the upper bound while it is small, the lower one once the upper says nothing."""
    runs = ngettext("runs of {count} spin", "runs of {count} spins", spins).format(count=grouped(spins))
    if upper < 1e-6:
        return _("in fewer than 1 in a million {runs}").format(runs=runs)
    if upper < 0.01:
        rarity = int(1 / upper)
        step = 10 ** max(0, len(str(rarity)) - 2)  # two figures, rounded down: still an upper bound
        return _("in at most 1 in {rarity} {runs}").format(rarity=grouped(rarity // step * step), runs=runs)
    if upper < 0.5:
        return _("in at most {share} of {runs}").format(share=_share(upper), runs=runs)
    return _("in at least {share} of {runs}").format(share=_share(lower), runs=runs)


def _verdict(flagged: bool, spins: int, needed: int, p_value: float, alpha: float, biased: str,
             minimum: int, in_each: str) -> str:
    """`biased`: the bias the power is for, in words ("a 10% bias on one pocket"); `in_each`: the
    smallest cell ("in each pocket")."""
    if spins == 0:
        return _("No spins yet.")
    facts = {"count": grouped(spins), "minimum": grouped(minimum), "expected": MIN_EXPECTED, "in_each": in_each,
             "biased": biased, "needed": _about(needed), "power": _share(POWER), "p": _p(p_value),
             "level": _level(alpha)}
    if spins < minimum:
        return ngettext("{count} spin is too few to test: this test says nothing before {minimum} spins ({expected} "
                        "expected {in_each}), and {biased} needs about {needed} spins to be seen at least {power} "
                        "of the time.",
                        "{count} spins are too few to test: this test says nothing before {minimum} spins "
                        "({expected} expected {in_each}), and {biased} needs about {needed} spins to be seen at "
                        "least {power} of the time.", spins).format(**facts)
    if flagged:
        return _("Evidence of bias (p = {p}, below {level}).").format(**facts)
    if spins < needed:
        return ngettext("No sign of bias (p = {p}), but {count} spin is too few to mean much: {biased} needs about "
                        "{needed} spins to be seen at least {power} of the time.",
                        "No sign of bias (p = {p}), but {count} spins are too few to mean much: {biased} needs "
                        "about {needed} spins to be seen at least {power} of the time.", spins).format(**facts)
    return ngettext("No sign of bias (p = {p}); with {count} spin {biased} would have been seen at least {power} of "
                    "the time.",
                    "No sign of bias (p = {p}); with {count} spins {biased} would have been seen at least {power} "
                    "of the time.", spins).format(**facts)


def _on_one_pocket() -> str:
    return _("a {bias} bias on one pocket").format(bias=_share(BIAS))


def _times(count: int, expected: float) -> str:
    return ngettext("{count} time for {expected} expected", "{count} times for {expected} expected", count).format(
        count=grouped(count), expected=formats.fixed(expected, 1))


def _time_count(count: int) -> str:
    return ngettext("{count} time", "{count} times", count).format(count=grouped(count))


@lru_cache(maxsize=64)
def _needed_chi_square(null: tuple[float, ...], favoured: frozenset[int], alpha: float) -> int:
    known = power_known.CHI_SQUARE.get((null, favoured, alpha))
    return known if known is not None else spins_for_chi_square(null, biased(null, favoured, BIAS), alpha, POWER)


@lru_cache(maxsize=64)
def _needed_proportion(share: float, alpha: float, two_sided: bool) -> int:
    known = power_known.BINOMIAL.get((share, alpha, two_sided))
    return (known if known is not None
            else spins_for_binomial_test(share, share * (1 + BIAS), alpha, POWER, two_sided))


def _chi_square_section(counts: list[int], alpha: float) -> dict:
    test = chi_square_uniform(counts)
    spins = sum(counts)
    needed = _needed_chi_square(UNIFORM, frozenset({0}), alpha)
    minimum = _minimum(1 / POCKETS)
    flagged = spins >= minimum and test.p_value < alpha
    words = (_("Chi-square over the 37 pockets: {statistic} with {degrees}.").format(
        statistic=formats.fixed(test.statistic, 1), degrees=_degrees(test.df)) + " "
             + _verdict(flagged, spins, needed, test.p_value, alpha, _on_one_pocket(), minimum, _("in each pocket")))
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
        listed = ", ".join(f"{row.number} ({_time_count(row.count)}, z = {row.z:+.1f})" for row in flagged)
        words = _("Numbers out of line after Holm's correction for 37 tests: {listed}.").format(listed=listed)
    else:
        words = (_("Most unusual number: {number}, {times} (z = {z}, Holm-corrected over 37 numbers).").format(
            number=extreme.number, times=_times(extreme.count, extreme.expected), z=f"{extreme.z:+.1f}") + " "
                 + _verdict(False, spins, needed, extreme.p_adjusted, alpha, _on_one_pocket(), minimum,
                            _("in each pocket")))
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
    numbers = _and(str(n) for n in test.numbers)
    times = _times(test.count, test.expected)
    words = ((_("Most frequent: {numbers}, {times}; a fair wheel brings some pocket up that often {how_often}.")
              .format(numbers=numbers, times=times, how_often=_how_often(test.p_value, test.p_value_lower, spins))
              if spins >= minimum else _("Most frequent: {numbers}, {times}.").format(numbers=numbers, times=times))
             + " " + _verdict(flagged, spins, needed, test.p_value, alpha, _on_one_pocket(), minimum,
                              _("in each pocket")))
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
    words = (_("Most unusual run of adjacent pockets: {pockets}, {times} (Bonferroni-corrected over {tests} "
               "overlapping runs of {low} to {high} pockets).").format(
        pockets=pockets, times=_times(top.count, top.expected), tests=tests, low=SECTOR_WIDTHS[0],
        high=SECTOR_WIDTHS[-1]) + " "
             + _verdict(bool(flagged), spins, needed, top.p_adjusted, alpha,
                        _("a {bias} bias on a sector of {width} pockets").format(bias=_share(BIAS),
                                                                                 width=POWER_SECTOR_WIDTH),
                        minimum, _("in each run of {width} pockets").format(width=SECTOR_WIDTHS[0])))
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
    shares = ", ".join(_("{sector} {count} ({expected} expected)").format(
        sector=cell.name, count=cell.count, expected=formats.fixed(cell.expected, 1)) for cell in cells)
    words = (_("Sectors: {shares}; chi-square {statistic} with {degrees}.").format(
        shares=shares, statistic=formats.fixed(test.statistic, 2), degrees=_degrees(test.df)) + " "
             + _verdict(flagged, spins, needed, test.p_value, alpha,
                        _("a {bias} bias on {sector} ({pockets})").format(
                            bias=_share(BIAS), sector=smallest.name, pockets=_pockets(smallest.pockets)),
                        minimum, _("in each sector")))
    return {"cells": {cell.name: {"pockets": cell.pockets, "count": cell.count, "expected": cell.expected}
                      for cell in cells},
            "statistic": test.statistic, "df": test.df, "p_value": test.p_value, "flagged": flagged,
            "minimum_spins": minimum, "spins_needed": needed, "enough_spins": spins >= needed, "plain": words}


def _signature_section(groups: list[SignatureGroup], alpha: float) -> dict:
    needed = _needed_chi_square(UNIFORM, frozenset(range(SIGNATURE_SECTOR_WIDTH)), alpha / max(1, len(groups)))
    minimum = _minimum(1 / POCKETS)  # a group's distances fall in 37 cells
    rows = []
    for group in groups:
        flagged = group.spins >= minimum and group.p_adjusted < alpha
        croupier, direction = _group(group.croupier, group.direction)
        words = (_("{croupier}, {direction}: {spins}, {distance} (chi-square {statistic}, {degrees}).").format(
            croupier=croupier, direction=direction, spins=_spins(group.spins),
            distance=_distance(group.commonest_distance), statistic=formats.fixed(group.test.statistic, 1),
            degrees=_degrees(group.test.df)) + " "
                 + _verdict(flagged, group.spins, needed, group.p_adjusted, alpha,
                            _("a {bias} bias on a quarter of the wheel ({width} pockets) from the previous "
                              "result").format(bias=_share(BIAS), width=SIGNATURE_SECTOR_WIDTH),
                            minimum, _("at each distance")))
        rows.append({"croupier": group.croupier, "direction": group.direction, "spins": group.spins,
                     "distance_counts": list(group.distance_counts), "statistic": group.test.statistic,
                     "df": group.test.df, "p_value": group.test.p_value, "p_adjusted": group.p_adjusted,
                     "commonest_distance": group.commonest_distance, "flagged": flagged,
                     "minimum_spins": minimum, "enough_spins": group.spins >= needed, "plain": words})
    flagged_groups = [group for group, row in zip(groups, rows) if row["flagged"]]
    if not rows:
        words = _("Dealer signature: no pair of consecutive results yet.")
    elif all(group.spins < minimum for group in groups):
        where = _("its one croupier and direction group") if len(rows) == 1 else ngettext(
            "any of its {count} croupier and direction group", "any of its {count} croupier and direction groups",
            len(rows)).format(count=grouped(len(rows)))
        words = _("Dealer signature: too few spins to test in {where} (a group needs at least {minimum} spins, "
                  "{expected} expected at each distance).").format(where=where, minimum=grouped(minimum),
                                                                   expected=MIN_EXPECTED)
    elif flagged_groups:
        words = _("Dealer signature found for {groups}.").format(groups="; ".join(
            _("{croupier} ({direction}, corrected p = {p})").format(
                croupier=croupier, direction=direction, p=_p(group.p_adjusted))
            for group in flagged_groups for croupier, direction in [_group(group.croupier, group.direction)]))
    else:
        words = ngettext("No dealer signature among {count} croupier and direction group (Holm's correction). "
                         "Each group needs about {needed} spins to see a {bias} bias toward a quarter of the wheel at "
                         "least {power} of the time.",
                         "No dealer signature among {count} croupier and direction groups (Holm's correction). "
                         "Each group needs about {needed} spins to see a {bias} bias toward a quarter of the wheel at "
                         "least {power} of the time.", len(rows)).format(
            count=grouped(len(rows)), needed=_about(needed), bias=_share(BIAS), power=_share(POWER))
    return {"correction": "holm", "groups": rows, "minimum_spins": minimum, "spins_needed": needed, "plain": words}


def summarise(spins: Iterable | SpinColumns, wheel_order: Sequence[int], sectors: Mapping[str, frozenset[int]] | None,
              *, alpha: float = ALPHA, watched: tuple[Sequence[watching.Chart], int] | None = None) -> dict:
    """The summary for spins of one wheel with the given geometry (`sectors` None: no sector split,
    as on an American-numbered wheel, where the announced sectors do not exist, `PT-A 25`).
    `spins`: CountedSpin-like objects, or their columns (`SpinColumns`). `watched`: the watch's
    charts after the first of these spins (charts, how many), which it goes on from."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha}")
    if sorted(wheel_order) != list(range(POCKETS)):
        raise ValueError("the wheel order must hold each of 0..36 exactly once")
    columns = spins if isinstance(spins, SpinColumns) else _columns(spins)
    numbers = columns.numbers
    if numbers and max(numbers) >= POCKETS:
        for position, number in enumerate(numbers):
            checked_number(number, position)
    counts = [numbers.count(number) for number in range(POCKETS)]
    share = alpha / (6 if sectors else 5)  # one equal share per family that runs (Bonferroni)
    sections = {
        "chi_square": _chi_square_section(counts, share),
        "numbers": _numbers_section(counts, share),
        "max_count": _max_count_section(counts, share),
        "sectors": _sectors_section(counts, wheel_order, share),
        "sector_split": _split_section(counts, sectors, share) if sectors else None,
        "signature": _signature_section(column_signatures(numbers, columns.groups, columns.keys, wheel_order),
                                        share),
    }
    alerts = {name: section for name, section in sections.items() if section and _is_alert(section)}
    return {"spins": len(numbers), "wheel": columns.wheel, "alpha": alpha, "family_alpha": share,
            "power": POWER, "bias": BIAS, "counts": counts, **sections, "alerts": list(alerts),
            "alert_lines": [_ALERT_LINES[name](section, counts) for name, section in alerts.items()],
            "watch": _watch_section(numbers, wheel_order, watched)}


def _columns(spins: Iterable) -> SpinColumns:
    """CountedSpin-like objects as columns; refuses a number that is not a pocket, and spins of
    more than one wheel."""
    # One byte per number and four per (croupier, direction) group keep 500,000 spins in ~2.5 MB.
    numbers = bytearray()
    group_of = array("I")
    groups: dict[tuple[str | None, str | None], int] = {}
    wheels: set = set()
    for position, spin in enumerate(spins):
        numbers.append(checked_number(spin.number, position))
        key = (getattr(spin, "croupier", None), direction_name(getattr(spin, "direction", None)))
        group_of.append(groups.setdefault(key, len(groups)))
        wheels.add(getattr(spin, "wheel", None))
    if len(wheels) > 1:
        names = ", ".join(sorted(str(wheel) for wheel in wheels))
        raise ValueError(f"these spins come from several wheels ({names}): summarise each wheel apart "
                         "with summary_by_wheel")
    return SpinColumns(bytes(numbers), group_of, list(groups), next(iter(wheels), None))


def _run(pockets: Sequence[int]) -> str:
    return "-".join(str(n) for n in pockets)


def _watch_alarm(chart: watching.Chart) -> str:
    at = chart.alarm_at or 0  # only charts that raised an alert are worded
    if chart.kind == "pocket":
        return _("number {number} favoured, alert at spin {spin}").format(number=chart.pockets[0], spin=grouped(at))
    return _("adjacent pockets {pockets} favoured, alert at spin {spin}").format(
        pockets=_run(chart.pockets), spin=grouped(at))


def _watch_section(numbers: Sequence[int], wheel_order: Sequence[int],
                   watched: tuple[Sequence[watching.Chart], int] | None = None) -> dict:
    """The continuous watch (croupier.stats.watch): the only alerts that keep their rate however
    often the figures are looked at."""
    since, spun = watched or ((), 0)
    return watch_section(watching.watch(numbers[spun:], wheel_order, since, spun))


def watch_section(charts: Sequence[watching.Chart]) -> dict:
    """The summary's "watch" section from the charts as they stand (`watch`'s, or charts kept)."""
    alarms = sorted((chart for chart in charts if chart.alarm_at is not None), key=lambda chart: chart.alarm_at or 0)
    top = max(charts, key=lambda chart: chart.value)
    rate = _("Alerts come from the continuous watch: a fair wheel raises one in at most {share} of wheel-years, "
             "however often it is looked at (Page's CUSUM on each pocket and each run of {width} adjacent "
             "pockets).").format(share=_share(watching.ALPHA), width=watching.WIDTH)
    if alarms:
        status = ""
    elif top.value <= 0:
        status = _("No chart is above zero.")
    else:
        what = (_("number {number}").format(number=top.pockets[0]) if top.kind == "pocket"
                else _("adjacent pockets {pockets}").format(pockets=_run(top.pockets)))
        status = _("No alert; highest chart now: {what}, {share} of the way to the alert line.").format(
            what=what, share=_share(top.value / watching.THRESHOLD))
    return {"method": "cusum", "alpha": watching.ALPHA, "year_spins": watching.YEAR_SPINS,
            "threshold": watching.THRESHOLD, "pocket_ratio": watching.POCKET_RATIO,
            "sector_ratio": watching.SECTOR_RATIO, "width": watching.WIDTH,
            "alarms": [{"pockets": list(chart.pockets), "alarm_at": chart.alarm_at, "value": chart.value,
                        "highest": chart.highest} for chart in alarms],
            "alert_lines": [_watch_alarm(chart) for chart in alarms], "rate": rate, "status": status,
            "plain": f"{rate} {status}".strip()}


def _distance(pockets: int) -> str:
    return ngettext("commonest distance {count} pocket on", "commonest distance {count} pockets on", pockets).format(
        count=grouped(pockets))


def _uneven_pockets(section: dict, counts: list[int]) -> str:
    spins = sum(counts)
    worst = max(range(POCKETS), key=lambda number: abs(counts[number] * POCKETS - spins))
    return _("the 37 pockets are not evenly hit (p = {p}); furthest out: number {number}, {times}").format(
        p=_p(section["p_value"]), number=worst, times=_times(counts[worst], spins / POCKETS))


def _numbers_out_of_line(section: dict, counts: list[int]) -> str:
    rows = {row["number"]: row for row in section["rows"]}
    listed = ", ".join(f"{number} ({_times(rows[number]['count'], rows[number]['expected'])})"
                       for number in section["flagged"])
    return ngettext("number out of line: {listed}", "numbers out of line: {listed}",
                    len(section["flagged"])).format(listed=listed)


def _most_frequent(section: dict, counts: list[int]) -> str:
    return _("number {numbers} came up too often: {times}").format(
        numbers=_and(str(n) for n in section["numbers"]), times=_times(section["count"], section["expected"]))


def _hot_run(section: dict, counts: list[int]) -> str:
    top = section["windows"][0]
    pockets = "-".join(str(n) for n in top["pockets"])
    return _("adjacent pockets {pockets} out of line: {times}").format(
        pockets=pockets, times=_times(top["count"], top["expected"]))


def _uneven_split(section: dict, counts: list[int]) -> str:
    name, cell = max(section["cells"].items(), key=lambda item: abs(item[1]["count"] / item[1]["expected"] - 1))
    return _("the wheel's sectors are uneven: {sector} {times}").format(
        sector=name, times=_times(cell["count"], cell["expected"]))


def _signature_found(section: dict, counts: list[int]) -> str:
    return _("dealer signature: {groups}").format(groups="; ".join(
        _("{croupier} ({direction}), {distance}").format(
            croupier=croupier, direction=direction, distance=_distance(group["commonest_distance"]))
        for group in section["groups"] if group["flagged"]
        for croupier, direction in [_group(group["croupier"], group["direction"])]))


# Each alert in words that name the pocket, run of pockets, sector or croupier it is about.
_ALERT_LINES = {"chi_square": _uneven_pockets, "numbers": _numbers_out_of_line, "max_count": _most_frequent,
                "sectors": _hot_run, "sector_split": _uneven_split, "signature": _signature_found}


def _is_alert(section: dict) -> bool:
    if "groups" in section:
        return any(group["flagged"] for group in section["groups"])
    return bool(section["flagged"])


def summary(spins: Iterable | SpinColumns, numbering: str = "french", *, alpha: float = ALPHA,
            watched: tuple[Sequence[watching.Chart], int] | None = None) -> dict:
    """`summarise` for one wheel with the given numbering ("french" or "american"). The sector
    split exists only on the French numbering (`PT-A 25`)."""
    from croupier.rules import wheel

    sectors = None
    if numbering == "french":
        sectors = {"voisins": frozenset(wheel.VOISINS), "tiers": frozenset(wheel.TIERS),
                   "orphelins": frozenset(wheel.ORPHELINS)}
    return summarise(spins, wheel.numbering(numbering), sectors, alpha=alpha, watched=watched)


def watch_on(numbers: Sequence[int], since: Sequence[watching.Chart] = (), spun: int = 0,
             numbering: str = "french") -> list[watching.Chart]:
    """`watch` on a wheel with this numbering ("french" or "american"), going on from `since`."""
    from croupier.rules import wheel

    return watching.watch(numbers, wheel.numbering(numbering), since, spun)


def summary_by_wheel(spins: Iterable, numbering: str = "french", *, alpha: float = ALPHA) -> dict:
    """One summary per wheel (keyed by the spins' `wheel`), for a journal covering several."""
    by_wheel: dict = {}
    for spin in spins:
        by_wheel.setdefault(getattr(spin, "wheel", None), []).append(spin)
    return {wheel: summary(group, numbering, alpha=alpha) for wheel, group in by_wheel.items()}
