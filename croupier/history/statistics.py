"""The statistics as the review and the shift report show them: the summary of a shift's counted
spins (or of any run of spins) on the wheel numbering of the shift's profile, in plain words."""
from __future__ import annotations

from collections.abc import Iterable

from croupier.history.records import Entry, numbered
from croupier.history.spins import counted_spins
from croupier.i18n import _, ngettext
from croupier.rules.wheel import numbering as wheel_numbering
from croupier.stats import CountedSpin, summary, wheel_chart
from croupier.stats.spins import SpinColumns
from croupier.stats.words import grouped


def entries_spins(entries: Iterable[Entry]) -> list[CountedSpin]:
    """The counted spins among decoded journal entries (a shift's)."""
    return counted_spins(numbered(entries))


def one_look_words() -> str:
    """What the tests of a single look are worth: said wherever they are shown beside the watch."""
    return _("The tests below are for one look at these spins: each holds its 5% for that one look only, and "
             "a fair wheel looked at again and again will sooner or later read \"evidence of bias\" in one of "
             "them. They raise no alert.")


def statistics_text(spins: list[CountedSpin] | SpinColumns, numbering: str, scope: str, ascii: bool = False,
                    watched: tuple | None = None) -> str:
    """`watched`: the watch's charts after the first of these spins, to go on from (a checkpoint's)."""
    result = summary(spins, numbering, watched=watched)
    counted = ngettext("{count} counted spin", "{count} counted spins", result["spins"]).format(
        count=grouped(result["spins"]))
    lines = [f"{scope}: {counted}", ""]
    lines.extend(_("ALERT: {alert}.").format(alert=line) for line in result["watch"]["alert_lines"])
    lines += [result["watch"]["plain"], "", one_look_words()]
    lines.extend("  " + _("One look: {finding}.").format(finding=line) for line in result["alert_lines"])
    for name in ("chi_square", "numbers", "max_count", "sectors", "sector_split", "signature"):
        section = result[name]
        if section is not None:
            lines.append("- " + section["plain"])
    for group in result["signature"]["groups"]:
        lines.append("    " + group["plain"])
    chart = wheel_chart(result["counts"], wheel_numbering(numbering), ascii=ascii)
    return "\n".join(lines + ["", chart])
