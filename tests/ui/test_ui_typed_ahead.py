"""One rule for keys typed ahead: a key typed for a step that has ended - by a refusal, a dialog the
table closed, the payout sheet opened by a result - is dropped and the screen says so; a digit never
becomes a chip count unless typed after that count's question was drawn. Each case at zero pause
(keys queued before the first is handled), as a storm would type them."""
from croupier.rules.spin import Direction
from croupier.table.state import Phase
from croupier.ui.app import TableApp
from croupier.ui.messages import WheelReport
from croupier.ui.number_screen import NumberScreen
from croupier.ui.payout_screen import PayoutScreen
from croupier.wheel.events import LinkStatus, WheelPhase, WheelResult, WheelState
from croupier.session import TableSession
from ui_kit import PINS, burst, flat, kinds, open_table, press, screen_text, settle, staffed_journal

CW = Direction.CLOCKWISE
DROPPED = "typed for a step that had ended: dropped"


async def wheel(pilot, *events) -> None:
    for event in events:
        pilot.app.post_message(WheelReport(event))
    await settle(pilot)


async def bets_closed_by_the_wheel(pilot) -> None:
    await wheel(pilot, LinkStatus(True, 0.0, "open"), WheelState(state=WheelPhase.PLACE_BETS, time=0, game=7, direction=CW),
                WheelState(state=WheelPhase.BALL_IN_RIM, time=1, game=7, direction=CW),
                WheelState(state=WheelPhase.NO_MORE_BETS, time=2, game=7, direction=CW))


async def test_a_digit_typed_as_the_result_comes_is_no_chip_count(session, config):
    """Case 2: 1 typed at no more bets, the wheel's 12 arrives, 7 typed right after: 17 was meant,
    not 7 chips on 12's first row."""
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await bets_closed_by_the_wheel(pilot)
        burst(app, "1")
        app.post_message(WheelReport(WheelResult(12, 3.0, 7, CW, "number-line")))
        burst(app, "7")
        await settle(pilot)
        assert isinstance(app.screen, PayoutScreen) and not app.screen.sheet.counts
        assert "7_" not in screen_text(app)


async def test_digits_after_a_result_that_interrupted_typing_wait_for_enter(session, config):
    """Case 2, at a person's speed: the sheet is drawn when the 7 comes, but the croupier was typing
    a number: the rows take no digit until # says the croupier has seen the sheet."""
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await bets_closed_by_the_wheel(pilot)
        await press(pilot, "1")
        await wheel(pilot, WheelResult(12, 3.0, 7, CW, "number-line"))
        await press(pilot, "7")
        shown = flat(screen_text(app))
        assert not app.screen.sheet.counts and "7_" not in shown
        assert "The wheel read 12 while 1 was typed: 1 dropped · # to count" in shown
        await press(pilot, "enter", "7")  # seen: now 7 is a count, on the first row
        assert list(app.screen.sheet.counts.values()) == [7]


async def test_the_legend_says_what_enter_does_while_a_result_interrupted_typing(session, config):
    """Until # says the sheet is seen, # moves no row and digits count nothing: the legend says so,
    and not "next" (# # # 2 by habit would put 2 chips one row above the one meant)."""
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await bets_closed_by_the_wheel(pilot)
        await press(pilot, "1")
        await wheel(pilot, WheelResult(12, 3.0, 7, CW, "number-line"))
        legend = flat("\n".join(screen_text(app).splitlines()[-2:]))  # the legend: the foot's two lines
        assert "#/Enter start counting" in legend and "0-9" not in legend and "next colour" in legend
        assert "#/Enter next" not in legend
        await press(pilot, "enter")
        legend = flat("\n".join(screen_text(app).splitlines()[-2:]))
        assert "0-9 chips" in legend and "#/Enter next" in legend and "start counting" not in legend


async def test_keys_typed_after_a_refused_d_are_dropped(table_app, session):
    """Case 3: D refused (999 on the plein, over its maximum), and the keys of the next spin typed
    at once: none of them goes on the sheet, nothing is recorded, the screen says so."""
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "4", "enter")  # launched; 14: the sheet
        await press(pilot, "c", "9", "9", "9")  # straight to the plein: 999 chips of red
        burst(table_app, "d", "enter", "enter", "2", "1", "enter", "5", "enter", "c", "5", "d")
        await settle(pilot)
        shown = flat(screen_text(table_app))
        assert "Refused" in shown and "10 keys " + DROPPED in shown
        assert table_app.screen.sheet.counts == {("red", "14"): 999}
    assert "payouts-recorded" not in kinds(session)
    assert session.state.phase is Phase.PAYING and session.state.last_result.number == 14


async def test_a_re_asked_box_takes_no_keys_after_one_it_does_not_take(staffed_template, tmp_path, clock, config):
    """Case 4: finale 8/9 x1 refused by the 5-chip minimum, the box asked again; then D 2 2 9 #:
    the croupier thinks the bet is recorded. The box takes none of it and records nothing."""
    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as session:
        open_table(session, profile="mt-fair")
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "slash", "2", "1")  # menu; announced bets; red
            choices = flat(screen_text(app))
            cheval = next(line.split()[0] for line in screen_text(app).splitlines() if "finale à cheval" in line
                          for line in [line.strip("█ ")])
            await press(pilot, cheval, "7")  # finale à cheval; 8/9 is the seventh pair
            await press(pilot, "1", "enter")  # 1 chip per unit: refused, asked again
            assert "Refused" in flat(screen_text(app)) and isinstance(app.screen, NumberScreen), choices
            burst(app, "d", "2", "2", "9", "enter")
            await settle(pilot)
            shown = flat(screen_text(app))
            assert isinstance(app.screen, NumberScreen) and app.screen.typed == ""
            assert "D// is not taken here: C types again, * backs out" in shown
            await press(pilot, "c", "5", "enter")  # cleared: 5 chips per unit is a bet
        assert [e.event.stakes[0].chips for e in session.journal.entries() if e.event.kind == "bets-placed"] == [5]


async def test_d_on_an_untouched_sheet_asks_once_more(table_app, session):
    """Case 6: D with nothing counted asks again; another key forgets the question; D D records."""
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "1", "7", "enter", "d")
        assert "Nothing is counted on spin 1: D again records it" in flat(screen_text(table_app))
        await press(pilot, "enter", "d")  # moved on: the question is asked again
        assert "payouts-recorded" not in kinds(session)
        await press(pilot, "d")
        assert session.state.phase is Phase.BETTING
    assert kinds(session)[-2:] == ["payouts-recorded", "payouts-completed"]


async def test_no_payout_on_a_number_the_sensor_contradicts(session, config):
    """Case 5: 33 typed before the wheel reports, the wheel reads 17: D is refused until a pit boss
    confirms the typed number or corrects it."""
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wheel(pilot, LinkStatus(True, 0.0, "open"), WheelState(state=WheelPhase.PLACE_BETS, time=0, game=7, direction=CW),
                    WheelState(state=WheelPhase.BALL_IN_RIM, time=1, game=7, direction=CW))
        await press(pilot, "3", "3", "enter")
        await wheel(pilot, WheelResult(17, 3.0, 7, CW, "number-line"))
        assert "Typed result and sensor differ" in flat(screen_text(app))
        await press(pilot, "c", "1", "d")
        assert "a pit boss confirms the typed number" in flat(screen_text(app))
        assert "payouts-recorded" not in kinds(session) and session.state.phase is Phase.PAYING
        session.correct_result(spin=1, number=17, reason="sensor right", by="Marta", pin=PINS["Marta"])
        await settle(pilot)
        await press(pilot, "1", "d")
        assert session.state.phase is Phase.BETTING
    (recorded,) = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert recorded.number == 17


async def test_a_digit_typed_as_the_typed_result_opens_the_sheet_is_dropped_and_said(table_app, session):
    """At the keypad, 0 # confirms the result and 5 comes before the sheet is drawn: no chip count,
    no refusal left behind the sheet for a result typed twice, and the sheet says the key was dropped."""
    async with table_app.run_test(size=(80, 24)) as pilot:
        burst(table_app, "enter", "enter", "0", "enter", "5")
        await settle(pilot)
        assert isinstance(table_app.screen, PayoutScreen) and not table_app.screen.sheet.counts
        assert DROPPED in flat(screen_text(table_app))
        await press(pilot, "escape")
        assert "once the ball is launched" not in flat(screen_text(table_app))


async def test_keys_dropped_on_the_sheet_are_not_said_again_on_the_table_after_escape(table_app, session):
    """The notice of keys dropped for the sheet is about the sheet: after # leaves it the table
    screen's line does not carry it, nor does the next question."""
    async with table_app.run_test(size=(80, 24)) as pilot:
        burst(table_app, "enter", "enter", "0", "enter", "5", "5")
        await settle(pilot)
        assert DROPPED in flat(screen_text(table_app))
        await press(pilot, "escape")
        assert not isinstance(table_app.screen, PayoutScreen)
        assert DROPPED not in flat(screen_text(table_app))


async def test_a_digit_typed_as_a_later_sheet_opens_is_said_on_that_sheet(table_app, session):
    """The sheet is made once and pushed again for each result: a key dropped before the second
    sheet is drawn is said on it (it once went to the table screen's line, under the sheet), and
    not again on the table after #."""
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "enter", "1", "7", "enter", "3", "d")
        assert session.state.phase is Phase.BETTING
        burst(table_app, "enter", "enter", "1", "2", "enter", "3")
        await settle(pilot)
        assert isinstance(table_app.screen, PayoutScreen) and not table_app.screen.sheet.counts
        assert DROPPED in flat(screen_text(table_app))
        await press(pilot, "escape")
        assert DROPPED not in flat(screen_text(table_app))
