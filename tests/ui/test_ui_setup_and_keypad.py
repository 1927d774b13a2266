"""A new journal is set up at the table (PINs typed there, never in the configuration), and the
GPIO matrix keypad drives the screen from its own thread."""
import dataclasses
from decimal import Decimal

import pytest

from croupier.session import TableSession
from croupier.table.events import Role
from croupier.table.state import Phase
from croupier.ui.app import TableApp
from ui_kit import press, screen_text


async def type_pin(pilot, pin: str) -> None:
    await press(pilot, *pin, "enter")


async def test_a_new_journal_gets_its_pit_boss_staff_pins_and_an_open_table(tmp_path, clock, config):
    posted = (Decimal(10), Decimal(25))  # the configuration's [table] posted_values (PT-A 9)
    config = dataclasses.replace(config, table=dataclasses.replace(config.table, posted_values=posted))
    with TableSession.open(tmp_path / "new.db", clock) as session:
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "New PIN for Marta" in screen_text(app)
            await type_pin(pilot, "9000")
            await type_pin(pilot, "9001")  # a slip: asked again
            assert "The two PINs differ" in screen_text(app)
            await type_pin(pilot, "9000")
            await type_pin(pilot, "9000")
            assert "New PIN for Ana (croupier)" in screen_text(app)
            await type_pin(pilot, "1111")
            await type_pin(pilot, "1111")
            await press(pilot, "escape")  # Rui is not here today: no PIN
            await type_pin(pilot, "3333")
            await type_pin(pilot, "3333")
            assert "Open the table: croupier at the wheel" in screen_text(app)
            await press(pilot, "1")  # Ana, who gives her PIN to open the table
            assert "PIN of Ana" in screen_text(app)
            await type_pin(pilot, "1112")  # a wrong PIN opens nothing, and is recorded
            assert session.state.phase is Phase.CLOSED and "wrong PIN for Ana" in screen_text(app)
            await press(pilot, "D")  # the menu: open the table again
            await press(pilot, "1")
            await type_pin(pilot, "1111")
            await press(pilot, "2")  # Ines inspects
            assert "The table is open: bets are open" in screen_text(app)
        state = session.state
        assert state.phase is Phase.BETTING and set(state.staff) == {"Marta", "Ana", "Ines"}
        assert state.staff["Marta"].role is Role.PIT_BOSS and "9000" not in state.staff["Marta"].pin_hash
        assert (state.staff_on(Role.CROUPIER), state.staff_on(Role.INSPECTOR)) == ("Ana", "Ines")
        assert (state.profile, state.colours, state.posted_values) == (config.table.profile, config.colours, posted)


async def test_a_new_journal_whose_clock_standing_was_recorded_at_start_still_gets_its_pit_boss(tmp_path, clock,
                                                                                                 config):
    with TableSession.open(tmp_path / "new.db", clock) as session:
        # `croupier table` records what the clock rests on before the screen starts
        session.check_clock(synchronised=False, told_by="adjtimex", rtc=False, tolerance_seconds=10)
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "New PIN for Marta" in screen_text(app)
            await type_pin(pilot, "9000")
            await type_pin(pilot, "9000")
        assert session.state.staff["Marta"].role is Role.PIT_BOSS


@pytest.fixture
def mock_pins():
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    factory = Device.pin_factory = MockFactory()
    yield factory
    factory.reset()
    Device.pin_factory = previous


async def hold(pilot, factory, row: int, column: int) -> None:
    """Hold the key at (row, column): the column reads low while its row is driven low."""
    row_pin, column_pin = factory.pin(row), factory.pin(column)
    column_pin._get_state = lambda: row_pin.state  # pulled up, joined to the row by the pressed key
    column_pin.drive_low()  # the edge the press makes: every row is low while the keypad waits
    await pilot.pause(0.15)  # the scan debounces 30 ms
    del column_pin._get_state
    column_pin.drive_high()
    await pilot.pause(0.15)


async def test_the_matrix_keypad_types_the_result_from_its_own_thread(mock_pins, session, config):
    import dataclasses

    from croupier.ui.runtime import Devices, matrix_keypad

    wired = dataclasses.replace(config, keypad=dataclasses.replace(config.keypad, kind="gpio"))
    rows, columns = wired.keypad.rows, wired.keypad.columns  # the matrix: 1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D
    devices = Devices()
    devices.add(matrix_keypad(wired))
    app = TableApp(session, wired, wheel=False, devices=devices)
    async with app.run_test(size=(80, 24)) as pilot:
        await hold(pilot, mock_pins, rows[3], columns[2])  # '#': launch
        assert session.state.phase is Phase.SPINNING
        await hold(pilot, mock_pins, rows[1], columns[1])  # '5'
        await hold(pilot, mock_pins, rows[3], columns[2])  # '#': confirm
        assert session.state.last_result.number == 5
