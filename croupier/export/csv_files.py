"""CSV of the counted spins and of every event, streamed from the journal so a year-long journal
exports without being held in memory. Times are in the table's time zone, each with its offset
from UTC; the file starts with UTF-8's byte order mark, so a spreadsheet reads names right. Each
writer takes the presentation it writes in (its language and zones; the one shown without).

The header row is in the table's language, for the people who read the file; `machine=True` keeps
the column names below, the same in every language, for programs. The values are as recorded in
every case: names, colours, sources, event kinds and records are never translated."""
from __future__ import annotations

import csv
from typing import TextIO

from croupier.history.clock import iso
from croupier.history.redaction import redacted
from croupier.history.spins import standing_results
from croupier.history.timeline import describe
from croupier.i18n import N_, Presentation, _, current, showing
from croupier.rules.wheel import colour
from croupier.table.events import ResultCorrected, ResultRecorded

# The column names, as programs read them; people get each one in the table's language (the
# English headings are these names, as they always were).
SPIN_COLUMNS = (N_("spin"), N_("time"), N_("number"), N_("colour"), N_("recorded_number"), N_("source"),
                N_("confirmed_by"), N_("corrected_by"), N_("correction_reason"), N_("ball"), N_("croupier"),
                N_("direction"), N_("wheel_game"), N_("event"))
EVENT_COLUMNS = (N_("event"), N_("time"), N_("kind"), N_("description"), N_("hash"), N_("record"))


def header(columns: tuple[str, ...], machine: bool = False) -> list[str]:
    """The header row: the column names as they are (`machine`), else headings in the installed language."""
    return list(columns) if machine else [_(name) for name in columns]


def write_spins_csv(journal, out: TextIO, machine: bool = False, presentation: Presentation | None = None) -> int:
    """One row per counted spin up to the journal's head when opened (as far as its chain was
    checked), with the number that stands after any correction; returns the rows."""
    with showing(presentation or current()):
        last = journal.head[0]
        corrections = ((seq, event) for seq, event in journal.events([ResultCorrected]) if seq <= last)
        writer = csv.writer(out)
        writer.writerow(header(SPIN_COLUMNS, machine))
        rows = 0
        for seq, result, correction in standing_results(journal.events([ResultRecorded]), corrections):
            if seq > last:
                break
            number = correction.number if correction else result.number
            writer.writerow((result.spin, iso(result.time), number, colour(number), result.number,
                             result.source.value, result.confirmed_by or "", correction.by if correction else "",
                             correction.reason if correction else "", result.ball, result.croupier,
                             None if result.direction is None else result.direction.value,
                             "" if result.wheel_game is None else result.wheel_game, seq))
            rows += 1
        return rows


def write_events_csv(journal, out: TextIO, machine: bool = False, presentation: Presentation | None = None) -> int:
    """Every event with its hash and its full record, secrets redacted, each checked against the
    hash chain as it is read (a damaged journal raises JournalError naming the event); returns the rows."""
    from croupier.table.codec import canonical_json
    from croupier.table.events import to_record

    with showing(presentation or current()):
        writer = csv.writer(out)
        writer.writerow(header(EVENT_COLUMNS, machine))
        rows = 0
        for entry in journal.entries():
            event = entry.event
            writer.writerow((entry.seq, iso(event.time), event.kind, describe(event), entry.hash,
                             canonical_json(redacted(to_record(event))).decode()))
            rows += 1
        return rows
