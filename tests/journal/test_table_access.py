"""Who may act on a journal: staff registered only at its creation or by its pit boss; a demo
never writes to a table's journal nor a table to a demo's; wrong PINs recorded, locked after five
with an alarm to the pit boss; PIN hashes peppered with the table's key."""
from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.journal.key import pepper, read_key
from croupier.journal.store import DEMO, Journal, JournalError
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import AlarmKind, Ball, Role
from croupier.table.refusal import Refused
from croupier.table.roles import Pin, hash_pin

from journal_kit import BALLS, stored_head, write_shift


def kinds(path) -> list[str]:
    with Journal.open(path, read_only=True) as journal:
        return [row.kind for row in journal.rows()]


# --- item 10: staff only at creation, or by the pit boss --------------------------------------------


def test_a_journal_started_without_staff_never_takes_a_pit_boss_from_the_keyboard(tmp_path):
    path = tmp_path / "headless.db"
    with TableSession.open(path, FakeClock()) as session:  # as `croupier run --headless` starts one
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS,
                           croupier="unattended", sensor_only=True)
    with TableSession.open(path, FakeClock()) as session:  # later, `croupier table` on it
        with pytest.raises(Refused, match="registered only when a journal is created"):
            session.register_staff(name="Intruder", role=Role.PIT_BOSS, pin="1234")
        assert session.state.staff == {}
    assert "staff-registered" not in kinds(path)


def test_a_new_journal_takes_its_pit_boss_and_he_alone_registers_more(tmp_path):
    with TableSession.open(tmp_path / "j.db", FakeClock()) as session:
        session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
        with pytest.raises(Refused, match="a pit-boss must give their name and PIN"):
            session.register_staff(name="Eve", role=Role.PIT_BOSS, pin="1234")
        session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
        assert set(session.state.staff) == {"Boss", "Ana"}


# --- item 11: demo and table journals never mix -----------------------------------------------------


def test_the_demo_refuses_a_tables_journal_and_leaves_it_as_it_was(tmp_path, capsys):
    real = tmp_path / "journal.db"
    write_shift(real).close()
    before = real.read_bytes(), stored_head(real)
    assert cli(["demo", "--db", str(real)]) == 1
    assert "the demo writes only to a journal it created" in capsys.readouterr().err
    assert (real.read_bytes(), stored_head(real)) == before


def test_a_table_never_opens_a_demo_journal(tmp_path):
    demo = tmp_path / "demo.db"
    TableSession.open(demo, FakeClock(), purpose=DEMO).close()
    with pytest.raises(JournalError, match="is a demo journal: its results are simulated"):
        TableSession.open(demo, FakeClock())
    TableSession.open(demo, FakeClock(), purpose=DEMO).close()  # the demo keeps using its own
    TableSession.open(demo, FakeClock(), read_only=True).close()  # and the review reads it


# --- item 12: wrong PINs recorded, locked after five, alarmed; peppered hashes ----------------------


@pytest.fixture
def table(tmp_path):
    clock = FakeClock()
    session = TableSession.open(tmp_path / "j.db", clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Chief", role=Role.PIT_BOSS, pin="8000", by="Boss", by_pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana")
    yield session
    session.close()


def change_limits(session, pin: str, by: str = "Boss"):
    return session.change_limits(minimum=Decimal(10), reason="busy night", by=by, pin=pin)


def test_every_wrong_pin_is_recorded_and_the_fifth_locks_the_pin_and_alarms_the_pit_boss(table):
    for attempt in range(1, 6):
        with pytest.raises(Refused, match="wrong PIN for Boss"):
            change_limits(table, f"{1000 + attempt}")
        assert table.state.wrong_pins["Boss"] == attempt
    alarm = next(a for a in table.state.alarms.values() if a.kind is AlarmKind.PIN_LOCKED)
    assert alarm.facts.name == "Boss"
    with pytest.raises(Refused, match="locked") as locked:  # the right PIN is refused too now
        change_limits(table, "9000")
    assert locked.value.code == "pin-locked" and table.state.minimum == 5
    assert kinds(table.journal.path).count("pin-refused") == 5
    table.clear_alarm(alarm=alarm.id, note="PIN reset by phone with the boss", by="Chief", pin="8000")
    change_limits(table, "9000")
    assert table.state.minimum == 10 and "Boss" not in table.state.wrong_pins


def test_the_right_pin_ends_a_run_of_wrong_ones(table):
    for wrong in ("1234", "2222", "3333"):
        with pytest.raises(Refused):
            change_limits(table, wrong)
    change_limits(table, "9000")
    for wrong in ("1234", "2222", "3333", "4444"):
        with pytest.raises(Refused, match="wrong PIN"):
            change_limits(table, wrong)
    assert table.state.wrong_pins["Boss"] == 4  # not locked: the count started again


def test_a_copied_journal_alone_does_not_give_a_pin_away(table):
    boss = table.state.staff["Boss"]
    salt = bytes.fromhex(boss.salt)
    # Trying every 4-digit PIN offline against the journal's salt and hash finds nothing without the key.
    assert hash_pin("9000", salt) != boss.pin_hash
    key = read_key(table.journal.path.with_name("table.key"))
    assert hash_pin(Pin("9000", pepper(key)), salt) == boss.pin_hash
    assert "9000" not in repr(Pin("9000", pepper(key)))
