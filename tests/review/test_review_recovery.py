"""A paid spin corrected: the table screen, the report (text and JSON), the review's spin detail and
the PDF all give the one figure the correction recorded, per colour - the payouts and the stakes
the players kept on bets the corrected number makes losers, and what a bet that now wins is owed.

By hand (pt-americana, minimum 5): red 5 EUR a chip, blue 10, green 5.
spin 1: 8, red plein 8 x1 paid (35). spin 2: green bets plein 20 x2 before the spin; 17 comes and is
paid: red plein 17 x2 (70, the 2 kept) and split 17/20 x3 (wins on both); blue odd x6 (6, the 6
kept) and dozen2 x4 (wins on both). The pit boss corrects spin 2 to 20 at the table screen:
red gives back 72 chips = 360.00 (70 paid, 2 kept); blue 12 chips = 120.00 (6 paid, 6 kept): 480.00,
where counting the payouts alone says 410.00; green is owed 72 chips = 360.00 (35 x 2 and its stake).
"""
from __future__ import annotations

import dataclasses
import json
from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.commands.review import main as review
from croupier.config import StaffMember, default_config
from croupier.history.spin_story import spin_story
from croupier.journal.store import Journal
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Ball, Role, Stake

from pdf_reading import needs_pdf_tools, pdf_text, qpdf_check

BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))
PINS = {"Marta": "9000", "Ana": "1111"}
RED = "red 72 chips = 360.00 EUR to recover (70 paid, 2 stakes kept)"
BLUE = "blue 12 chips = 120.00 EUR to recover (6 paid, 6 stakes kept)"
GREEN = "green 72 chips = 360.00 EUR owed to the player"


def counted(**colours):
    return {colour: tuple(Stake(bet=bet, chips=chips) for bet, chips in stakes) for colour, stakes in colours.items()}


@pytest.fixture
def played(tmp_path):
    """The shift up to the correction, and the table's configuration."""
    clock = FakeClock()
    path = tmp_path / "journal.db"
    session = TableSession.open(path, clock)
    session.register_staff(name="Marta", role=Role.PIT_BOSS, pin=PINS["Marta"])
    session.register_staff(name="Ana", role=Role.CROUPIER, pin=PINS["Ana"], by="Marta", by_pin=PINS["Marta"])
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue", "green"), balls=BALLS,
                       croupier="Ana", pin="1111", posted_values=(10,), by="Marta")
    for colour, value in (("red", 5), ("blue", 10), ("green", 5)):
        session.assign_colour(colour=colour, player=f"{colour} seat", chip_value=Decimal(value), chips=100, by="Ana")

    def spin(number, direction, paid):
        clock.advance(seconds=120)
        session.launch(direction=direction)
        session.enter_result(number=number)
        session.confirm_result()
        session.record_payouts(spin=session.state.last_result.spin, paid=paid, played=tuple(paid))

    spin(8, Direction.CLOCKWISE, counted(red=[("8", 1)]))
    session.place_bets(colour="green", stakes=(Stake(bet="20", chips=2),))
    spin(17, Direction.ANTICLOCKWISE, counted(red=[("17", 2), ("17/20", 3)], blue=[("odd", 6), ("dozen2", 4)]))
    config = default_config(environ={})
    config = dataclasses.replace(
        config, staff=tuple(StaffMember(name=n, role=r) for n, r in (("Marta", "pit-boss"), ("Ana", "croupier"))),
        colours=("red", "blue", "green"), wheel=None, journal_path=path,
        table=dataclasses.replace(config.table, language="en", profile="pt-americana", currency="EUR"))
    return session, config, path


async def test_the_screen_report_review_and_paper_give_one_figure_to_recover(played, tmp_path, capsys):
    from croupier.ui.app import TableApp

    session, config, path = played
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("d", "7", "1", *PINS["Marta"], "enter", "3", "1", "2", "0", "enter", "1"):
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause()
        screen = " ".join("".join(s.text for s in strip) for strip in app.screen._compositor.render_strips())
        screen = " ".join(screen.split())
    assert "(spin 2 corrected from 17)" in screen
    assert f"After the correction: {GREEN}; {RED}; {BLUE}" in screen
    session.close()

    assert cli(["report", "--db", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(o["colour"], o["won"], o["kept"], o["chips"], o["money"]) for o in report["overpayments"]] == [
        ("green", "-70", "-2", "-72", "-360"), ("red", "70", "2", "72", "360"), ("blue", "6", "6", "12", "120")]
    assert (report["totals"]["overpaid_money"], report["totals"]["owed_money"]) == ("480", "360")
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "EUR"\nlanguage = "en"\n')
    assert cli(["report", "--db", str(path), "--config", str(settings)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for figure in (RED, BLUE, GREEN):
        colour, rest = figure.split(" ", 1)
        assert f"spin 2: {colour} paid on" in text and f"the result is 20: {rest}" in text

    with Journal.open(path, read_only=True) as journal:
        lines = spin_story(list(journal.entries()), 2).lines("EUR")
    for figure in (RED, BLUE, GREEN):
        colour, rest = figure.split(" ", 1)
        assert any(line.startswith(f"AFTER CORRECTION: spin 2: {colour} paid on") and line.endswith(rest)
                   for line in lines), (figure, lines)


@needs_pdf_tools
def test_the_paper_gives_the_same_figure(played, tmp_path):
    session, config, path = played
    session.correct_result(spin=2, number=20, reason="ball seen in 20", by="Marta", pin=PINS["Marta"])
    session.close()
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "EUR"\nlanguage = "en"\n')
    target = tmp_path / "shift.pdf"
    assert review(["--db", str(path), "--pdf", str(target), "--config", str(settings)]) == 0
    qpdf_check(target)
    text = " ".join(pdf_text(target).split())
    for figure in (RED, BLUE, GREEN):
        assert figure.split(" ", 1)[1] in text, (figure, text[-3000:])
