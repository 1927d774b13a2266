"""Announced and complete bets entered before the spin, per colour, checked against the limits by
the rules engine; they settle themselves when the result comes and show on the payout sheet."""
from croupier.table.events import Stake
from ui_kit import asked_note, flat, press, screen_text


async def test_an_announced_bet_is_recorded_and_settles_itself(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "2")  # menu, announced and complete bets
        await press(pilot, "1")  # red
        text = screen_text(table_app)
        for offered in ("voisins du zéro", "tiers du cylindre", "orphelins", "number and neighbours", "complete bet"):
            assert offered in text  # what pt-americana offers (PT-A 25-26)
        assert "jeu zéro" not in text  # not among PT-A's series
        await press(pilot, "3", "1", "enter")  # orphelins, 1 chip a unit: 5 chips
        assert "red: orphelins × 1 recorded" in screen_text(table_app)
        assert session.state.bets["red"] == (Stake(bet="orphelins", chips=1),)
        await press(pilot, "enter", "1", "7", "enter")  # launch, 17
        # orphelins has 14/17 and 17/20: 2 splits at 17 to 1 (PT-A 27c); the sheet has it already
        (line,) = [line for line in screen_text(table_app).splitlines() if "orphelins" in line]
        assert line.split() == ["Series", "orphelins", "1×", "pays", "34", "recorded"]
        assert "red is paid 34 = 1 × 20 + 14 · 170.00 EUR" in screen_text(table_app)
    (outcome,) = [o for o in session.state.last_result.outcomes if o.colour == "red"]
    assert (outcome.staked, outcome.won, outcome.returned, outcome.lost) == (5, 34, 2, 3)


async def test_neighbours_and_complete_bets_ask_their_number(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "2", "2", "4", "1", "7", "enter")  # blue, neighbours of 17
        assert "1 each side (3 chips)" in screen_text(table_app)  # PT-A 25b: 3, 5 or 7 chips
        await press(pilot, "2", "1", "enter")  # 2 each side, 1 chip a unit
        await press(pilot, "d", "2", "1", "5", "3", "2", "enter", "1", "enter")  # red, complete 32
    assert session.state.bets == {"blue": (Stake(bet="neighbours:17:2", chips=1),),
                                  "red": (Stake(bet="complete:32", chips=1),)}


async def test_a_series_outside_its_range_is_refused_by_the_limits(table_app, session):
    before = session.seq
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "2", "1", "3", "1", "1", "enter")  # red orphelins x 11: 55 chips
        # PT-A 32c, as the profile has it: orphelins from 5 to 50 chips at the minimum, by 5; the chips
        # are asked again, the refusal the question's note
        assert "Refused: orphelins: orphelins is played with 5 to 50 chips at the minimum, in multiples of 5, " \
               "not 55; refused (PT-A 32c-d)" in flat(screen_text(table_app)) + " " + asked_note(table_app)
    assert session.seq == before


async def test_a_colour_takes_its_bets_back(table_app, session):
    session.place_bets(colour="red", stakes=(Stake(bet="tiers", chips=1),))
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "3", "1")
    assert "red" not in session.state.bets


async def test_a_bet_after_no_more_bets_is_refused_when_the_flow_starts_in_the_tables_language(table_app, session):
    from croupier.i18n import install

    install("pt")
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "enter")  # launch, then "jogo feito, nada mais" (PT-A 20)
        before = session.seq
        await press(pilot, "d", "2")  # menu, announced and complete bets
        shown = flat(screen_text(table_app))
        assert "Recusado: nada mais: nenhuma aposta é feita ou alterada agora (PT-A 20)" in shown
        assert "Aposta de que cor?" not in shown  # no colour asked for: nothing to type in vain
    assert session.seq == before


async def test_a_recorded_bet_that_lost_is_not_listed_among_the_winning_positions(table_app, session):
    session.place_bets(colour="red", stakes=(Stake(bet="complete:32", chips=1),))  # 17 is far from 32
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter")  # launch, 17: the payout sheet opens on red
        text = screen_text(table_app)
        assert "Colour 1 of 2: red" in text and "recorded" not in text and "Columns" in text
