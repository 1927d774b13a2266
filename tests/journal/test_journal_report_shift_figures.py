"""A shift worked through the session as the croupier works it at the screen: payout sheets, a
result corrected after its payouts, more chips, cash-outs and late chips. Its colour ledger, its
croupiers' figures and the overpayment are checked against figures worked out by hand below, in
the report (`--json` and text) and in the review's spin detail, ledger and croupier tabs."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.history.croupiers import croupier_figures
from croupier.history.ledger import colour_ledger
from croupier.history.records import numbered
from croupier.history.spin_story import spin_story
from croupier.journal.store import Journal
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Role, Stake

from journal_kit import BALLS

CW, ACW = Direction.CLOCKWISE, Direction.ANTICLOCKWISE


def paid(**counted):
    return {colour: tuple(Stake(bet=bet, chips=chips) for bet, chips in stakes) for colour, stakes in counted.items()}


@pytest.fixture(scope="module")
def shift(tmp_path_factory):
    """By hand (pt-americana, minimum 5):
    red  "Ана Петрова", 100 chips at 5 = 500.00; blue, 50 chips at 10, then 20 more: 70 = 700.00.
    Ana deals spins 1 and 2 (20:00-20:10), Rui spin 3 (20:10-20:20, the table closes at 20:20).
    spin 1: 17 black. Sheet: red plein 17 x1 -> paid 35; blue black x5 -> paid 5.
    spin 2: 20 black. Sheet: blue black x3 -> paid 3.
    spin 3: 17 typed and paid (red plein 17 x1 -> 35, blue black x2 -> 2), then corrected to 16 red:
            red was paid 35 and kept its chip: 36 chips = 180.00 to recover; blue paid 2 and kept 2:
            4 chips = 40.00; 220.00 to recover.
    red cashes out 130 chips = 650.00, then 4 late red chips come back at the minimum: 20.00.
    blue cashes out 60 chips = 600.00.
    Results: red 650 + 20 - 500 = +170.00; blue 600 - 700 = -100.00; players +70.00, the table -70.00.
    Paid on each croupier's spins: Ana 35 chips of 5 and 8 of 10 = 175 + 80 = 255.00;
    Rui 35 chips of 5 and 2 of 10 = 175 + 20 = 195.00 (paid, though on the wrong number), one correction."""
    path = tmp_path_factory.mktemp("figures") / "journal.db"
    clock = FakeClock()
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue"), balls=BALLS, croupier="Ana",
                       pin="1111",
                         posted_values=(10,))
    session.assign_colour(colour="red", player="Ана Петрова", chip_value=Decimal("5"), chips=100, by="Ana")
    session.assign_colour(colour="blue", player="seat 2", chip_value=Decimal("10"), chips=50, by="Ana")
    session.issue_chips(colour="blue", chips=20, by="Ana")

    def spin(number, direction, counted):
        clock.advance(seconds=120)
        session.launch(direction=direction)
        session.enter_result(number=number)
        session.confirm_result()
        session.record_payouts(spin=session.state.last_result.spin, paid=counted, played=tuple(counted))

    spin(17, CW, paid(red=[("17", 1)], blue=[("black", 5)]))  # 20:02
    spin(20, ACW, paid(blue=[("black", 3)]))  # 20:04
    clock.advance(seconds=360)  # 20:10
    session.relieve(role=Role.CROUPIER, incoming="Rui", pin="2222")
    spin(17, CW, paid(red=[("17", 1)], blue=[("black", 2)]))  # 20:12
    session.correct_result(spin=3, number=16, reason="ball seen in 16", by="Boss", pin="9000")
    clock.advance(seconds=60)  # 20:13
    session.cash_out(colour="red", chips=130, by="Rui")
    session.exchange_late_chips(colour="red", chips=4, by="Rui")
    session.cash_out(colour="blue", chips=60, by="Rui")
    clock.advance(seconds=420)  # 20:20
    session.close_table(by="Boss")
    session.close()
    return path


def report_json(path, capsys) -> dict:
    assert cli(["report", "--db", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_each_colour_s_result_is_cashed_out_plus_late_chips_minus_bought(shift, capsys):
    report = report_json(shift, capsys)
    red, blue = report["colour_ledger"]
    assert (red["player"], red["bought"], red["bought_money"]) == ("Ана Петрова", 100, "500")
    assert (red["cashed_out"]["amount"], red["late_money"], red["result_money"]) == ("650", "20", "170")
    assert (blue["bought"], blue["bought_money"], blue["result_money"]) == (70, "700", "-100")
    # The detail beside it: what was paid on the layout, the overpaid spin 3 included.
    assert (red["paid"], red["collected"], blue["paid"], blue["collected"]) == (70, 0, 10, 0)
    totals = report["totals"]
    assert (totals["bought_money"], totals["cashed_out_money"], totals["late_chips_money"]) == ("1200", "1250", "20")
    assert (totals["players_result_money"], totals["table_result_money"]) == ("70", "-70")


def test_the_payouts_on_a_corrected_number_are_named_as_overpaid(shift, capsys):
    report = report_json(shift, capsys)
    assert sorted((o["spin"], o["colour"], o["paid_on"], o["number"], o["won"], o["kept"], o["chips"], o["money"])
                  for o in report["overpayments"]) == [(3, "blue", 17, 16, "2", "2", "4", "40"),
                                                       (3, "red", 17, 16, "35", "1", "36", "180")]
    assert (report["totals"]["overpaid_money"], report["totals"]["owed_money"]) == ("220", "0")
    assert cli(["report", "--db", str(shift)]) == 0
    text = capsys.readouterr().out
    assert "spin 3: red paid on 17 for 17; the result is 16: 36 chips = 180.00 to recover (35 paid, 1 stake kept)" \
        in text
    assert "spin 3: blue paid on black for 17; the result is 16: 4 chips = 40.00 to recover (2 paid, 2 stakes kept)" \
        in text


def test_each_croupier_s_figures_count_the_payout_sheets(shift, capsys):
    figures = {f["croupier"]: f for f in report_json(shift, capsys)["croupiers"]}
    ana, rui = figures["Ana"], figures["Rui"]
    # Chips of 5 and of 10 are counted apart, never added together.
    assert (ana["spins"], ana["paid_chips_by_value"], ana["paid_money"], ana["corrections"]) == \
        (2, {"5": 35, "10": 8}, "255", 0)
    assert (rui["spins"], rui["paid_chips_by_value"], rui["paid_money"], rui["corrections"]) == \
        (1, {"5": 35, "10": 2}, "195", 1)
    assert (ana["on_duty_seconds"], rui["on_duty_seconds"]) == (600, 600)
    assert (ana["spins_per_hour"], rui["spins_per_hour"]) == (12.0, 6.0)


def test_the_review_shows_the_same_figures_and_the_overpayment_in_the_spin_detail(shift):
    with Journal.open(shift, read_only=True) as journal:
        entries = list(journal.entries())
    red, blue = colour_ledger(numbered(entries))
    assert (red.result, blue.result) == (Decimal("170"), Decimal("-100"))
    ana, rui = croupier_figures(numbered(entries))
    assert (ana.paid_money, rui.paid_money) == (Decimal("255"), Decimal("195"))
    lines = spin_story(entries, 3).lines()
    assert "AFTER CORRECTION: spin 3: red paid on 17 for 17; the result is 16: 36 chips = 180.00 to recover " \
           "(35 paid, 1 stake kept)" in lines
    assert any(line.startswith("AFTER CORRECTION: spin 3: blue paid on black") for line in lines)
    assert not any("AFTER CORRECTION" in line for line in spin_story(entries, 1).lines())
