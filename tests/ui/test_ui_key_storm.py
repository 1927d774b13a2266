"""Keys at any speed, at any moment: random keys of the keypad's alphabet, typed back to back with no
pause, between wheel reports, corrections and alarms, against the real app. Whatever comes, the app
runs on with the table screen under it, no screen bug is survived (the fixture of conftest fails a
test on one), the journal verifies, the state folded again from it is the state on screen, and
the screen shows that state."""
import asyncio
import logging
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st
from textual.widgets import Static

from croupier.board.model import board_for
from croupier.journal.verify import verify
from croupier.rules.spin import Direction, VoidReason
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.payouts import payouts_open
from croupier.table.refusal import Refused
from croupier.ui import text
from croupier.ui.app import TableApp
from croupier.ui.messages import WheelReport
from croupier.ui.payout_screen import PayoutScreen
from croupier.wheel.events import LinkStatus, WheelPhase, WheelResult, WheelState, WheelVoid
from ui_kit import PINS, burst, config_for, open_table, settle, staffed_journal

# The matrix keys and the USB numeric keypad's, as Textual names them.
KEYS = [*"0123456789", "number_sign", "asterisk", "a", "b", "c", "d", "enter", "escape", "plus", "minus",
        "slash", "delete"]
CW = Direction.CLOCKWISE

keys = st.lists(st.sampled_from(KEYS), min_size=24, max_size=64)
burst_of_keys = st.tuples(st.just("keys"), keys, st.booleans())  # with or without a pause after it
step = st.one_of(
    burst_of_keys, burst_of_keys, burst_of_keys,  # mostly keys
    st.tuples(st.just("wheel"), st.sampled_from(["launch", "close", "result", "void", "offline", "online"]),
              st.integers(0, 36)),
    st.tuples(st.just("correct"), st.integers(0, 36)),
    st.tuples(st.just("alarm"), st.integers(1, 70)),  # minutes pass: relief and ball swap fall due
)
STEPS = st.lists(step, min_size=15, max_size=40)


def wheel_event(kind: str, number: int, game: int, t: float):
    direction = CW if game % 2 else CW.opposite()
    if kind == "launch":
        return [WheelState(state=WheelPhase.PLACE_BETS, time=t, game=game, direction=direction),
                WheelState(state=WheelPhase.BALL_IN_RIM, time=t + 0.1, game=game, direction=direction)]
    if kind == "close":
        return [WheelState(state=WheelPhase.NO_MORE_BETS, time=t, game=game, direction=direction)]
    if kind == "result":
        return [WheelResult(number, t, game, direction, "number-line")]
    if kind == "void":
        return [WheelVoid(VoidReason.SAME_DIRECTION, t, game, "flag 2")]
    return [LinkStatus(kind == "online", t, kind)]


def shows_the_session(app: TableApp) -> None:
    """The screen shows the session's state: the last number and its spin, what to do now, the
    board's lamps, and the payout sheet of the spin whose payouts are open."""
    state = app.session.state
    assert app.board == board_for(state)
    screen = app.table_screen
    last = state.last_result
    caption = screen.query_one("#winning-caption", Static).content
    assert caption == ("no result yet" if last is None else
                       f"{text.colour_name(text_colour(last.number))} · spin {last.spin}")
    assert screen.query_one("#prompt", Static).content == screen._prompt(state)
    if isinstance(app.screen, PayoutScreen):
        assert app.screen.sheet.spin == payouts_open(state)
        assert app.screen.sheet.number == next(s.number for s in state.recent if s.spin == app.screen.sheet.spin)


def text_colour(number: int) -> str:
    from croupier.rules.wheel import colour

    return colour(number)


class Bugs(logging.Handler):
    """The screen bugs survived during one storm, as logged."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.logged: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.logged.append(record.getMessage())


async def storm(template: Path, folder: Path, steps) -> int:
    bugs = Bugs()
    logging.getLogger("croupier.ui").addHandler(bugs)
    try:
        return await _storm(template, folder, steps, bugs)
    finally:
        logging.getLogger("croupier.ui").removeHandler(bugs)


async def _storm(template: Path, folder: Path, steps, bugs: Bugs) -> int:
    clock = FakeClock()
    typed = 0
    with TableSession.open(staffed_journal(template, folder), clock) as session:
        open_table(session)
        app = TableApp(session, config_for(folder, wheel=True), wheel=True)
        async with app.run_test(size=(80, 24)) as pilot:
            game, t = 1, 0.0
            for kind, *what in steps:
                t += 1.0
                if kind == "keys":
                    burst(app, *what[0])
                    typed += len(what[0])
                    if what[1]:
                        await settle(pilot, 2)
                elif kind == "wheel":
                    if what[0] == "launch":
                        game += 1
                    for event in wheel_event(what[0], what[1], game, t):
                        app.post_message(WheelReport(event))
                elif kind == "correct" and state_has_result(session):
                    try:
                        session.correct_result(spin=session.state.last_result.spin, number=what[0],
                                               reason="storm", by="Marta", pin=PINS["Marta"])
                    except Refused:
                        pass
                elif kind == "alarm":
                    clock.advance(minutes=what[0])
                    app._tick()
            await settle(pilot)
            for _close in range(6):  # back to the table: every dialog backs out with *
                if app.screen is app.table_screen:
                    break
                await pilot.press("escape")
                await settle(pilot, 2)
            assert not bugs.logged, bugs.logged[0]
            assert app.is_running and app.return_code is None
            assert app.table_screen in app.screen_stack
            await settle(pilot)
            shows_the_session(app)
        state = session.state
        assert session.reload() == state  # the journal folds to the state the screen showed
        assert verify(session.journal).intact
    return typed


def state_has_result(session) -> bool:
    return session.state.last_result is not None


TYPED: list[int] = []  # keys typed per storm (run with -s to see the total)


@settings(max_examples=14, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(steps=STEPS)
def test_no_key_storm_breaks_the_table(staffed_template, steps):
    with tempfile.TemporaryDirectory() as folder:
        TYPED.append(asyncio.run(storm(staffed_template, Path(folder), steps)))


def test_the_storms_typed_thousands_of_keys():
    """Runs after the storms (the file's order): together they typed thousands of keys."""
    if not TYPED:
        import pytest

        pytest.skip("the storms did not run in this session")
    print(f"{len(TYPED)} storms, {sum(TYPED)} keys")
    assert sum(TYPED) >= 2000
