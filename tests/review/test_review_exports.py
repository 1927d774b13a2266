"""`croupier review` exports: CSV of spins and events, the PDF shift report with the head hash, and
clear refusals that leave nothing half-written."""
import csv
import hashlib
import sqlite3

from croupier.commands.review import main
from croupier.journal.store import Journal
from croupier.table.events import decode

from pdf_reading import needs_pdf_tools, pdf_text, qpdf_check


def head_hash(path) -> str:
    with Journal.open(path, read_only=True) as journal:
        return journal.head[1]


def test_spins_csv_has_each_counted_spin_with_the_number_that_stands(shift_journal, tmp_path, capsys, table_zone):
    target = tmp_path / "spins.csv"
    assert main(["--db", str(shift_journal), "--csv-spins", str(target)]) == 0
    assert "4 spins" in capsys.readouterr().out
    assert target.read_bytes().startswith(b"\xef\xbb\xbfspin,")  # UTF-8 with its mark: a spreadsheet reads it right
    rows = list(csv.DictReader(target.open(encoding="utf-8-sig")))
    assert [(r["spin"], r["number"], r["colour"]) for r in rows] == [
        ("1", "17", "black"), ("2", "32", "red"), ("3", "24", "black"), ("4", "0", "green")]
    corrected = rows[2]
    assert corrected["recorded_number"] == "5" and corrected["corrected_by"] == "Marta"
    assert corrected["correction_reason"] == "sensor misread; ball seen in 24"
    assert rows[1]["source"] == "keypad" and rows[1]["confirmed_by"] == "Ana"
    assert [r["croupier"] for r in rows] == ["Ana", "Ana", "Rui", "Rui"]
    assert rows[3]["ball"] == "B2" and rows[0]["time"] == "2025-09-16T21:03:30+01:00"


def test_events_csv_holds_every_event_with_its_hash_and_full_record(shift_journal, tmp_path):
    target = tmp_path / "events.csv"
    assert main(["--db", str(shift_journal), "--csv-events", str(target)]) == 0
    rows = list(csv.DictReader(target.open(encoding="utf-8-sig")))
    assert [int(r["event"]) for r in rows] == list(range(1, 39))
    assert rows[-1]["hash"] == head_hash(shift_journal)
    void = next(r for r in rows if r["kind"] == "spin-voided")
    assert decode(void["record"]).put_back == 17
    assert "VOID (chip-fell" in void["description"]


@needs_pdf_tools
def test_pdf_shift_report_prints_the_head_hash_and_the_shift(shift_journal, tmp_path, capsys):
    target = tmp_path / "shift.pdf"
    assert main(["--db", str(shift_journal), "--pdf", str(target)]) == 0
    digest = head_hash(shift_journal)
    assert digest in capsys.readouterr().out
    assert "No syntax or stream encoding errors found" in qpdf_check(target)
    text = pdf_text(target)
    assert f"Head hash: {digest}" in text
    assert "Counted spins 4, voids 1, corrections 1, alarms 1, ball swaps 1, reliefs 2" in text
    assert "sensor (corrected from 5)" in text
    assert "WHEEL-INTEGRITY STATISTICS" in text


def test_without_its_font_the_pdf_is_refused_naming_the_package_and_nothing_is_written(shift_journal, tmp_path,
                                                                                     capsys, monkeypatch):
    from croupier.export import pdf

    monkeypatch.setattr(pdf, "FONT_FOLDERS", (tmp_path / "no-fonts",))
    target = tmp_path / "shift.pdf"
    assert main(["--db", str(shift_journal), "--pdf", str(target)]) == 1
    error = capsys.readouterr().err
    assert "DejaVuSansMono.ttf" in error and "apt install fonts-dejavu-core" in error
    assert list(tmp_path.glob("shift.pdf*")) == []


def test_a_missing_journal_is_refused_and_nothing_is_written(tmp_path, capsys):
    target = tmp_path / "spins.csv"
    assert main(["--db", str(tmp_path / "nope.db"), "--csv-spins", str(target)]) == 1
    assert "no such journal" in capsys.readouterr().err
    assert not target.exists() and not (tmp_path / "nope.db").exists()


def test_an_unknown_shift_is_refused_by_number(shift_journal, tmp_path, capsys):
    assert main(["--db", str(shift_journal), "--pdf", str(tmp_path / "r.pdf"), "--shift", "9"]) == 2
    assert "--shift '9': give a shift number from 1 to 1" in capsys.readouterr().err
    assert list(tmp_path.glob("r.pdf*")) == []


def test_a_tampered_journal_fails_the_export_and_leaves_no_file(shift_journal, tmp_path, capsys):
    with sqlite3.connect(shift_journal) as raw:  # behind the journal's back, as an intruder would
        raw.execute("DROP TRIGGER events_no_update")
        raw.execute("UPDATE events SET body = replace(body, '\"number\":17', '\"number\":18') WHERE seq = 11")
    before = hashlib.sha256(shift_journal.read_bytes()).hexdigest()
    target = tmp_path / "events.csv"
    target.write_text("previous export\n")
    assert main(["--db", str(shift_journal), "--csv-events", str(target)]) == 1
    assert "is damaged: event 11: its content does not match its hash" in capsys.readouterr().err
    assert target.read_text() == "previous export\n"  # the good file is not clobbered
    assert list(tmp_path.glob(".events.csv.*")) == []
    assert hashlib.sha256(shift_journal.read_bytes()).hexdigest() == before


def test_review_is_a_registered_command():
    from croupier.cli import COMMANDS

    assert COMMANDS["review"][0] == "croupier.commands.review"


def test_an_export_gets_the_mode_the_users_umask_gives_a_new_file(shift_journal, tmp_path):
    import os
    import stat

    previous = os.umask(0o022)
    try:
        assert main(["--db", str(shift_journal), "--csv-spins", str(tmp_path / "shared.csv")]) == 0
        os.umask(0o077)
        assert main(["--db", str(shift_journal), "--csv-events", str(tmp_path / "private.csv")]) == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "shared.csv").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "private.csv").stat().st_mode) == 0o600
