"""The colours come in the order they were given, always: on the table, on the payout sheet, after
any number of restarts (a snapshot's keys are sorted; the order is not). A croupier pays by habit in
that order: blue's chip worth ten times red's, counted on red, is a wrong payout."""
from decimal import Decimal

from croupier.session import TableSession
from croupier.table.state import Phase, decode_state, encode_state
from croupier.ui.app import TableApp
from ui_kit import BALLS, COLOURS, POSTED, config_for, press, screen_text, staffed_journal

GIVEN = (("red", 5), ("green", 10), ("blue", 20))  # not in alphabetical order
# A shift, step by step: launch; 17 typed and confirmed (the sheet); on to the third colour; back to
# the table; the sheet again, each colour's chips, payouts recorded; the next launch and result (the
# sheet); back to the table. A restart leaves the sheet: B opens it again (counts are kept until D
# records them, not across a restart, so a step that counts starts and ends on the sheet).
STEPS = (("enter",), ("1", "7", "enter"), ("b", "b"), ("escape",), ("2", "b", "3", "b", "4", "d"), ("enter",),
         ("5", "enter"), ("escape",))


def opened(session) -> None:
    session.open_table(profile="pt-americana", minimum=Decimal(5), colours=COLOURS, balls=BALLS, croupier="Ana",
                       pin="1111",
                       inspector="Ines", posted_values=POSTED, by="Marta")
    for seat, (colour, value) in enumerate(GIVEN, 1):
        session.assign_colour(colour=colour, player=f"seat {seat}", chip_value=Decimal(value), chips=50, by="Ana")


async def step(pilot, keys) -> None:
    """One step, from the payout sheet while payouts are open (B opens it from the table)."""
    app = pilot.app
    if app.session.state.phase is Phase.PAYING and app.screen is app.table_screen:
        await press(pilot, "b")
    await press(pilot, *keys)


async def screens(template, folder, clock, *, restart: bool) -> list[str]:
    """The screen after each step of the shift, the table restarted between steps or not."""
    path = staffed_journal(template, folder)
    config = config_for(folder)
    with TableSession.open(path, clock) as session:
        opened(session)
    shown = []
    session = TableSession.open(path, clock)
    try:
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            for keys in STEPS:
                if restart:
                    await app.action_quit()
                    break
                await step(pilot, keys)
                shown.append(screen_text(app))
    finally:
        session.close()
    if not restart:
        return shown
    for at, keys in enumerate(STEPS):
        with TableSession.open(path, clock) as session:
            assert tuple(session.state.accounts) == tuple(c for c, _v in GIVEN), "restarted from the snapshot"
            app = TableApp(session, config, wheel=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await step(pilot, keys)
                shown.append(screen_text(app))
    return shown


def test_a_snapshot_keeps_the_order_the_colours_were_given(staffed_template, tmp_path, clock):
    with TableSession.open(staffed_journal(staffed_template, tmp_path), clock) as session:
        opened(session)
        state = session.state
    assert tuple(decode_state(encode_state(state)).accounts) == ("red", "green", "blue")


async def test_every_screen_is_the_same_with_a_restart_between_steps(staffed_template, tmp_path, clock):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    straight = await screens(staffed_template, tmp_path / "a", clock, restart=False)
    restarted = await screens(staffed_template, tmp_path / "b", clock, restart=True)
    assert "Colour 1 of 3: red" in straight[1] and "Colour 3 of 3: blue" in straight[2]
    for step, (one, other) in enumerate(zip(straight, restarted)):
        assert other == one, f"after step {step} {STEPS[step]}"
