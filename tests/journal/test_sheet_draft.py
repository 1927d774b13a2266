"""The payout sheet's draft beside the journal: written whole or not at all, read back only when it is
whole, signed, safe and of the sheet asked for; never a figure of the record."""
import json
import os

import pytest

from croupier.journal.sheet_draft import DraftRefused, SheetDraft, draft_path, load, save

KEY = b"k" * 32
DRAFT = SheetDraft(table="T1", journal="ab" * 32, spin=7, number=17, result_time="2026-01-01T10:00:00+00:00",
                   counts=(("red", "column2", 3), ("blue", "17", 1)), played=("green",))
SHEET = dict(table="T1", journal="ab" * 32, spin=7, number=17, result_time="2026-01-01T10:00:00+00:00")


@pytest.fixture
def path(tmp_path):
    return draft_path(tmp_path / "journal.db")


def test_a_draft_reads_back_as_written_beside_the_journal(path):
    assert path.name == "journal.db.sheet"
    save(path, DRAFT, KEY)
    assert load(path, KEY, **SHEET) == DRAFT
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_no_draft_is_none(path):
    assert load(path, KEY, **SHEET) is None


def test_a_write_cut_short_leaves_the_draft_before_it(path):
    save(path, DRAFT, KEY)
    path.with_name(path.name + ".partial").write_text('{"format": "croupier sh')  # a crash mid-write
    assert load(path, KEY, **SHEET) == DRAFT
    save(path, DRAFT, KEY)  # the next write is not stopped by the half-written file
    assert not path.with_name(path.name + ".partial").exists()


@pytest.mark.parametrize(("field", "value"), [
    ("spin", True), ("spin", "7"), ("counts", [["red", "column2", 0]]), ("counts", [["red", "column2", 10000]]),
    ("counts", [["red", "column2"]]), ("counts", [["red", 5, 1]]), ("played", "green"), ("format", "other"),
])
def test_a_draft_with_a_field_of_the_wrong_shape_is_refused(path, field, value):
    save(path, DRAFT, None)
    document = json.loads(path.read_text())
    document[field] = value
    path.write_text(json.dumps(document))
    with pytest.raises(DraftRefused) as refused:
        load(path, None, **SHEET)
    assert refused.value.reason == "unreadable"


def test_a_draft_changed_after_it_was_signed_is_refused(path):
    save(path, DRAFT, KEY)
    document = json.loads(path.read_text())
    document["counts"][0][2] = 30
    path.write_text(json.dumps(document))
    with pytest.raises(DraftRefused, match="unreadable"):
        load(path, KEY, **SHEET)


@pytest.mark.parametrize(("asked", "reason", "ours"), [
    ({"table": "T2"}, "table", False), ({"journal": "cd" * 32}, "journal", False), ({"spin": 8}, "spin", True),
    ({"number": 18}, "number", True), ({"result_time": "2026-01-01T10:05:00+00:00"}, "result", True),
])
def test_a_draft_of_another_sheet_is_refused_naming_why(path, asked, reason, ours):
    save(path, DRAFT, KEY)
    with pytest.raises(DraftRefused) as refused:
        load(path, KEY, **{**SHEET, **asked})
    assert (refused.value.reason, refused.value.ours) == (reason, ours)


def test_a_draft_others_may_write_is_refused(path):
    save(path, DRAFT, KEY)
    os.chmod(path, 0o646)
    with pytest.raises(DraftRefused, match="unsafe"):
        load(path, KEY, **SHEET)
