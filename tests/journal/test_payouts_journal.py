"""Payouts recorded through the session: in the journal, in the shift report's colour ledger and in
the review's spin detail, and rebuilt the same from the journal. Figures by hand (PT-A 27, 30)."""
from __future__ import annotations

import json
from decimal import Decimal

from croupier.cli import main as cli
from croupier.journal.store import Journal
from croupier.journal.verify import verify
from croupier.history.ledger import colour_ledger
from croupier.history.records import numbered
from croupier.history.spin_story import spin_story
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Role, Stake
from croupier.table.state import fold

from journal_kit import BALLS


def paid_shift(path) -> TableSession:
    """Spin 1: 17; red (5 EUR chips) counted 3 on black and 2 on plein 17, blue marked as played.
    Spin 2: 4; nobody counted."""
    clock = FakeClock()
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue"), balls=BALLS, croupier="Ana",
                       pin="1111")
    session.assign_colour(colour="red", player="seat 1", chip_value=Decimal("5"), chips=200, by="Ana")
    session.assign_colour(colour="blue", player="seat 2", chip_value=Decimal("5"), chips=100, by="Ana")
    for number, paid, played in ((17, {"red": (Stake(bet="black", chips=3), Stake(bet="17", chips=2))}, ("blue",)),
                                 (4, {}, ())):
        clock.advance(seconds=60)
        session.launch(direction=Direction.CLOCKWISE if number == 17 else Direction.ANTICLOCKWISE)
        session.enter_result(number=number)
        session.confirm_result()
        session.record_payouts(spin=session.state.last_result.spin, paid=paid, played=played, by="Ana")
    return session


def test_payouts_are_journalled_and_the_state_folds_back_from_them(tmp_path):
    path = tmp_path / "j.db"
    session = paid_shift(path)
    state = session.state
    session.close()
    with Journal.open(path, read_only=True) as journal:
        assert verify(journal).intact
        events = [entry.event for entry in journal.entries()]
    with TableSession.open(path, FakeClock()) as again:
        assert again.state == state == fold(events)
    # 3 + 70 paid on 17; idle: red and blue played spin 1, nobody spin 2
    assert state.accounts["red"].won == 73 and state.accounts["red"].idle_spins == 1
    assert state.accounts["blue"].idle_spins == 1


def test_the_shift_report_ledger_counts_what_was_paid(tmp_path, capsys):
    path = tmp_path / "j.db"
    paid_shift(path).close()
    assert cli(["report", "--db", str(path), "--json"]) == 0
    red, blue = json.loads(capsys.readouterr().out)["colour_ledger"]
    assert (red["staked"], red["paid"], red["returned"], red["collected"]) == (5, 73, 5, 0)
    assert red["paid_money"] == "365"  # 73 chips of 5
    assert (red["bought_money"], red["result_money"]) == ("1000", None)  # 200 chips of 5, still in play
    assert (blue["staked"], blue["paid"]) == (0, 0)


def test_the_review_shows_the_payouts_of_a_spin_and_in_the_ledger(tmp_path):
    path = tmp_path / "j.db"
    paid_shift(path).close()
    with Journal.open(path, read_only=True) as journal:
        entries = list(journal.entries())
    lines = spin_story(entries, 1).lines()
    assert "payouts recorded by Ana: red black x3, 17 x2" in lines
    assert "  red: staked 5, paid 73 = 365.00, returned 5, lost 0" in lines
    assert "  played: red, blue" in lines
    red, blue = colour_ledger(numbered(entries))
    assert (red.staked, red.paid, red.on_record) == (5, 73, 273)
