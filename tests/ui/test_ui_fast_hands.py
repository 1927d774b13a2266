"""Keys at full speed: no key sequence crashes the screen or hides the table, a key typed for a
dialog that has closed never becomes a result digit, and a screen bug is logged without secrets,
shown in a few words, and survived from the journal."""
import logging

import pytest

from croupier.table.state import Phase
from croupier.ui.app import TableApp
from croupier.ui.messages import WheelReport
from croupier.ui.table_screen import TableScreen
from croupier.wheel.events import LinkStatus
from ui_kit import burst, kinds, press, screen_text, settle


def table_on_top(app) -> bool:
    return isinstance(app.screen, TableScreen) and app.screen is app.table_screen


async def test_menu_then_three_digits_back_to_back_keeps_the_table(table_app, session):
    """/ then 2 1 1 at once: the dialog that took the 2 is gone when the 1s are handled."""
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "slash")
        burst(table_app, "2", "1", "1")
        await settle(pilot)
        burst(table_app, "escape", "escape", "escape", "escape")
        await settle(pilot)
        assert table_app.is_running and table_app.return_code in (None, 0)
        assert table_on_top(table_app) and "Roleta 1" in screen_text(table_app)


async def test_typed_ahead_keys_never_hide_the_table_from_the_wheel(session, config):
    """/ 2 1 1 1 # and / 1 6, then the wheel reports: the table screen is still there to show it."""
    app = TableApp(session, config, wheel=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "slash")
        burst(app, "2", "1", "1", "1", "numbersign")
        await settle(pilot)
        await press(pilot, "escape", "escape", "escape", "escape")
        await press(pilot, "slash")
        burst(app, "1", "6")
        await settle(pilot)
        await press(pilot, "escape", "escape", "escape", "escape")
        app.post_message(WheelReport(LinkStatus(True, 0.0, "open")))
        await settle(pilot)
        assert app.is_running and table_on_top(app)
        assert "Sensor: online" in screen_text(app)


async def test_digits_typed_for_a_refused_bet_never_become_a_result(table_app, session):
    """/ 2 2 5 just as bets close: the bet flow is refused, and the 2 5 meant for it are dropped."""
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "enter")  # launched, no more bets
        assert session.state.phase is Phase.NO_MORE_BETS
        burst(table_app, "slash", "2", "2", "5")
        await settle(pilot)
        assert "Result" not in screen_text(table_app).split("No more bets")[-1]
        assert not table_app.table_screen.entry.typed
        before = session.seq
        await press(pilot, "enter")  # one more # at a table without a sensor records nothing
        assert session.seq == before and session.state.last_result is None
    assert "result-entered" not in kinds(session)


@pytest.mark.survives_bug
async def test_a_screen_bug_is_logged_without_secrets_shown_briefly_and_survived(table_app, session, caplog,
                                                                                 monkeypatch):
    """A bug in a screen's handler: the table goes on from the journal, nothing secret is logged or
    shown, and the app does not exit."""
    salt = next(iter(session.state.staff.values())).salt
    prompt = TableScreen._prompt
    bugs = []

    def broken_once(self, state):
        if not bugs and state.phase is Phase.SPINNING:
            bugs.append(1)
            raise RuntimeError(f"bug with staff {dict(state.staff)!r} pin=1111")
        return prompt(self, state)

    monkeypatch.setattr(TableScreen, "_prompt", broken_once)
    async with table_app.run_test(size=(80, 24)) as pilot:
        with caplog.at_level(logging.ERROR, logger="croupier"):
            await press(pilot, "enter")  # the launch is recorded; redrawing fails once
            await settle(pilot)
        assert bugs and table_app.is_running and table_app.return_code in (None, 0)
        shown = screen_text(table_app)
        assert "Screen error (RuntimeError)" in shown and salt not in shown and "pin_hash" not in shown
        assert session.state.phase is Phase.SPINNING  # the launch stands, read back from the journal
        assert "Type the result, or # for no more bets" in shown
        await press(pilot, "enter")  # and the table goes on
        assert session.state.phase is Phase.NO_MORE_BETS
    logged = caplog.text
    assert "RuntimeError" in logged and salt not in logged and "1111" not in logged
    assert "pin_hash=redacted" in logged
