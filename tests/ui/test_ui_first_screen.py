"""`croupier table` draws its first screen from the configuration alone, then opens the journal,
reads its key and records the start's clock check: the keys typed meanwhile go to the screen the
table starts with, in order, and a journal that cannot be used still ends the table with its one
line, recording nothing."""
import dataclasses
import subprocess
import sys
import textwrap

import pytest

from croupier import timesync
from croupier.commands.table import EXIT_JOURNAL_UNUSABLE, opening
from croupier.table.clock import FakeClock
from croupier.table.events import ClockChecked, StaffRegistered
from croupier.ui.app import TableApp
from croupier.ui.start_screen import StartScreen
from ui_kit import burst, screen_text, settle, staffed_journal


@pytest.fixture(autouse=True)
def clock_standing(monkeypatch):
    monkeypatch.setattr(timesync, "standing", lambda: timesync.ClockStanding(False, "adjtimex", False))


@pytest.fixture
def config(config):
    """The screen tests' table with a USB keypad and no display board: no pins to open."""
    return dataclasses.replace(config, display=None, keypad=dataclasses.replace(config.keypad, kind="usb"))


def starting(config, *keys: str, seen: list | None = None):
    """The command's `opening`, with `keys` typed while it opens the journal (and what was on screen then)."""
    def opened(app):
        if seen is not None:
            seen.append((type(app.screen), screen_text(app)))
        burst(app, *keys)
        return opening(app)
    return TableApp(None, config, opening=opened)


async def test_the_first_screen_is_on_the_terminal_before_the_journal_is_opened(tmp_path, config):
    seen: list = []
    app = starting(config, seen=seen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "New PIN for Marta" in screen_text(app)
    (screen, shown), = seen
    assert screen is StartScreen and config.table.name in shown and "menu" in shown


async def test_keys_typed_while_the_table_starts_go_to_its_first_dialog_after_the_clock_check(tmp_path, config):
    app = starting(config, *"9000", "enter", *"9000", "enter")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, 12)
        assert "New PIN for Ana (croupier)" in screen_text(app)  # Marta's PIN was typed twice, and taken
    kinds = [type(entry.event) for entry in app.session.journal.entries()]
    app.session.close()
    assert kinds[:2] == [ClockChecked, StaffRegistered]  # recorded as before: the clock check first


async def test_keys_typed_while_the_table_starts_go_to_the_table_screen_in_order(staffed_template, tmp_path, config):
    from croupier.session import TableSession
    from ui_kit import open_table

    with TableSession.open(staffed_journal(staffed_template, tmp_path), FakeClock()) as session:
        open_table(session)
    app = starting(config, "slash", "4")  # the menu, then its ball swap, typed before the table is up
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, 12)
        assert "Ball swap: put in play" in screen_text(app)
    app.session.close()


async def test_a_journal_that_cannot_be_used_ends_the_table_after_its_first_screen_recording_nothing(tmp_path,
                                                                                                    config):
    config.journal_path.write_bytes(b"not a journal" * 100)
    before = sorted(path.name for path in tmp_path.iterdir()), config.journal_path.read_bytes()
    seen: list = []
    app = starting(config, *"9000", "enter", seen=seen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
    assert seen and app.return_code == EXIT_JOURNAL_UNUSABLE and not app.opened
    assert app.not_started is not None and len(app.not_started.line.splitlines()) == 1
    assert str(config.journal_path) in app.not_started.line or "journal" in app.not_started.line
    assert (sorted(path.name for path in tmp_path.iterdir()), config.journal_path.read_bytes()) == before


def test_the_first_screen_needs_neither_the_journal_nor_cryptography(tmp_path, config):
    """In a fresh interpreter, as `croupier table` starts: at the moment of the first screen neither
    the journal's modules nor cryptography have been imported."""
    script = textwrap.dedent(f"""
        import asyncio, dataclasses, sys
        from pathlib import Path
        from croupier.config import default_config
        from croupier.ui.app import TableApp
        from croupier.ui.start_screen import NotStarted

        config = dataclasses.replace(default_config(environ={{}}), journal_path=Path({str(tmp_path / 'journal.db')!r}))
        loaded = []

        def opened(app):
            loaded.append(sorted(m for m in sys.modules if m.startswith(("cryptography", "croupier.journal",
                                                                          "croupier.session", "sqlite3"))))
            raise NotStarted("seen", 0)

        async def main():
            app = TableApp(None, config, opening=opened)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()

        asyncio.run(main())
        print(loaded)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1:] == ["[[]]"], done.stdout + done.stderr


async def test_a_clock_check_the_disk_refuses_ends_the_table_with_its_line_and_lets_the_journal_go(
        tmp_path, config, monkeypatch):
    from croupier.commands import table
    from croupier.commands.table import EXIT_JOURNAL_FAULT
    from croupier.journal.store import Journal, JournalFault

    def full(session, config):
        raise JournalFault("the disk is full")

    monkeypatch.setattr(table, "record_clock", full)
    app = starting(config, *"9000", "enter")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
    assert app.return_code == EXIT_JOURNAL_FAULT and not app.opened
    assert app.not_started is not None and app.not_started.line == "the disk is full"
    with Journal.open(config.journal_path) as journal:  # let go, and nothing in it
        assert journal.head[0] == 0
