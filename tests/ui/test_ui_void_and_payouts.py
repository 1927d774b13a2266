"""Golpe nulo in two keys, and the payout sheet: positions in the payout order, chips per colour,
payouts in stacks of 20 and money, the table total, the record."""
import pytest

from croupier.rules.spin import VoidReason
from croupier.table.state import Phase
from ui_kit import flat, kinds, press, screen_text


async def result(pilot, *digits: str) -> None:
    """Launch from the keypad and type a result (the payout sheet opens)."""
    await press(pilot, "enter", *digits, "enter")


async def test_golpe_nulo_in_two_keys_says_where_the_ball_goes_back(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await result(pilot, "2", "3", "enter")  # spin 1: 23 (1-3 wait: 2 then 3 proposes 23)
        await press(pilot, "d", "d")  # payouts done, nothing counted
        await press(pilot, "enter")  # spin 2 launched
        await press(pilot, "a")
        assert "Void spin: why?" in screen_text(table_app)
        await press(pilot, "1")  # a chip fell in the wheel (PT-A 22)
        assert session.state.phase is Phase.BETTING and session.state.spin == 2  # the spin does not count
        text = screen_text(table_app)
        assert "put the ball back in pocket 23" in text and "waiting for the next launch" in text
    (voided,) = [e.event for e in session.journal.entries() if e.event.kind == "spin-voided"]
    assert voided.reason is VoidReason.CHIP_FELL and voided.put_back == 23 and voided.by == "Ana"


async def test_golpe_nulo_outside_a_spin_is_refused_before_asking(table_app, session):
    before = session.seq
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "minus")  # the USB keypad's key for A
        assert "between the launch and the result (PT-A 22)" in screen_text(table_app)
    assert session.seq == before


async def test_payouts_in_order_per_colour_with_stacks_money_and_total(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await result(pilot, "1", "7")
        lines = screen_text(table_app).splitlines()
        # PT-A 29: columns, simple chances, dozens, ..., lines, streets, corners, splits, pleins (always in view)
        order = [next(i for i, line in enumerate(lines) if word in line)
                 for word in ("Columns", "Simple chances", "Dozens", "Lines", "Streets", "Corners", "Pleins")]
        assert order == sorted(order)
        # red (5 EUR chips): 3 chips on black (1:1), then 2 on plein 17 (35:1)
        await press(pilot, "enter", "enter", "enter", "3")  # the fourth position is black
        await press(pilot, *["enter"] * 17, "2")  # ... down to plein 17, the 21st and last
        text = screen_text(table_app)
        # 3 + 70 = 73 chips = 3 stacks of 20 and 13 (PT-A 30); 73 x 5 EUR = 365 EUR
        assert "red is paid 73 = 3 × 20 + 13 · 365.00 EUR" in text
        await press(pilot, "plus")  # next colour: blue, 10 EUR chips
        await press(pilot, "1")  # 1 chip on the 2nd column pays 2
        text = screen_text(table_app)
        assert "blue is paid 2 = 2 · 20.00 EUR" in text
        # chips of 5 EUR and of 10 EUR are not added together: 73 x 5 + 2 x 10 = 385 EUR
        assert "Table pays 385.00 EUR (73 × 5.00 + 2 × 10.00)" in text
        await press(pilot, "d")
        assert session.state.phase is Phase.BETTING and "Payouts recorded" in screen_text(table_app)
    assert kinds(session)[-2:] == ["payouts-recorded", "payouts-completed"]
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert {colour: [(s.bet, s.chips) for s in stakes] for colour, stakes in recorded.stakes.items()} == {
        "red": [("black", 3), ("17", 2)], "blue": [("column2", 1)]}
    # red's statement: 100 chips issued, 73 paid (SRIJ 29); blue: 50 issued, 2 paid
    assert (session.state.accounts["red"].won, session.state.accounts["red"].held) == (73, 173)
    assert (session.state.accounts["blue"].won, session.state.accounts["blue"].held) == (2, 52)


async def test_zero_lists_the_simple_chances_where_they_come_back_in_part(staffed_template, tmp_path, clock, config):
    """PT-B 29 (pt-americana-2002): half the simple-chance stake comes back on zero."""
    from croupier.session import TableSession
    from croupier.ui.app import TableApp
    from ui_kit import open_table, staffed_journal

    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as session:
        open_table(session, profile="pt-americana-2002")
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await result(pilot, "0")
            text = screen_text(app)
            assert "Simple chances  red" in text and "high (19-36)" in text
            await press(pilot, "4")  # PT-B 30 pays the simple chances first: 4 chips on red
            (line,) = [line for line in screen_text(app).splitlines() if "Simple chances  red" in line]
            assert line.split() == ["Simple", "chances", "red", "4_", "returns", "2"]


async def test_a_count_above_the_limit_is_shown_as_the_rules_decide_and_cannot_be_recorded(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await result(pilot, "1", "7")
        await press(pilot, *["enter"] * 20, "4", "0")  # 40 chips of 5 EUR on plein 17: 200 EUR
        text = flat(screen_text(table_app))
        assert "17: the plein maximum is 150.00 EUR on 17; refused (PT-A 32a-b)" in text  # 30 x the 5 EUR minimum
        assert "red is paid nothing" in text
        before = session.seq
        await press(pilot, "d")
        text = flat(screen_text(table_app))
        assert "Refused: red: 17: the plein maximum is 150.00 EUR on 17; refused (PT-A 32a-b)" in text
        assert "Payouts · 17 black · spin 1" in text  # still on the sheet, to correct the count
        assert session.seq == before and session.state.phase is Phase.PAYING
        await press(pilot, "c", "c", "3", "0", "d")  # both digits of 40 off; 30 chips: the maximum
        assert session.state.phase is Phase.BETTING and session.state.accounts["red"].won == 30 * 35


async def test_leaving_the_sheet_keeps_the_counts_and_b_brings_it_back(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await result(pilot, "5")
        await press(pilot, "1", "escape")
        assert "Pay the winners: B opens the payout sheet" in screen_text(table_app)
        await press(pilot, "b")
        assert "red is paid 2 = 2 · 10.00 EUR" in screen_text(table_app)  # 1 chip on the 2nd column of 5


async def test_the_croupier_marks_who_played_and_pt_a_12_counts_only_the_others(table_app, session):
    from decimal import Decimal

    for colour, seat in (("green", "seat 2"), ("yellow", "seat 3")):
        session.assign_colour(colour=colour, player=seat, chip_value=Decimal(5), chips=10, by="Ana")
    session.join_waiting_list(player="Maria")  # PT-A 12 applies while someone waits: no colour is free
    async with table_app.run_test(size=(80, 24)) as pilot:
        for spin in (1, 2, 3):
            await result(pilot, "1", "7")
            assert "Played (PT-A 12): - · not seen: red, blue, green, yellow" in flat(screen_text(table_app))
            await press(pilot, "plus", "minus")  # blue lost on the layout: A marks it played
            assert "Played (PT-A 12): blue · not seen: red, green, yellow" in flat(screen_text(table_app))
            await press(pilot, "d")
        assert {c: a.idle_spins for c, a in session.state.accounts.items()} == {
            "red": 3, "blue": 0, "green": 3, "yellow": 3}
        text = flat(screen_text(table_app))
        assert "red (seat 1) has not bet for 3 spins while players wait" in text
        assert "blue (seat 4) has not bet" not in text
    marked = [e.event.played for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert marked == [("blue",)] * 3


async def test_a_winner_is_marked_played_by_its_count_and_a_mark_can_be_taken_back(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await result(pilot, "5")
        await press(pilot, "1")  # 1 red chip on the 2nd column: red won
        assert "Played (PT-A 12): red · not seen: blue" in screen_text(table_app)
        await press(pilot, "minus")
        assert "red has chips on a winner or bets on record: it played" in flat(screen_text(table_app))
        await press(pilot, "plus", "minus", "minus")  # blue marked, then the mark taken back
        assert "Played (PT-A 12): red · not seen: blue" in screen_text(table_app)
        await press(pilot, "d")
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert recorded.played == ("red",)



@pytest.mark.parametrize("size", [(80, 24), (128, 37)])
async def test_the_next_colours_rows_show_at_once_and_a_digit_lands_on_a_row_on_screen(table_app, session, size):
    async with table_app.run_test(size=size) as pilot:
        await result(pilot, "1", "7")
        await pilot.press("plus")  # from red to blue: one key, then look
        text = screen_text(table_app)
        assert "Colour 2 of 2: blue" in text and "Columns" in text and "2nd column" in text
        await pilot.press("4")  # 4 chips on the highlighted row, the 2nd column: it pays 2:1
        text = screen_text(table_app)
        assert "blue is paid 8 = 8" in text and "4_  pays 8" in text
        await pilot.press(*["enter"] * 21)  # Enter past blue's last row: it stays there and says so
        text = flat(screen_text(table_app))
        assert "Colour 2 of 2: blue" in text and "blue: last position · B next colour · D records" in text
        await pilot.press("plus")  # B: the value chips, on the positions PT-A 16 lets them on
        text = flat(screen_text(table_app))
        assert "Value chips: type the amount on each position, in EUR" in text
        assert "2nd column" in text and "black" in text and "1-6" not in text and "14/17" not in text
        await pilot.press("plus")  # B: back to red
        text = screen_text(table_app)
        assert "Colour 1 of 2: red" in text and "Columns" in text and "Simple chances" in text


async def test_the_status_line_names_the_spin_being_paid(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await result(pilot, "1", "7")  # spin 1: 17, the payout sheet opens
        await press(pilot, "escape")  # back to the table, the payouts still under way
        text = flat(screen_text(table_app))
        assert "spin 1" in text and "spin 2" not in text


async def test_the_next_result_s_sheet_starts_afresh_on_its_own_number(table_app, session):
    # One sheet serves every result: the next one opens on its own number, at its first colour and
    # row, with no count, mark or message left from the spin before.
    async with table_app.run_test(size=(80, 24)) as pilot:
        await result(pilot, "1", "7")
        await press(pilot, "plus", "3")  # blue, 3 chips on its first row
        await press(pilot, "d")  # recorded
        await result(pilot, "5")
        text = flat(screen_text(table_app))
        assert "Payouts · 5 red · spin 2" in text and "Colour 1 of 2: red" in text
        assert "Payouts recorded" not in text and "red is paid nothing" in text
        assert "Dozens" in text and "1st dozen" in text and "17/" not in text  # 5's rows, not 17's
        await press(pilot, "2")  # 2 chips on red's first row, 5's 2nd column: pays 4
        assert "red is paid 4 = 4" in flat(screen_text(table_app))
        await press(pilot, "plus")
        assert "Colour 2 of 2: blue" in flat(screen_text(table_app))
        assert "blue is paid nothing" in flat(screen_text(table_app))  # spin 1's 3 chips are not counted here
