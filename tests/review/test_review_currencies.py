"""A journal whose shifts were played in different currencies: every amount is in its own shift's
currency and the totals are per currency, never one sum across them, in the text report, `--json`,
the report CSV, the PDF and the review's tables. A journal from before a shift's currency was fixed,
whose currency changed with money already taken, is split at the change and says so."""
from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Ball, ContextChanged, Role, Stake

from pdf_reading import needs_pdf_tools, pdf_text

BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))

# By hand. Shift 1, EUR: red 100 chips at 5 = 500 sold; 17 pays red's plein 35 chips = 175; red
# cashes out 130 chips = 650: the table lost 150 EUR. Shift 2, RUB: blue 50 chips at 100 = 5,000
# sold; 5 pays blue's plein 35 chips = 3,500; blue cashes out 80 chips = 8,000: lost 3,000 RUB.
# One sum across them (5,500 bought, 8,650 cashed out, -3,150) is the figure no format may print.
ACROSS = ("5500", "5,500", "8650", "8,650", "3150", "3,150")


def open_in(session, currency: str) -> None:
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue"), balls=BALLS, croupier="Ana",
                       pin="1111", currency=currency, time_zone="Europe/Lisbon", posted_values=(100,))


def spin(session, clock, number: int, colour: str) -> None:
    clock.advance(seconds=60)
    session.launch(direction=Direction.CLOCKWISE)
    session.enter_result(number=number)
    session.confirm_result()
    session.record_payouts(spin=session.state.last_result.spin, played=(colour,),
                           paid={colour: (Stake(bet=str(number), chips=1),)})


def euro_spin(path):
    """Staff, a table opened in euros, red given 100 chips at 5 and a spin on 17 paying its plein."""
    clock = FakeClock()
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    open_in(session, "EUR")
    session.assign_colour(colour="red", player="seat 1", chip_value=Decimal("5"), chips=100, by="Ana")
    spin(session, clock, 17, "red")
    return session, clock


@pytest.fixture(scope="module")
def two_currencies(tmp_path_factory):
    path = tmp_path_factory.mktemp("currencies") / "journal.db"
    session, clock = euro_spin(path)
    session.cash_out(colour="red", chips=130, by="Ana")
    session.close_table(by="Boss")
    clock.advance(seconds=3600)
    open_in(session, "RUB")
    session.assign_colour(colour="blue", player="seat 2", chip_value=Decimal("100"), chips=50, by="Ana")
    spin(session, clock, 5, "blue")
    session.cash_out(colour="blue", chips=80, by="Ana")
    session.close_table(by="Boss")
    session.close()
    return path


def out_of(capsys, *arguments) -> str:
    assert cli(list(arguments)) == 0
    return capsys.readouterr().out


def test_json_keeps_each_figure_in_its_own_currency_and_totals_per_currency(two_currencies, capsys):
    report = json.loads(out_of(capsys, "report", "--db", str(two_currencies), "--json"))
    assert (report["currency"], report["currencies"]) == (None, ["EUR", "RUB"])
    money = {m["currency"]: m for m in report["money_by_currency"]}
    assert (money["EUR"]["bought_money"], money["EUR"]["cashed_out_money"], money["EUR"]["table_result_money"]) == (
        "500", "650", "-150")
    assert (money["RUB"]["bought_money"], money["RUB"]["cashed_out_money"], money["RUB"]["table_result_money"]) == (
        "5000", "8000", "-3000")
    assert report["totals"]["bought_money"] is None and report["totals"]["table_result_money"] is None
    assert [(s["currency"], s["table_result_money"]) for s in report["shift_results"]] == [
        ("EUR", "-150"), ("RUB", "-3000")]
    assert [(c["colour"], c["currency"]) for c in report["colour_ledger"]] == [("red", "EUR"), ("blue", "RUB")]
    (ana,) = report["croupiers"]
    assert ana["paid_money"] is None
    assert [(p["currency"], p["money"], p["chips_by_value"]) for p in ana["paid_by_currency"]] == [
        ("EUR", "175", {"5": 35}), ("RUB", "3500", {"100": 35})]


def test_the_text_report_names_each_amounts_currency_and_totals_each(two_currencies, capsys):
    text = out_of(capsys, "report", "--db", str(two_currencies))
    assert "Amounts in EUR, RUB: each with its own shift's currency" in text
    assert "Totals in EUR: bought 500.00 EUR, cashed out 650.00 EUR" in text
    assert "Totals in RUB: bought 5,000.00 RUB, cashed out 8,000.00 RUB" in text
    assert "the table lost 150.00 EUR" in text and "the table lost 3,000.00 RUB" in text
    assert "paid 175.00 EUR; 3,500.00 RUB (35 x 5.00 EUR, 35 x 100.00 RUB)" in text
    assert not any(figure in text for figure in ACROSS)


def test_the_report_csv_writes_each_row_in_its_currency_and_totals_per_currency(two_currencies, tmp_path, capsys):
    target = tmp_path / "report.csv"
    assert cli(["review", "--db", str(two_currencies), "--csv-report", str(target), "--machine-headers"]) == 0
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8-sig"))))
    totals = {(r["currency"], r["figure"]): r["amount"] for r in rows if r["section"] == "totals"}
    assert (totals["EUR", "bought"], totals["EUR", "table_result"]) == ("500", "-150")
    assert (totals["RUB", "bought"], totals["RUB", "table_result"]) == ("5000", "-3000")
    assert {r["currency"] for r in rows} == {"EUR", "RUB"}
    assert {(r["name"], r["currency"], r["amount"]) for r in rows if r["figure"] == "paid_money"} == {
        ("Ana", "EUR", "175"), ("Ana", "RUB", "3500")}
    assert not any(r["amount"] in ACROSS for r in rows)


@needs_pdf_tools
def test_the_pdf_over_both_shifts_totals_each_currency(two_currencies, tmp_path):
    target = tmp_path / "both.pdf"
    assert cli(["review", "--db", str(two_currencies), "--pdf", str(target), "--from", "2025-01-06",
                "--to", "2025-01-07"]) == 0
    text = pdf_text(target)
    assert "Totals in EUR: Colours: bought 500.00 EUR" in text
    assert "Totals in RUB: Colours: bought 5,000.00 RUB" in text
    assert "650.00 EUR" in text and "8,000.00 RUB" in text
    assert not any(figure in text for figure in ACROSS)


def test_the_reviews_tables_name_each_shifts_currency(two_currencies):
    from croupier.history.ledger import ledger_table
    from croupier.history.shift_results import shift_result_table
    from croupier.journal.store import Journal
    from croupier.reports.shift import REPORT_EVENTS, build_report

    with Journal.open(two_currencies, read_only=True) as journal:
        report = build_report(journal.events(REPORT_EVENTS), journal.head)
    several = len(report.money) > 1
    shifts = shift_result_table(report.shift_results, several=several)
    assert [row[-1] for row in shifts.rows if row[1] == "table"] == ["lost 150.00 EUR", "lost 3,000.00 RUB"]
    ledger = ledger_table(report.colour_ledger, several=several)
    assert [row[4] for row in ledger.rows] == ["100 = 500.00 EUR", "50 = 5,000.00 RUB"]


def older_journal_changing_currency_mid_shift(path) -> None:
    """As a journal from before the change was refused: euros taken, then RUB recorded in the same shift."""
    session, clock = euro_spin(path)
    clock.advance(seconds=600)

    def old_change(state, now):
        return [ContextChanged(time=now, currency="RUB", time_zone=None, previous_currency="EUR",
                               previous_time_zone=None, reason="house rule", by="Boss")]

    session.run(old_change)
    session.assign_colour(colour="blue", player="seat 2", chip_value=Decimal("100"), chips=50, by="Ana")
    session.cash_out(colour="blue", chips=50, by="Ana")
    session.cash_out(colour="red", chips=130, by="Ana")
    session.close_table(by="Boss")
    session.close()


def test_a_shift_whose_currency_changed_with_money_taken_is_split_and_flagged(tmp_path, capsys):
    path = tmp_path / "old.db"
    older_journal_changing_currency_mid_shift(path)
    report = json.loads(out_of(capsys, "report", "--db", str(path), "--json"))
    first, second = report["shift_results"]
    assert (first["currency"], first["mixed_currencies"], first["currency_changed_to"]["currency"]) == (
        "EUR", True, "RUB")
    assert first["colours_in_play_at_end"] == ["red"] and first["provisional"]
    assert (second["currency"], second["currency_changed_from"]["currency"]) == ("RUB", "EUR")
    # red's cash-out after the change is no RUB result: the part says so rather than "the table lost 650 RUB"
    assert second["colours_across_currency_change"] == ["red"] and second["provisional"]
    (red,) = [c for c in report["colour_ledger"] if c["colour"] == "red"]
    assert (red["currency"], red["currency_changed_in_play"]) == ("EUR", "RUB")
    money = {m["currency"]: m for m in report["money_by_currency"]}
    assert money["RUB"]["bought_money"] == "5000"  # blue only: red mixes both and is in neither
    assert money["EUR"]["bought_money"] == "0"
    text = out_of(capsys, "report", "--db", str(path))
    assert "MIXED CURRENCIES: the currency changed to RUB at" in text
    assert "red in play across the change" in text
    assert "MIXED CURRENCIES: red (seat 1) was given in EUR" in text
    assert "-650.00 RUB counted, not a result: it mixes currencies" in text and "the table lost" not in text
    assert "(MIXED CURRENCIES: EUR -> RUB, in no total)" in text  # on red's line of the colour ledger


def test_one_shift_is_reported_alone_in_every_format(two_currencies, tmp_path, capsys):
    report = json.loads(out_of(capsys, "report", "--db", str(two_currencies), "--json", "--shift", "2"))
    assert (report["currency"], report["range"]["shift"]) == ("RUB", 2)
    assert [m["currency"] for m in report["money_by_currency"]] == ["RUB"]
    assert report["totals"]["bought_money"] == "5000" and [c["colour"] for c in report["colour_ledger"]] == ["blue"]
    text = out_of(capsys, "report", "--db", str(two_currencies), "--shift", "1")
    assert "Shift 1 only" in text and "Totals: bought 500.00 EUR" in text and "RUB" not in text
    target = tmp_path / "one.csv"
    assert cli(["review", "--db", str(two_currencies), "--csv-report", str(target), "--shift", "last",
                "--machine-headers"]) == 0
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8-sig"))))
    assert {r["currency"] for r in rows} == {"RUB"}


@pytest.mark.parametrize("command", [["report"], ["review", "--csv-report", "x.csv"], ["review", "--pdf", "x.pdf"]])
def test_a_shift_that_does_not_exist_is_refused_in_one_line(two_currencies, tmp_path, capsys, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli([*command, "--db", str(two_currencies), "--shift", "3"]) == 2
    err = capsys.readouterr().err
    assert err.endswith("--shift '3': give a shift number from 1 to 2 or 'last'\n") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_report_csv_headers_are_in_the_tables_language_and_the_column_names_for_programs(two_currencies,
                                                                                             tmp_path):
    target = tmp_path / "figures.csv"
    assert cli(["review", "--db", str(two_currencies), "--csv-report", str(target), "--language", "it"]) == 0
    rows = list(csv.reader(io.StringIO(target.read_text(encoding="utf-8-sig"))))
    assert rows[0] == ["sezione", "turno", "nome", "voce", "valore del gettone", "gettoni", "importo", "valuta"]
    assert rows[1][0] == "shift" and rows[1][7] == "EUR"  # the values in machine form in any language
    assert cli(["review", "--db", str(two_currencies), "--csv-report", str(target), "--language", "ru",
                "--machine-headers"]) == 0
    assert next(csv.reader(io.StringIO(target.read_text(encoding="utf-8-sig")))) == [
        "section", "shift", "name", "figure", "chip_value", "chips", "amount", "currency"]


@needs_pdf_tools
def test_the_pdf_of_a_shift_whose_currency_changed_with_money_taken_says_so(tmp_path):
    path = tmp_path / "old.db"
    older_journal_changing_currency_mid_shift(path)
    target = tmp_path / "old.pdf"
    assert cli(["review", "--db", str(path), "--pdf", str(target)]) == 0
    text = pdf_text(target)
    assert "MIXED CURRENCIES: the currency changed to RUB at" in text
    assert "Totals in EUR:" in text and "Totals in RUB: Colours: bought 5,000.00 RUB" in text


def test_a_change_of_limits_names_the_currency_of_its_shift(tmp_path, capsys):
    path = tmp_path / "journal.db"
    session, clock = euro_spin(path)
    session.cash_out(colour="red", chips=100, by="Ana")
    session.close_table(by="Boss")
    clock.advance(seconds=3600)
    open_in(session, "RUB")
    session.change_limits(minimum=10, reason="evening", by="Boss", pin="9000")
    session.close()
    (line,) = [line for line in out_of(capsys, "report", "--db", str(path)).splitlines() if "evening" in line]
    assert line.count("RUB") == 2 and "EUR" not in line, line
