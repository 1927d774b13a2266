"""The pocket frequencies as a bar chart in wheel order, in plain terminal text: one line per
pocket, so a region of the wheel that comes up too often shows as a run of long bars."""
from __future__ import annotations

import math
from collections.abc import Sequence

from croupier.stats.spins import POCKETS
from croupier.i18n import _, formats, ngettext
from croupier.stats.words import grouped

_EIGHTHS = " ▏▎▍▌▋▊▉"
EXPECTED_MARK = "┊"


ASCII_MARK = "|"


def _bar(length: float, ascii: bool) -> str:
    whole = int(length)
    if ascii:
        return "#" * round(length)
    eighths = int((length - whole) * 8)
    return "█" * whole + (_EIGHTHS[eighths] if eighths else "")


def wheel_chart(counts: Sequence[int], wheel_order: Sequence[int], width: int = 40, ascii: bool = False) -> str:
    """Lines `number bar count z` in wheel order; `┊` marks where a fair wheel's bar would end.
    `ascii` draws with `#` and `|` for printers and fonts without block characters."""
    if width < 10:
        raise ValueError(f"the chart needs a width of at least 10 columns, got {width}")
    total = sum(counts)
    expected = total / POCKETS
    spread = math.sqrt(total * (1 / POCKETS) * (1 - 1 / POCKETS))
    scale = width / max(max(counts), expected, 1)
    mark = round(expected * scale)
    expected_mark = ASCII_MARK if ascii else EXPECTED_MARK
    lines = [f"{_('pocket'):>6}  {'':{width}}  {_('count'):>7}  {'z':>5}"]
    for number in wheel_order:
        count = counts[number]
        bar = _bar(count * scale, ascii).ljust(width + 1)
        if total and bar[mark] == " ":
            bar = bar[:mark] + expected_mark + bar[mark + 1:]
        z = (count - expected) / spread if spread else 0.0
        lines.append(f"{number:>6}  {bar[:width + 1]:{width + 1}} {count:>7}  {z:+5.1f}")
    lines.append(f"{'':>6}  {expected_mark} = " + ngettext(
        "{expected} spins per pocket on a fair wheel ({count} spin)",
        "{expected} spins per pocket on a fair wheel ({count} spins)", total).format(
        expected=formats.fixed(expected, 1), count=grouped(total)))
    return "\n".join(lines)
