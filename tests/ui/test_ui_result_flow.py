"""The spin cycle from the keypad, at a table without a wheel sensor: launch, no more bets, the
result typed with the keypad rule and confirmed, and the refusals a croupier meets."""
from croupier.table.state import Phase
from ui_kit import flat, kinds, press, screen_text


async def test_launch_close_and_a_two_digit_result(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        assert "launches the ball clockwise" in screen_text(table_app)  # no launch yet: either way, say so
        await press(pilot, "enter")
        assert session.state.phase is Phase.SPINNING
        await press(pilot, "enter")  # # again: no more bets
        assert session.state.phase is Phase.NO_MORE_BETS
        await press(pilot, "1")  # 1 waits: it may be 1, or 10-19
        assert session.state.phase is Phase.NO_MORE_BETS and "Result  1_" in screen_text(table_app)
        await press(pilot, "7")  # 17 is proposed, not recorded
        assert session.state.last_result is None and "Result  17  ?" in screen_text(table_app)
        await press(pilot, "enter")
        assert session.state.last_result.number == 17
    recorded = [k for k in kinds(session) if k.startswith(("ball-", "bets-", "result-"))]
    assert recorded == ["ball-launched", "bets-closed", "result-entered", "result-recorded"]


async def test_zero_and_four_to_nine_are_proposed_at_once(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "5")
        assert "Result  5  ?" in screen_text(table_app)
        await press(pilot, "0")  # a digit after a proposal starts again: 0 at once
        assert "Result  0  ?" in screen_text(table_app)
        await press(pilot, "enter")
        assert session.state.last_result.number == 0
    # the ball was still running: typing the result closed the bets first (PT-A 20)
    assert [k for k in kinds(session) if k == "bets-closed"] == ["bets-closed"]


async def test_one_confirmed_with_enter_alone(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "2", "enter")  # 2 then #: 2 is proposed
        assert session.state.last_result is None
        await press(pilot, "enter")
        assert session.state.last_result.number == 2


async def test_a_number_above_36_is_refused_and_the_first_digit_stays(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "3", "9")
        assert "there is no pocket 39" in screen_text(table_app)
        await press(pilot, "6", "enter")
        assert session.state.last_result.number == 36


async def test_cancel_abandons_the_typed_number(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "8", "escape")
        assert "Entry cancelled" in screen_text(table_app)
        await press(pilot, "enter")  # nothing typed now: # means no more bets
        assert session.state.phase is Phase.NO_MORE_BETS and session.state.last_result is None


async def test_digits_before_the_launch_record_nothing(table_app, session):
    before = session.seq
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "7")
        assert "typed once the ball is launched" in screen_text(table_app)
    assert session.seq == before


async def test_the_launch_alternates_and_c_picks_the_other_way(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "4", "enter")  # spin 1, clockwise; the payout sheet opens
        await press(pilot, "d", "d")  # payouts done (nothing counted: asked twice): spin 2 is launched the other way (PT-A 21)
        assert "launches the ball anticlockwise" in screen_text(table_app)
        await press(pilot, "c")
        assert "launches the ball clockwise" in screen_text(table_app)
        await press(pilot, "enter")
        # the same direction twice is recorded, and raised as an alarm that cannot be missed
        assert session.state.launch.direction.value == "clockwise"
        text = screen_text(table_app)
        assert "Launch direction repeated" in text and "acknowledges" in text
        await press(pilot, "enter")  # # acknowledges the alarm first
        (alarm,) = session.state.alarms.values()
        assert alarm.acknowledged_by == "Ana"
        assert session.state.phase is Phase.SPINNING


async def test_on_the_panel_the_number_is_five_rows_tall(table_app, session):
    async with table_app.run_test(size=(128, 37)) as pilot:
        await press(pilot, "enter", "8", "enter", "escape")  # 8, and back from the payout sheet
        lines = screen_text(table_app).splitlines()
        # an 8 in the block font: full, sides, full, sides, full (right-aligned: no tens)
        column = lines[1].index("█")
        assert [line[column:column + 5] for line in lines[1:6]] == ["█████", "█   █", "█████", "█   █", "█████"]
        assert "black · spin 1" in lines[6]


async def test_an_ru_keypad_launch_declares_the_layout_bets(staffed_template, tmp_path, clock, config):
    """RU 4.9: no bet recorded before the spin (layout bets are counted after the result); the
    prompt says # declares them down, and # launches: the keypad table goes on without its sensor."""
    from croupier.session import TableSession
    from croupier.ui.app import TableApp
    from ui_kit import open_table, staffed_journal

    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as session:
        open_table(session, profile="ru-american", seats=False)
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            assert "the bets are down on the layout (RU 4.9)" in flat(screen_text(app))
            await press(pilot, "enter")
            assert session.state.phase is Phase.SPINNING
        (launched,) = [e.event for e in session.journal.entries() if e.event.kind == "ball-launched"]
        assert launched.bets_on_layout
