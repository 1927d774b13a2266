"""Colour chips from the keypad: a free colour with the value the profile allows, chips added, the
colour cashed out in chips and money, late chips at the table minimum, the waiting list, and the
PT-A 12 prompt."""
from decimal import Decimal

from croupier.table.events import CashOutReason
from ui_kit import asked_note, flat, play_spins, press, screen_text


def last_event(session):
    *_, entry = session.journal.entries(session.seq - 1)
    return entry.event


async def test_give_a_free_colour_with_its_value(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "1", "1")  # menu, colours, give a free colour
        await press(pilot, "7", "enter")  # seat 7
        assert "Free colour for seat 7" in screen_text(table_app)
        await press(pilot, "1")  # green: the first free colour
        await press(pilot, "1", "0", "enter")  # a green chip is worth 10 (posted values allowed, PT-A 9)
        await press(pilot, "4", "0", "enter")
        assert "green to seat 7: 40 chips of 10.00 EUR" in screen_text(table_app)
    account = session.state.accounts["green"]
    assert (account.player, account.chip_value, account.issued) == ("seat 7", Decimal(10), 40)


async def test_a_value_the_profile_forbids_is_refused_asked_again_and_nothing_recorded(table_app, session):
    before = session.seq
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "1", "1", "7", "enter", "1")
        await press(pilot, "7", "enter")  # 7 EUR: neither the minimum nor posted, refused before the chips
        shown = flat(screen_text(table_app)) + " " + asked_note(table_app)  # the value asked again, the refusal its note
        assert "Refused: 7.00 EUR is not a value of this table: the minimum or a posted value, " \
               "5.00 EUR · 10.00 EUR · 20.00 EUR · 200.00 EUR (PT-A 9)" in shown and "Chips:" not in shown
        assert "Value:" in shown  # the flow stays where it was: the value is asked again
        await press(pilot, "2", "0", "0", "enter")  # posted, but above the plein maximum, 30 x 5
        shown = flat(screen_text(table_app)) + " " + asked_note(table_app)
        assert "Refused: 200.00 EUR is above the plein maximum 150.00 EUR (PT-A 9)" in shown and "Value:" in shown
        await press(pilot, "escape")
    assert session.seq == before and "green" not in session.state.accounts


async def test_add_chips_and_cash_out_in_chips_and_money(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "1", "2", "2")  # add chips to blue (the second colour in play)
        await press(pilot, "2", "5", "enter")
        assert session.state.accounts["blue"].held == 75
        await press(pilot, "d", "1", "3", "2")  # cash out blue
        assert "The record says 75 chips" in screen_text(table_app)
        await press(pilot, "7", "5", "enter")
        assert "blue: 75 chips × 10.00 EUR = 750.00 EUR" in screen_text(table_app)
    cashed = last_event(session)
    assert cashed.kind == "colour-cashed-out" and cashed.amount == Decimal(750) and cashed.reason is CashOutReason.LEFT
    assert "blue" not in session.state.accounts


async def test_late_chips_are_worth_the_table_minimum(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "1", "4")
        assert "worth the table minimum each" in screen_text(table_app)
        await press(pilot, "4", "3", "enter")  # yellow, not in play: 3 chips presented late (PT-A 15)
        assert "3 late chips = 15.00 EUR" in screen_text(table_app)


async def test_waiting_list_first_player_gets_the_next_colour(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "1", "5", "9", "enter")  # seat 9 waits
        await press(pilot, "d", "1", "5", "2", "enter")  # then seat 2
        assert "Waiting: seat 9, seat 2" in screen_text(table_app)
        await press(pilot, "d", "1", "6", "2")  # seat 2 leaves the list
        assert session.state.waiting == ("seat 9",)
        await press(pilot, "d", "1", "1")  # give a colour: to seat 9, first on the list, without asking
        assert "Free colour for seat 9" in screen_text(table_app)
        await press(pilot, "2", "5", "enter", "1", "0", "enter")  # yellow, at the minimum, 10 chips
    assert session.state.accounts["yellow"].player == "seat 9" and session.state.waiting == ()


async def test_three_spins_without_a_bet_while_a_player_waits_prompts_the_exchange(session, config, clock):
    from croupier.ui.app import TableApp

    for colour, seat in (("green", "seat 2"), ("yellow", "seat 3")):  # no colour free: seat 9 waits
        session.assign_colour(colour=colour, player=seat, chip_value=Decimal(5), chips=10, by="Ana")
    session.join_waiting_list(player="seat 9")
    play_spins(session, 4, 21, 30)  # nobody bets: PT-A 12
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        text = flat(screen_text(app))
        assert "red (seat 1) has not bet for 3 spins while players wait: it exchanges its chips (PT-A 12)" in text
        await press(pilot, "d", "1", "3", "1", "1", "0", "0", "enter")  # cash out red: 100 chips
    cashed = last_event(session)
    assert cashed.kind == "colour-cashed-out" and cashed.reason is CashOutReason.INACTIVE
