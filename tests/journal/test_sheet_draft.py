"""The payout sheet's draft beside the journal: written whole or not at all, read back only when it is
whole, signed, safe and of the sheet asked for; never a figure of the record."""
import dataclasses
import json
import os
from datetime import datetime, timedelta, timezone

import pytest

from croupier.journal.sheet_draft import COPY_TOLERANCE_S, DraftRefused, SheetDraft, draft_path, load, save

KEY = b"k" * 32
DRAFT = SheetDraft(table="T1", journal="ab" * 32, spin=7, number=17, result_time="2026-01-01T10:00:00+00:00",
                   counts=(("red", "column2", 3), ("blue", "17", 1)), played=("green",))
SHEET = dict(table="T1", journal="ab" * 32, spin=7, number=17, result_time="2026-01-01T10:00:00+00:00")


@pytest.fixture
def path(tmp_path):
    return draft_path(tmp_path / "journal.db")


def read(path, key=KEY, **asked):
    """The draft at `path` as saved, less the time `save` stamped on it."""
    return dataclasses.replace(load(path, key, **{**SHEET, **asked}), written="")


def test_a_draft_reads_back_as_written_beside_the_journal(path):
    assert path.name == "journal.db.sheet"
    before = datetime.now(timezone.utc)
    save(path, DRAFT, KEY)
    assert read(path) == DRAFT
    assert before <= datetime.fromisoformat(load(path, KEY, **SHEET).written) <= datetime.now(timezone.utc)
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_no_draft_is_none(path):
    assert load(path, KEY, **SHEET) is None


def test_a_write_cut_short_leaves_the_draft_before_it(path):
    save(path, DRAFT, KEY)
    path.with_name(path.name + ".partial").write_text('{"format": "croupier sh')  # a crash mid-write
    assert read(path) == DRAFT
    save(path, DRAFT, KEY)  # the next write is not stopped by the half-written file
    assert not path.with_name(path.name + ".partial").exists()


@pytest.mark.parametrize(("field", "value"), [
    ("spin", True), ("spin", "7"), ("counts", [["red", "column2", 0]]), ("counts", [["red", "column2", 10000]]),
    ("counts", [["red", "column2"]]), ("counts", [["red", 5, 1]]), ("played", "green"), ("format", "other"),
    ("written", "yesterday"), ("written", "2026-01-01T10:00:00"), ("written", 1767261600),
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


def test_an_older_draft_of_the_same_sheet_copied_back_is_refused_naming_when_it_was_written(path):
    """A copy taken after the first count and put back after more were typed: validly signed and of
    this very sheet, but its file is dated when it was put back, not when it was written."""
    save(path, DRAFT, KEY)
    copy = path.read_bytes()
    written = load(path, KEY, **SHEET).written
    save(path, dataclasses.replace(DRAFT, counts=DRAFT.counts + (("green", "17", 2),)), KEY)
    path.write_bytes(copy)  # put back now
    later = datetime.fromisoformat(written) + timedelta(seconds=COPY_TOLERANCE_S + 30)
    os.utime(path, (later.timestamp(), later.timestamp()))
    with pytest.raises(DraftRefused) as refused:
        load(path, KEY, **SHEET)
    assert refused.value.reason == "copied" and refused.value.facts["written"] == written
    assert not refused.value.ours  # left as found


def test_a_draft_whose_file_is_dated_as_it_was_written_is_used(path):
    save(path, DRAFT, KEY)
    written = datetime.fromisoformat(load(path, KEY, **SHEET).written)
    near = written + timedelta(seconds=COPY_TOLERANCE_S - 5)  # a slow card, a coarse file system
    os.utime(path, (near.timestamp(), near.timestamp()))
    assert read(path) == DRAFT
