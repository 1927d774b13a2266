"""Papers written one after the other in one process, each in the presentation it is given: its
language, time zone and currency, never the one written before it or the one around it."""
import io
from datetime import datetime, timezone

from croupier.export.csv_files import write_spins_csv
from croupier.export.shift_report import Heading, write_shift_report
from croupier.i18n import Presentation, _, current, showing
from croupier.review.shifts import list_shifts, load_entries, open_read_only

from pdf_reading import needs_pdf_tools, pdf_text

RUSSIAN = Presentation.of("ru", currency="RUB").in_zone("Europe/Moscow")
PORTUGUESE = Presentation.of("pt", currency="EUR").in_zone("Europe/Lisbon")


def test_a_russian_and_a_portuguese_csv_one_after_the_other(shift_journal):
    with open_read_only(shift_journal) as journal:
        russian, portuguese = io.StringIO(), io.StringIO()
        write_spins_csv(journal, russian, presentation=RUSSIAN)
        write_spins_csv(journal, portuguese, presentation=PORTUGUESE)
        english = io.StringIO()
        write_spins_csv(journal, english)  # the command's: English, the machine's zone
    ru_rows, pt_rows = russian.getvalue().splitlines(), portuguese.getvalue().splitlines()
    assert ru_rows[0].startswith("спин,время") and pt_rows[0].startswith("jogada,hora")
    assert english.getvalue().startswith("spin,time")
    ru_time, pt_time = ru_rows[1].split(",")[1], pt_rows[1].split(",")[1]
    assert ru_time.endswith("+03:00") and pt_time.endswith(("+00:00", "+01:00"))
    assert datetime.fromisoformat(ru_time) == datetime.fromisoformat(pt_time)  # the same moment


@needs_pdf_tools
def test_a_russian_and_a_portuguese_shift_report_one_after_the_other(shift_journal, tmp_path):
    papers = {}
    italian = Presentation.of("it").in_zone("Europe/Rome")
    with open_read_only(shift_journal) as journal, showing(italian):  # what a screen around them shows
        shift = list_shifts(journal)[-1]
        entries = load_entries(journal, shift)
        for name, presentation in (("ru", RUSSIAN), ("pt", PORTUGUESE)):
            heading = Heading(journal.head, journal.path.name, presentation.currency, "Casino")
            path = tmp_path / f"{name}.pdf"
            with path.open("wb") as out:
                write_shift_report(entries, shift, heading, out, datetime(2025, 9, 16, tzinfo=timezone.utc),
                                   presentation=presentation)
            papers[name] = " ".join(pdf_text(path).split())
        assert current() is italian and _("Time zone:") == "Fuso orario:"
    assert "Часовой пояс:" in papers["ru"] and "Europe/Moscow" in papers["ru"] and "RUB" in papers["ru"]
    assert "Fuso horário:" in papers["pt"] and "Europe/Lisbon" in papers["pt"] and "EUR" in papers["pt"]
    assert "Europe/Lisbon" not in papers["ru"] and "Europe/Moscow" not in papers["pt"]
    assert "Fuso orario" not in papers["ru"] + papers["pt"]
