"""The table's result per shift, as the pit boss asks for it: over two shifts of one journal, the
chips sold and cashed out per colour, late chips, payouts recorded and what the table won or lost
in each, checked against figures worked out by hand, in `report --json` and in the text report."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Role, Stake

from journal_kit import BALLS


@pytest.fixture(scope="module")
def two_shifts(tmp_path_factory):
    """By hand (pt-americana, minimum 5):
    Shift 1. red 100 chips at 5 = 500.00 sold; blue 50 at 10, then 20 more: 70 chips = 700.00 sold.
      spin 1: 17. Sheet: red plein 17 x1 -> paid 35 chips = 175.00; blue black x5 -> 5 chips = 50.00.
      red cashes out 130 chips = 650.00 and 4 late red chips come back at the minimum: 20.00;
      blue cashes out 60 chips = 600.00. The table closes.
      Table: sold 1,200.00 - cashed out 1,250.00 - late 20.00 = lost 70.00. Payouts 225.00.
    Shift 2. green 40 chips at 2 = 80.00 sold, cashed out 10 chips = 20.00; yellow 20 chips at 5 =
      100.00 sold and still in play when the journal ends.
      Table: 180.00 - 20.00 = won 160.00, provisional while yellow is in play. No payouts."""
    path = tmp_path_factory.mktemp("shifts") / "journal.db"
    clock = FakeClock()
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue", "green", "yellow"), balls=BALLS,
                       croupier="Ana", pin="1111", posted_values=(2, 10))
    session.assign_colour(colour="red", player="Ana Lima", chip_value=Decimal("5"), chips=100, by="Ana")
    session.assign_colour(colour="blue", player="seat 2", chip_value=Decimal("10"), chips=50, by="Ana")
    session.issue_chips(colour="blue", chips=20, by="Ana")
    clock.advance(seconds=120)
    session.launch(direction=Direction.CLOCKWISE)
    session.enter_result(number=17)
    session.confirm_result()
    session.record_payouts(spin=session.state.last_result.spin, played=("red", "blue"),
                           paid={"red": (Stake(bet="17", chips=1),), "blue": (Stake(bet="black", chips=5),)})
    clock.advance(seconds=60)
    session.cash_out(colour="red", chips=130, by="Ana")
    session.exchange_late_chips(colour="red", chips=4, by="Ana")
    session.cash_out(colour="blue", chips=60, by="Ana")
    clock.advance(seconds=600)
    session.close_table(by="Boss")

    clock.advance(seconds=3600)
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue", "green", "yellow"), balls=BALLS,
                       croupier="Ana", pin="1111", posted_values=(2, 10))
    session.assign_colour(colour="green", player="seat 4", chip_value=Decimal("2"), chips=40, by="Ana")
    session.assign_colour(colour="yellow", player="seat 5", chip_value=Decimal("5"), chips=20, by="Ana")
    clock.advance(seconds=300)
    session.cash_out(colour="green", chips=10, by="Ana")
    session.close()
    return path


def test_each_shift_has_its_own_result_per_colour_and_for_the_table(two_shifts, capsys):
    assert cli(["report", "--db", str(two_shifts), "--json"]) == 0
    first, second = json.loads(capsys.readouterr().out)["shift_results"]
    money = lambda shift, key: Decimal(shift[key])  # noqa: E731
    assert [money(first, k) for k in ("sold_money", "cashed_out_money", "late_money", "paid_money")] == \
        [Decimal(1200), Decimal(1250), Decimal(20), Decimal(225)]
    assert money(first, "table_result_money") == Decimal(-70) and not first["provisional"]
    assert first["closed"] is not None
    colours = {c["colour"]: c for c in first["colours"]}
    assert (colours["red"]["sold"], colours["red"]["cashed_out"], colours["red"]["late_chips"],
            colours["red"]["paid"]) == (100, 130, 4, 35)
    assert (colours["blue"]["sold"], Decimal(colours["blue"]["sold_money"]), colours["blue"]["paid"],
            Decimal(colours["blue"]["paid_money"])) == (70, Decimal(700), 5, Decimal(50))

    assert [money(second, k) for k in ("sold_money", "cashed_out_money", "late_money", "paid_money")] == \
        [Decimal(180), Decimal(20), Decimal(0), Decimal(0)]
    assert money(second, "table_result_money") == Decimal(160)
    assert second["provisional"] and second["colours_in_play_at_end"] == ["yellow"] and second["closed"] is None


def test_the_text_report_says_what_the_table_won_or_lost_in_each_shift(two_shifts, capsys):
    assert cli(["report", "--db", str(two_shifts)]) == 0
    text = capsys.readouterr().out
    lines = [line for line in text.splitlines() if "payouts recorded" in line]
    assert len(lines) == 2
    assert "sold 1,200.00, cashed out 1,250.00, late chips 20.00, payouts recorded 225.00; the table lost 70.00" in lines[0]
    # Chips sold to a colour still in play are not won: the shift says so, never "the table won".
    assert lines[1].endswith("not a result yet: +160.00 counted so far, yellow still in play")
    assert "the table won" not in text


def test_the_review_and_the_pdf_show_each_shift_s_result(two_shifts):
    from croupier.history.records import numbered
    from croupier.history.shift_results import shift_result_table, shift_results
    from croupier.journal.store import Journal

    with Journal.open(two_shifts, read_only=True) as journal:
        records = list(numbered(journal.entries()))
    table = shift_result_table(shift_results(records))
    totals = [row for row in table.rows if row[1] == "table"]
    assert [row[-1] for row in totals] == ["lost 70.00", "+160.00 counted so far, not a result: colours in play"]
    assert ("red", "100 = 500.00", "130 = 650.00", "4 = 20.00", "35 = 175.00") in [row[1:6] for row in table.rows]
