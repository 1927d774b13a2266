"""The PDF shift report on A4 paper, as a reader shows it: sound (qpdf --check), its text found by
pdftotext, names in any alphabet, wide tables on landscape pages with long cells wrapped in their
column, and what a regulator asks of the paper: table, casino, dates in a stated time zone,
currency, the journal's head hash and the signatories."""
from decimal import Decimal

import pytest

from croupier.commands.review import main
from croupier.journal.store import Journal
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Ball, Role, Source

from pdf_reading import needs_pdf_tools, pdf_pages, pdf_text, qpdf_check

pytestmark = needs_pdf_tools
BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))


@pytest.fixture
def pdf(shift_journal, tmp_path):
    target = tmp_path / "shift.pdf"
    assert main(["--db", str(shift_journal), "--pdf", str(target), "--casino", "Casino Estoril"]) == 0
    qpdf_check(target)
    return target


def page_with(pages, text: str):
    return next(page for page in pages if any(text in line for line in page[2]))


@pytest.mark.parametrize("title", ["Alarms (1)", "Colour ledger and statements (PT-A 9)", "Croupiers (2)"])
def test_wide_tables_are_printed_on_landscape_pages(pdf, title):
    width, height, _ = page_with(pdf_pages(pdf), title)
    assert width > height  # landscape A4


def test_the_first_page_stays_portrait_with_the_narrow_tables(pdf):
    width, height, lines = pdf_pages(pdf)[0]
    assert (round(width), round(height)) == (595, 842)
    text = "\n".join(lines)
    assert "Counted spins (4)" in text and "Reliefs (2)" in text


def test_an_alarm_s_detail_is_printed_whole_wrapped_in_its_column(pdf):
    _, _, lines = page_with(pdf_pages(pdf), "Alarms (1)")
    words = " ".join(" ".join(lines).split())
    # review_shift.py's alarm 1, every word of it, none cut with "..."
    assert "ball launched anticlockwise twice in a row: the launch alternates (PT-A" in words
    assert "21)" in words and "..." not in words


def test_the_paper_names_the_table_casino_dates_zone_currency_head_and_signatories(pdf, shift_journal, tmp_path):
    text = pdf_text(pdf)
    with Journal.open(shift_journal, read_only=True) as journal:
        digest = journal.head[1]
    assert "Casino: Casino Estoril" in text
    assert f"Head hash: {digest}" in text
    assert "Time zone: every time in this report is in" in text and "(UTC" in text
    assert "Currency: not given" in text  # no configuration: the paper says so rather than guess
    assert "Pit boss: name" in text and "Inspector: name" in text and "signature" in text
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "EUR"\nlanguage = "en"\n')  # the paper speaks the table's language
    target = tmp_path / "eur.pdf"
    assert main(["--db", str(shift_journal), "--pdf", str(target), "--config", str(settings)]) == 0
    assert "Currency: EUR" in pdf_text(target)
    assert "Casino: ____" in pdf_text(target)


def line_protocol_shift(path, clock: FakeClock) -> None:
    """A table opened under the id T7 by "Ана Петрова", whose wheel (the `line` protocol) gives no
    direction: two spins from the sensor, one corrected."""
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ана Петрова", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ана Петрова",
                       pin="1111", table_id="T7")
    for number in (17, 4):
        clock.advance(seconds=60)
        session.launch(direction=None, source=Source.SENSOR)
        session.sensor_result(number=number)
        session.payouts_done()
    session.correct_result(spin=2, number=5, reason="misread", by="Boss", pin="9000")
    session.close()


def test_a_line_protocol_journal_with_a_cyrillic_croupier_prints(tmp_path):
    journal = tmp_path / "line.db"
    line_protocol_shift(journal, FakeClock())
    target = tmp_path / "line.pdf"
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "RUB"\nlanguage = "en"\n')
    assert main(["--db", str(journal), "--pdf", str(target), "--config", str(settings)]) == 0
    qpdf_check(target)
    text = pdf_text(target)
    assert "Ана Петрова" in text
    assert "Table: T7, pt-americana" in text and "Currency: RUB" in text
    assert "not reported" in text  # the direction the wheel did not give


def test_the_shift_on_paper_starts_at_the_opening_not_at_staff_registration(tmp_path):
    from croupier.history.clock import stamp

    clock = FakeClock()
    journal = tmp_path / "j.db"
    session = TableSession.open(journal, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    clock.advance(seconds=3 * 3600)  # the table opens three hours after the staff were registered
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    opened = clock.now()
    clock.advance(seconds=60)
    session.launch(direction=None, source=Source.SENSOR)
    session.sensor_result(number=4)
    session.close()
    target = tmp_path / "shift.pdf"
    assert main(["--db", str(journal), "--pdf", str(target)]) == 0
    assert f"Shift: 1, {stamp(opened)} to " in pdf_text(target)


def two_days(path) -> None:
    """A shift on 2025-01-06 (Ana deals two spins, Rui one) and another on 2025-01-07 (Rui)."""
    clock = FakeClock()
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    for croupiers, numbers in ((("Ana", "Ana", "Rui"), (17, 4, 26)), (("Rui",), (33,))):
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier=croupiers[0],
                           pin="1111" if croupiers[0] == "Ana" else "2222")
        for croupier, number in zip(croupiers, numbers):
            if croupier != session.state.staff_on(Role.CROUPIER):
                session.relieve(role=Role.CROUPIER, incoming=croupier, pin="2222")
            clock.advance(seconds=60)
            session.launch(direction=None, source=Source.SENSOR)
            session.sensor_result(number=number)
            session.payouts_done()
        session.close_table(by="Boss")
        clock.advance(seconds=24 * 3600)
    session.close()


def test_paper_for_a_date_range_and_for_one_croupier(tmp_path, capsys):
    journal, both, rui = tmp_path / "j.db", tmp_path / "both.pdf", tmp_path / "rui.pdf"
    two_days(journal)
    assert main(["--db", str(journal), "--pdf", str(both), "--from", "2025-01-06", "--to", "2025-01-07"]) == 0
    text = pdf_text(both)
    assert "Shifts: 1-2, " in text and "Counted spins 4," in text
    # the statistics are the range's, headed so: not the first shift's
    assert "shifts 1-2: 6 Jan 2025, " in text and "shift 1:" not in text
    assert main(["--db", str(journal), "--pdf", str(rui), "--from", "2025-01-06", "--to", "2025-01-07",
                 "--croupier", "Rui"]) == 0
    text = pdf_text(rui)
    assert "Croupier: Rui" in text and "Counted spins 2," in text and "Colour ledger" not in text
    capsys.readouterr()
    assert main(["--db", str(journal), "--pdf", str(rui), "--from", "2025-01-08", "--to", "2025-01-07"]) == 2
    assert "--from 2025-01-08 is after --to 2025-01-07" in capsys.readouterr().err
    assert main(["--db", str(journal), "--pdf", str(rui), "--croupier", "Eva"]) == 2
    assert "'Eva' dealt no spin" in capsys.readouterr().err
