"""The procedures in the report's fold are typed records (`croupier.history.procedures`), the same
in a saved fold and read back; a fold saved when they were plain dicts still loads, as records, to
the same report."""
from __future__ import annotations

import io
import json

from croupier.cli import main as cli
from croupier.history.procedures import ClosingRecord, CorrectionRecord, OpeningRecord, VoidRecord
from croupier.journal import fold_codec, fold_stamp
from croupier.journal.report import REPORT_EVENTS, ReportFold, build_report
from croupier.journal.store import Journal

from journal_kit import write_shift


def folded(path) -> tuple[ReportFold, tuple[int, str]]:
    with Journal.open(path, read_only=True) as journal:
        fold = ReportFold()
        fold.add_all(journal.events(REPORT_EVENTS))
        return fold, journal.head


def saved_and_read(fold: ReportFold) -> ReportFold:
    buffer = io.BytesIO()
    fold_codec.write(fold, {"stamp": fold_stamp.stamp()}, buffer)
    buffer.seek(0)
    _header, document = fold_codec.read_header(buffer)
    return fold_codec.read_fold(document, buffer)


def test_the_folds_procedures_are_records_and_read_back_as_records(tmp_path):
    session = write_shift(tmp_path / "j.db")
    session.correct_result(spin=1, number=18, reason="misread", by="Boss", pin="9000")
    session.cash_out(colour="red", chips=200, by="Ana")
    session.close_table(by="Boss")
    session.close()
    fold, head = folded(tmp_path / "j.db")
    procedures = fold.procedures
    assert [type(v) for v in procedures.voids] == [VoidRecord]
    assert [type(c) for c in procedures.corrections] == [CorrectionRecord]
    assert [type(t) for t in procedures.tables] == [OpeningRecord, ClosingRecord]
    assert (procedures.voids[0].reason, procedures.corrections[0].number) == ("chip-fell", 18)
    again = saved_and_read(fold).procedures
    assert (again.voids, again.corrections, again.tables, again.alarms) == (
        procedures.voids, procedures.corrections, procedures.tables, procedures.alarms)
    assert build_report((), head, fold=saved_and_read(fold)).entry() == build_report((), head, fold=fold).entry()


def test_a_fold_saved_when_procedures_were_plain_dicts_still_loads_as_records(tmp_path, capsys):
    session = write_shift(tmp_path / "j.db")
    session.cash_out(colour="red", chips=200, by="Ana")
    session.close_table(by="Boss")
    session.close()
    fold, head = folded(tmp_path / "j.db")
    fresh = build_report((), head, fold=fold).entry()
    procedures = fold.procedures  # as the previous version kept them: each record a dict of its fields
    for name in ("voids", "corrections", "swaps", "replacements", "reliefs", "late_chips", "rebuilt", "tables"):
        setattr(procedures, name, [record.entry() for record in getattr(procedures, name)])
    procedures._alarms = {number: alarm.entry() for number, alarm in procedures._alarms.items()}
    procedures.tables[0].pop("currency")  # an opening saved before it kept its currency
    loaded = saved_and_read(fold)
    assert [type(t) for t in loaded.procedures.tables] == [OpeningRecord, ClosingRecord]
    assert all(type(v) is VoidRecord for v in loaded.procedures.voids)
    again = build_report((), head, fold=loaded).entry()
    fresh["table"][0]["currency"] = None  # what the old fold did not keep
    assert json.dumps(again, default=str) == json.dumps(fresh, default=str)
