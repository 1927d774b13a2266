"""The kinds of chip besides the table's own colours, at the keypad: another table's colour chips
settled from the Colours menu of an FR table (`FR`), and the report showing what the table paid for
them; a table of value chips only (`PT-B 15b`), whose colours menu is refused and whose payout sheet
takes the amounts in money. Expected figures are worked out by hand."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.table.state import Phase
from ui_kit import flat, kinds, open_table, press, screen_text, staffed_journal

COLOURS_MENU = ("d", "1")  # D, then Colours


@pytest.fixture
def fr_session(staffed_template, tmp_path, clock):
    """An mt-fair table (minimum 5 EUR): Ana at the wheel, red (seat 1) and blue (seat 4) in play."""
    from croupier.session import TableSession

    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as opened:
        open_table(opened, profile="mt-fair")
        yield opened


@pytest.fixture
def fr_app(fr_session, config):
    from croupier.ui.app import TableApp

    return TableApp(fr_session, config, wheel=False)


def settlements(session) -> list:
    return [entry.event for entry in session.journal.entries() if entry.event.kind == "foreign-chips-settled"]


async def test_foreign_chips_that_win_are_paid_at_their_real_value_from_the_colours_menu(fr_app, fr_session):
    async with fr_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *COLOURS_MENU)
        assert "Another table's colour chips" in screen_text(fr_app)
        await press(pilot, "7")  # after the six colour entries
        assert "Another table's colour chips: which colour?" in screen_text(fr_app)
        await press(pilot, "3")  # green
        await press(pilot, "7", "enter")  # they belong to table 7
        shown = flat(screen_text(fr_app))
        assert "green chips of table 7" in shown and "otherwise at the minimum of their own table" in shown
        await press(pilot, "1")  # they won
        await press(pilot, "1", "2", "enter")  # their real value is known: 2 EUR each
        await press(pilot, "3", "5", "enter")  # a plein: the win pays 35 chips
        # 35 chips x 2.00 EUR = 70.00 EUR
        assert "green chips of table 7: 35 × 2.00 EUR = 70.00 EUR paid" in flat(screen_text(fr_app))
    (settled,) = settlements(fr_session)
    assert (settled.colour, settled.table, settled.chips, settled.chip_value, settled.table_minimum) == \
        ("green", "7", 35, Decimal(2), None)
    assert (settled.won, settled.amount, settled.by) == (True, Decimal(70), "Ana")  # no PIN, the croupier on duty


async def test_foreign_chips_of_unknown_value_are_paid_at_their_tables_minimum_and_losers_taken(fr_app, fr_session):
    async with fr_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *COLOURS_MENU, "7", "3", "7", "enter")
        await press(pilot, "1", "2")  # won; their value cannot be told: their own table's minimum
        await press(pilot, "1", "0", "enter", "3", "5", "enter")  # that table opens at 10 EUR; 35 chips
        # 35 chips x 10.00 EUR = 350.00 EUR
        assert "green chips of table 7: 35 × 10.00 EUR = 350.00 EUR paid" in flat(screen_text(fr_app))
        await press(pilot, *COLOURS_MENU, "7", "9", "3", "enter")  # pink chips of table 3
        await press(pilot, "2", "5", "enter")  # they lost: 5 chips taken
        assert "pink chips of table 3: 5 taken" in flat(screen_text(fr_app))
    unknown, lost = settlements(fr_session)
    assert (unknown.chip_value, unknown.table_minimum, unknown.amount) == (None, Decimal(10), Decimal(350))
    assert (lost.colour, lost.table, lost.won, lost.chips, lost.amount) == ("pink", "3", False, 5, Decimal(0))


async def test_the_report_counts_the_foreign_chips_the_table_paid(fr_app, fr_session, capsys):
    """red bought 100 chips x 5 = 500.00 and blue 50 x 10 = 500.00: sold 1,000.00. Both are still in
    play: nothing cashed out. Foreign green chips paid 35 x 2.00 = 70.00. The shift's result:
    1,000.00 - 0 - 0 late - 70.00 = 930.00 counted so far, not a result while colours are in play."""
    async with fr_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *COLOURS_MENU, "7", "3", "7", "enter", "1", "1", "2", "enter", "3", "5", "enter")
    assert cli(["report", "--db", str(fr_session.journal.path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (shift,) = report["shift_results"]
    assert (shift["sold_money"], shift["foreign_money"], shift["table_result_money"]) == ("1000", "70", "930")
    assert [(f["colour"], f["table"], f["amount"]) for f in report["foreign_chips"]] == [("green", "7", "70")]
    assert report["totals"]["foreign_chips_money"] == "70"
    assert cli(["report", "--db", str(fr_session.journal.path)]) == 0
    text = capsys.readouterr().out
    assert "foreign chips paid 70.00; not a result yet: +930.00 counted so far, blue, red still in play" in text
    assert "foreign green chips of table 7, spin -: won, paid 35 x 2.00 = 70.00 (Ana)" in text


async def test_a_table_without_fr_offers_no_foreign_chips(table_app, session):
    before = session.seq
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *COLOURS_MENU)
        assert "Another table's colour chips" not in screen_text(table_app)
        await press(pilot, "7")  # no seventh entry under pt-americana
        assert "which colour?" not in screen_text(table_app)
    assert session.seq == before


# --- a table of value chips only (PT-B 15b) ----------------------------------------------------


@pytest.fixture
def value_only_session(staffed_template, tmp_path, clock):
    from croupier.session import TableSession
    from ui_kit import BALLS, COLOURS

    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as opened:
        opened.open_table(profile="pt-americana-2002", minimum=Decimal(5), colours=COLOURS, balls=BALLS,
                          croupier="Ana", pin="1111", inspector="Ines", by="Marta", value_only=True)
        yield opened


@pytest.fixture
def value_only_app(value_only_session, config):
    from croupier.ui.app import TableApp

    return TableApp(value_only_session, config, wheel=False)


async def test_the_colours_menu_of_a_value_only_table_is_refused(value_only_app, value_only_session):
    before = value_only_session.seq
    async with value_only_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *COLOURS_MENU)
        shown = flat(screen_text(value_only_app))
        assert "Refused: this table uses value chips only (PT-B 15b): it has no colour chips" in shown
        assert "Give a free colour" not in shown
    assert value_only_session.seq == before


async def test_the_value_only_payout_sheet_takes_amounts_in_money_on_a_plein(value_only_app, value_only_session):
    """PT-B 15b: value chips on any bet. 20 EUR on plein 17 (its maximum is 10 x 5 = 50 EUR) pays
    35 x 20 = 700.00 EUR."""
    async with value_only_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter")  # launch; 17
        shown = flat(screen_text(value_only_app))
        assert "Value chips: type the amount on each position, in EUR" in shown
        assert "Played" not in shown  # no colour, no player to count (PT-A 12 counts colours)
        await press(pilot, "c")  # straight to the pleins: 17
        await press(pilot, "2", "0")
        shown = flat(screen_text(value_only_app))
        assert "Value chips are paid 700.00 EUR" in shown and "Table pays 700.00 EUR" in shown
        await press(pilot, "d")
        assert value_only_session.state.phase is Phase.BETTING
    assert kinds(value_only_session)[-2:] == ["payouts-recorded", "payouts-completed"]
    (recorded,) = [e.event for e in value_only_session.journal.entries() if e.event.kind == "payouts-recorded"]
    (outcome,) = recorded.outcomes
    assert (outcome.colour, outcome.staked, outcome.won) == ("value", 20, 700)


# --- value-marked chips (PT-A 16) ----------------------------------------------------------------


@pytest.fixture
def marked_session(staffed_template, tmp_path, clock):
    """pt-americana, minimum 5 EUR, value-marked chips of 5 and 25 EUR offered; red (seat 1, 5 EUR)
    and blue (seat 4, 10 EUR) in play."""
    from croupier.session import TableSession
    from ui_kit import BALLS, COLOURS

    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as opened:
        opened.open_table(profile="pt-americana", minimum=Decimal(5), colours=COLOURS, balls=BALLS,
                          croupier="Ana",
                          pin="1111", inspector="Ines", by="Marta", marked_values=(Decimal(5), Decimal(25)))
        opened.assign_colour(colour="red", player="seat 1", chip_value=Decimal(5), chips=100, by="Ana")
        yield opened


async def test_value_marked_chips_on_a_plein_are_counted_in_money_after_the_colours(marked_session, config):
    """17: red's 2 chips of 5 EUR on plein 17 pay 70 chips = 350.00 EUR; 10 EUR of marked chips on plein
    17 pay 35 x 10 = 350.00 EUR (PT-A 16: any bet). The table pays 700.00 EUR."""
    from croupier.ui.app import TableApp

    app = TableApp(marked_session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter")
        await press(pilot, "c", "2")  # red: 2 chips on plein 17
        await press(pilot, "plus")  # next: the value-marked chips
        assert "Value-marked chips: type the amount on each position, in EUR" in flat(screen_text(app))
        await press(pilot, "c", "1", "0")  # 10 EUR of marked chips on plein 17
        shown = flat(screen_text(app))
        assert "Value chips are paid 350.00 EUR" in shown
        assert "Table pays 700.00 EUR (70 × 5.00 + 350.00 in value chips)" in shown
        await press(pilot, "d")
        assert marked_session.state.phase is Phase.BETTING
    (recorded,) = [e.event for e in marked_session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert [(s.bet, s.chips, s.marked) for s in recorded.stakes["value"]] == [("17", 10, True)]
    assert {o.colour: o.won for o in recorded.outcomes} == {"red": 70, "value": 350}


# --- value chips beside the colours (PT-A 16) ------------------------------------------------------


async def test_value_chips_on_a_simple_chance_are_paid_after_the_colours(session, config):
    """17 at a colour table: 20 EUR of value chips on black pay 20.00 EUR. PT-A 16 lets value chips on
    simple chances, dozens and columns only, so the page has no plein or split; value chips are no
    player's, so the played line and A leave them out."""
    from croupier.ui.app import TableApp

    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter")
        await press(pilot, "plus", "plus")  # red, blue, then the value chips
        shown = flat(screen_text(app))
        assert "Value chips: type the amount on each position, in EUR" in shown
        assert "Played (PT-A 12): - · not seen: red, blue" in shown and "0-9 amount" in shown
        assert "17 " not in shown.split("Value chips: type")[1] and "14/17" not in shown and "A/-" not in shown
        await press(pilot, "a")  # nothing to mark: not a player
        await press(pilot, "enter", "enter", "enter", "2", "0")  # after the column bets, black: 20 EUR
        shown = flat(screen_text(app))
        assert "Value chips are paid 20.00 EUR" in shown and "Table pays 20.00 EUR" in shown
        await press(pilot, "d")
        assert session.state.phase is Phase.BETTING
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert [(s.bet, s.chips, s.marked) for s in recorded.stakes["value"]] == [("black", 20, False)]
    assert {o.colour: o.won for o in recorded.outcomes} == {"value": 20}
    assert recorded.played == ()


@pytest.mark.parametrize(("language", "said"), [
    ("en", "returns 2 · 1 en prison"), ("it", "restituisce 2 · 1 in prigione"),
    ("pt", "devolve 2 · 1 em prisão"), ("ru", "возвращает 2 · 1 в тюрьме"),
])
async def test_an_odd_chip_on_a_simple_chance_at_zero_is_shown_en_prison(fr_app, fr_session, language, said):
    """FR Pagamenti (mt-fair): on zero a simple chance is halved at once between player and bank, and
    the odd chip that cannot be halved stays en prison for the next spin. 5 chips of red on rosso:
    2 go back, 2 to the bank, 1 en prison - the sheet says all of it, not "returns 2" alone."""
    from croupier.i18n import install

    install(language)
    async with fr_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "0", "enter")  # launched; zero: the simple chances are on the sheet
        sheet = fr_app.payout_sheet
        at = [row.spec for row in sheet.rows("red") if row.recorded is None].index("red")
        await press(pilot, *["enter"] * at, "5")
        line = next(line for line in screen_text(fr_app).splitlines() if "5_" in line)
        assert said in line, screen_text(fr_app)
        assert all(shown.startswith(" ") for shown in screen_text(fr_app).splitlines())  # no row wraps
        await press(pilot, "d")
        assert fr_session.state.phase is Phase.BETTING
    (recorded,) = [e.event for e in fr_session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert {colour: [(s.bet, s.chips) for s in stakes] for colour, stakes in recorded.prison.items()} == {
        "red": [("red", 1)]}
