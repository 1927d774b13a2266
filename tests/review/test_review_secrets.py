"""No PIN salt or PIN hash leaves the journal: a 4-digit PIN falls in minutes to whoever holds both,
so every export, report and review screen shows "redacted" instead (review_shift.SECRETS are the
salts and hashes of the test shift's three members of staff)."""
import csv
import json
from dataclasses import fields

import pytest
from pdf_reading import needs_pdf_tools, pdf_text
from review_shift import SECRETS
from textual.widgets import DataTable, Static

from croupier.cli import main as cli
from croupier.history.redaction import SECRET_FIELDS, redacted
from croupier.review.app import ReviewApp
from croupier.review.shifts import open_read_only
from croupier.table.events import EVENT_TYPES

SECRET_WORDS = {"pin", "salt", "secret", "password", "passphrase", "hash", "key", "token"}


def assert_no_secret(text: str, where: str) -> None:
    # Both ends of each: a line wrapped inside a secret still leaves one end whole.
    for secret in SECRETS:
        assert secret[:12] not in text and secret[-12:] not in text, f"a PIN secret is shown in {where}"


def test_every_event_field_named_like_a_secret_is_on_the_one_list():
    named_like_secrets = {field.name for event in EVENT_TYPES.values() for field in fields(event)
                          if SECRET_WORDS & set(field.name.lower().split("_"))}
    assert named_like_secrets == SECRET_FIELDS


def test_redacted_replaces_secret_fields_at_any_depth_and_keeps_the_rest():
    record = {"kind": "staff-registered", "name": "Ana", "salt": "ab", "pin_hash": "cd",
              "staff": [{"name": "Rui", "pin_hash": "ef"}]}
    assert redacted(record) == {"kind": "staff-registered", "name": "Ana", "salt": "redacted",
                                "pin_hash": "redacted", "staff": [{"name": "Rui", "pin_hash": "redacted"}]}
    assert record["salt"] == "ab"  # the record itself is left as it was


def test_the_events_csv_says_redacted_for_each_pin_salt_and_hash(shift_journal, tmp_path):
    target = tmp_path / "events.csv"
    assert cli(["review", "--db", str(shift_journal), "--csv-events", str(target)]) == 0
    assert_no_secret(target.read_text(encoding="utf-8-sig"), "the events CSV")
    staff = [json.loads(row["record"]) for row in csv.DictReader(target.open(encoding="utf-8-sig"))
             if row["kind"] == "staff-registered"]
    assert [(s["name"], s["role"], s["salt"], s["pin_hash"]) for s in staff] == [
        ("Marta", "pit-boss", "redacted", "redacted"), ("Ana", "croupier", "redacted", "redacted"),
        ("Rui", "croupier", "redacted", "redacted")]


@pytest.mark.parametrize("option, name", [("--csv-spins", "spins.csv"),
                                          pytest.param("--pdf", "shift.pdf", marks=needs_pdf_tools)])
def test_the_other_exports_hold_no_secret(shift_journal, tmp_path, option, name):
    target = tmp_path / name
    assert cli(["review", "--db", str(shift_journal), option, str(target)]) == 0
    # The PDF's text as a reader extracts it (its streams are compressed), the CSV as written.
    text = pdf_text(target) if name.endswith(".pdf") else target.read_text(encoding="utf-8-sig")
    assert_no_secret(text, name)


@pytest.mark.parametrize("form", [[], ["--json"]])
def test_the_shift_report_holds_no_secret(shift_journal, capsys, form):
    assert cli(["report", "--db", str(shift_journal), *form]) == 0
    assert_no_secret(capsys.readouterr().out, "the report")


def cell_texts(table: DataTable) -> str:
    return "\n".join(str(cell) for i in range(table.row_count) for cell in table.get_row_at(i))


async def test_no_review_screen_shows_a_secret(shift_journal):
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(160, 50)) as pilot:
        timeline = cell_texts(app.query_one("#timeline-table", DataTable))
        assert "croupier Ana registered by Marta" in timeline  # the registrations are listed...
        assert_no_secret(timeline, "the timeline")  # ...without their secrets
        for spin in "1234":
            await pilot.press("j", spin, "enter")
            assert_no_secret(str(app.query_one("#spin-detail", Static).render()), f"spin {spin}")
        for tab in "345":
            await pilot.press(tab)
            assert_no_secret("\n".join(cell_texts(table) for table in app.query(DataTable)), f"tab {tab}")
        await pilot.press("6")
        assert_no_secret(str(app.query_one("#statistics-text", Static).render()), "the statistics")
