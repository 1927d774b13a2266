"""One figure per fact, whatever section or paper shows it: what the table paid is the same in the
shift's result, the colour ledger and the croupiers' figures, in the report (`--json` and text), the
review's tables and the PDF, and equal to a count from the events; chips of different values are
never added together; a sensor's golpe nulo on a journal's first spin and who saw it are said in
every form; a shift with colours still in play is never said to have won what it sold them."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.history.croupiers import croupier_figures, croupier_table
from croupier.history.ledger import colour_ledger, ledger_table
from croupier.history.money import chips_money
from croupier.history.procedures import procedure_tables
from croupier.history.records import numbered
from croupier.history.shift_results import shift_result_table, shift_results
from croupier.journal.store import Journal
from croupier.reports.shift import build_report
from croupier.rules.spin import Direction, VoidReason
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import (Ball, ColourAssigned, PayoutsRecorded, ResultCorrected, ResultRecorded, Role,
                                   Source, Stake)

from pdf_reading import needs_pdf_tools, pdf_text

BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))
PAID = Decimal(1070)  # red 35 x 5 + blue 2 x 10 + green 35 x 25


@pytest.fixture(scope="module")
def shift(tmp_path_factory):
    """By hand (pt-americana, minimum 5): red 100 chips at 5, blue 50 at 10, green 40 at 25.
    The sensor declares a golpe nulo on the journal's first launch: there is no earlier result to
    put the ball back in; Ana acknowledges it. Then 17: red's plein 17 x1, recorded before the spin
    (an announced bet), is settled with the result: 35 chips x 5 = 175.00; the sheet pays blue
    black x2: 2 chips x 10 = 20.00 and green plein 17 x1: 35 chips x 25 = 875.00. Paid 1,070.00 in
    chips of three values (never "72 chips"). Red cashes out; blue and green are still in play."""
    path = tmp_path_factory.mktemp("one-figure") / "journal.db"
    clock = FakeClock()
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue", "green"), balls=BALLS,
                       croupier="Ana", pin="1111", posted_values=(10, 25))
    for colour, value, chips in (("red", 5, 100), ("blue", 10, 50), ("green", 25, 40)):
        session.assign_colour(colour=colour, player=f"{colour} player", chip_value=Decimal(value), chips=chips,
                              by="Ana")
    session.place_bets(colour="red", stakes=(Stake(bet="17", chips=1),))
    clock.advance(seconds=60)
    session.launch(direction=Direction.CLOCKWISE, source=Source.SENSOR)
    session.void_spin(reason=next(iter(VoidReason)), source=Source.SENSOR)
    session.acknowledge_void(by="Ana")
    session.launch(direction=Direction.ANTICLOCKWISE, source=Source.SENSOR)
    session.sensor_result(number=17)
    session.record_payouts(spin=session.state.last_result.spin, played=("blue", "green"),
                           paid={"blue": (Stake(bet="black", chips=2),), "green": (Stake(bet="17", chips=1),)})
    clock.advance(seconds=60)
    session.cash_out(colour="red", chips=135, by="Ana")
    session.close()
    return path


def counted_from_the_events(path) -> Decimal:
    """What the table paid, counted here from the events: each colour's wins at its chip value,
    settled with the result and at the payouts, a correction's settlement instead of the result's."""
    values, settled, paid = {}, {}, Decimal(0)
    with Journal.open(path, read_only=True) as journal:
        for entry in journal.entries():
            event = entry.event
            if isinstance(event, ColourAssigned):
                values[event.colour] = event.chip_value
            elif isinstance(event, (ResultRecorded, ResultCorrected)):
                settled[event.spin] = event.outcomes
            elif isinstance(event, PayoutsRecorded):
                paid += sum(chips_money(o.won, values[o.colour]) for o in event.outcomes)
    return paid + sum(chips_money(o.won, values[o.colour]) for outcomes in settled.values() for o in outcomes)


def report(path, capsys, *options) -> str:
    assert cli(["report", "--db", str(path), *options]) == 0
    return capsys.readouterr().out


def test_what_the_table_paid_is_one_figure_in_every_section_and_equals_the_events(shift, capsys):
    assert counted_from_the_events(shift) == PAID
    figures = json.loads(report(shift, capsys, "--json"))
    (one,) = figures["shift_results"]
    assert Decimal(one["paid_money"]) == PAID
    assert sum(Decimal(c["paid_money"]) for c in figures["colour_ledger"]) == PAID
    assert sum(Decimal(c["paid_money"]) for c in figures["croupiers"]) == PAID
    assert {c["colour"]: Decimal(c["paid_money"]) for c in one["colours"]} == \
        {c["colour"]: Decimal(c["paid_money"]) for c in figures["colour_ledger"]}
    text = report(shift, capsys)
    assert "payouts recorded 1,070.00" in text
    assert "paid 1,070.00 (money) (35 x 5.00, 2 x 10.00, 35 x 25.00)" in text


def test_chips_of_different_values_are_never_added_together(shift, capsys):
    (ana,) = json.loads(report(shift, capsys, "--json"))["croupiers"]
    assert ana["paid_chips_by_value"] == {"5": 35, "10": 2, "25": 35} and ana["paid_money"] == "1070"
    assert "paid_chips" not in ana
    assert "72 chips" not in report(shift, capsys)


def test_a_sensor_void_on_the_first_spin_says_there_is_no_earlier_result_and_who_saw_it(shift, capsys):
    (void,) = json.loads(report(shift, capsys, "--json"))["voids"]
    assert (void["put_back"], void["source"], void["acknowledged_by"]) == (None, "sensor", "Ana")
    text = report(shift, capsys)
    assert "None" not in text
    assert "no earlier result to put the ball back in, by sensor; seen by Ana" in text
    with Journal.open(shift, read_only=True) as journal:
        events = list(numbered(journal.entries()))
    voids = next(table for table in procedure_tables(events) if table.title == "Voids (golpe nulo)")
    (row,) = voids.rows
    assert row[-2:] == ("no earlier result", "Ana")


def test_colours_still_in_play_are_no_win(shift, capsys):
    text = report(shift, capsys)
    assert "the table won" not in text
    assert "not a result yet: " in text and "blue, green still in play" in text


def test_the_review_shows_the_same_figures(shift):
    with Journal.open(shift, read_only=True) as journal:
        events = list(numbered(journal.entries()))
    results = shift_results(events)
    table_row = next(row for row in shift_result_table(results).rows if row[1] == "table")
    assert table_row[5] == "1,070.00"
    ledger = ledger_table(colour_ledger(events))
    assert sum(Decimal(row[9]) * Decimal(row[2]) for row in ledger.rows) == PAID  # paid chips x chip value
    (ana,) = croupier_table(croupier_figures(events)).rows
    assert ana[-2:] == ("35 x 5.00, 2 x 10.00, 35 x 25.00", "1,070.00")


@needs_pdf_tools
def test_the_pdf_shows_the_same_figures(shift, tmp_path):
    target = tmp_path / "shift.pdf"
    assert cli(["review", "--db", str(shift), "--pdf", str(target)]) == 0
    text = pdf_text(target)
    assert "None" not in text
    croupier = next(line for line in text.splitlines() if line.startswith("Ana "))
    assert "35 x 5.00, 2 x 10.00, 35 x" in croupier and croupier.endswith("1,070.00")  # the per-value cell wraps
    assert "no earlier result" in text and "the table won" not in text
    table_line = next(line for line in text.splitlines() if line.split()[1:2] == ["table"])
    assert "1,070.00" in table_line


def test_a_croupier_s_time_at_the_wheel_is_one_figure_in_the_report_and_the_review(shift, capsys):
    """Ana's stint is still running: it counts up to the shift's last event (the red cash-out, two
    minutes after the opening) in `--json`, the text report, the review's tab and the PDF alike."""
    (ana,) = json.loads(report(shift, capsys, "--json"))["croupiers"]
    assert (ana["on_duty_seconds"], ana["spins_per_hour"]) == (120, 30.0)
    assert " 30.0/h " in report(shift, capsys)
    with Journal.open(shift, read_only=True) as journal:
        events = list(numbered(journal.entries()))
    (row,) = croupier_table(build_report(events, journal.head).croupiers).rows
    assert row[1] == "0h02" and row[5] == "30.0"


def test_the_json_report_keeps_its_form(shift, capsys):
    """`--json` is a machine interface: the typed model writes the same sections, in the same order."""
    figures = json.loads(report(shift, capsys, "--json"))
    assert list(figures) == [
        "head", "table_id", "currency", "table", "limits", "voids", "corrections", "overpayments", "ball_swaps",
        "ball_replacements", "reliefs", "breaches", "direction_repeats", "alarms", "colour_ledger", "late_chips",
        "croupiers", "shift_results", "foreign_chips", "winning_bets_rebuilt", "statistics", "totals", "currencies",
            "money_by_currency", "range",
        "checked_before", "checkpoint", "spins"]
    assert figures["totals"]["table_result_money"] == "-175" and figures["totals"]["colours_in_play"] == 2
    assert figures["range"] == {"from": None, "to": None, "shift": None} and figures["head"]["event"] > 0


def test_the_report_csv_gives_the_same_figures_per_chip_value(shift, tmp_path, capsys):
    """`--csv-report`: the report's figures in machine form, from the same model: the table paid
    1070 in the shift, the colour ledger and the croupier's rows, one row per chip value."""
    import csv

    target = tmp_path / "report.csv"
    assert cli(["review", "--db", str(shift), "--csv-report", str(target)]) == 0
    rows = list(csv.DictReader(target.read_text(encoding="utf-8-sig").splitlines()))
    paid = {(r["section"], r["name"], r["chip_value"]): r for r in rows if r["figure"] == "paid"}
    assert Decimal(paid["shift", "table", ""]["amount"]) == PAID
    assert sum(Decimal(r["amount"]) for key, r in paid.items() if key[0] == "colour-ledger") == PAID
    ana = [r for key, r in paid.items() if key[:2] == ("croupier", "Ana")]
    assert [(r["chip_value"], r["chips"], r["amount"]) for r in ana] == [("5", "35", "175"), ("10", "2", "20"),
                                                                         ("25", "35", "875")]
    assert all("," not in r["amount"] for r in rows)  # plain decimals, never a locale's grouping
