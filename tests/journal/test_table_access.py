"""Who may act on a journal: staff registered only at its creation or by its pit boss; a demo
never writes to a table's journal nor a table to a demo's; wrong PINs recorded and slowed down,
locked after five for a while with an alarm (never the last pit boss), unlocked at the console with
the table's key; PIN hashes peppered with the table's key."""
from __future__ import annotations

import getpass
import json
from datetime import timedelta
from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.journal.key import pepper, read_key
from croupier.journal.store import DEMO, Journal, JournalError
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import AlarmKind, Ball, Role
from croupier.table.refusal import NoPitBoss, OpeningPinMissing, PinDelayed, PinLocked, Refused, WrongPin
from croupier.table.state import Phase
from croupier.table.roles import PIN_LOCK_MINUTES, Pin, hash_pin, pin_delay

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
        with pytest.raises(NoPitBoss, match="staff are registered only in a new journal"):
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
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    yield session
    session.close()


def change_limits(session, pin: str, by: str = "Boss"):
    return session.change_limits(minimum=Decimal(10), reason="busy night", by=by, pin=pin)


def wrong_pins(session, count: int, by: str = "Boss") -> None:
    """`count` wrong PINs for `by`, each typed once the PIN is checked again."""
    for _ in range(count):
        wait = session.state.pin_waits.get(by)
        if wait is not None:
            session.clock.advance(max(wait.until - session.clock.now(), timedelta()))
        with pytest.raises(Refused) as refused:
            change_limits(session, "1234", by=by)
        assert isinstance(refused.value, WrongPin)


def test_every_wrong_pin_is_recorded_and_the_fifth_locks_the_pin_and_alarms_the_pit_boss(table):
    for attempt in range(1, 6):
        wrong_pins(table, 1)
        assert table.state.wrong_pins["Boss"] == attempt
    alarm = next(a for a in table.state.alarms.values() if a.kind is AlarmKind.PIN_LOCKED)
    assert alarm.facts.name == "Boss" and alarm.facts.minutes == PIN_LOCK_MINUTES
    with pytest.raises(Refused, match="locked") as locked:  # the right PIN is refused too now
        change_limits(table, "9000")
    assert isinstance(locked.value, PinLocked) and table.state.minimum == 5
    assert kinds(table.journal.path).count("pin-refused") == 6  # the attempt while locked is recorded too
    table.clear_alarm(alarm=alarm.id, note="PIN reset by phone with the boss", by="Chief", pin="8000")
    change_limits(table, "9000")
    assert table.state.minimum == 10 and "Boss" not in table.state.wrong_pins


def test_the_right_pin_ends_a_run_of_wrong_ones(table):
    wrong_pins(table, 3)
    table.clock.advance(minutes=1)
    change_limits(table, "9000")
    wrong_pins(table, 4)
    assert table.state.wrong_pins["Boss"] == 4  # not locked: the count started again
    assert table.state.pin_waits["Boss"].locked is False


# --- wrong PINs slow down, never lock the table out ---------------------------------------------------


def refused_rows(session) -> list[dict]:
    return [json.loads(row.body) for row in rows_of(session.journal.path) if row.kind == "pin-refused"]


def rows_of(path):
    with Journal.open(path, read_only=True) as journal:
        return list(journal.rows())


def test_wrong_pins_wait_longer_and_longer_and_attempts_while_waiting_are_recorded_unchecked(table):
    wrong_pins(table, 2)
    assert "Boss" not in table.state.pin_waits  # a slip of the finger costs nothing
    waits = []
    for _ in range(2):
        wrong_pins(table, 1)
        wait = table.state.pin_waits["Boss"]
        waits.append((wait.until - table.clock.now()).total_seconds())
    assert waits == [5, 10]
    failures = table.state.wrong_pins["Boss"]
    table.clock.advance(seconds=9)
    with pytest.raises(Refused) as early:  # the right PIN, too early: not even compared
        change_limits(table, "9000")
    assert isinstance(early.value, PinDelayed) and early.value.seconds == 1
    assert table.state.wrong_pins["Boss"] == failures and table.state.minimum == 5
    last = refused_rows(table)[-1]
    assert (last["name"], last["failures"], last.get("unchecked"), last.get("wait_seconds")) == \
        ("Boss", failures, True, None)
    table.clock.advance(seconds=1)
    change_limits(table, "9000")  # checked again once the wait is over
    assert table.state.minimum == 10 and "Boss" not in table.state.pin_waits


def test_the_delay_grows_to_five_minutes_at_most():
    assert [pin_delay(n) for n in range(1, 10)] == [0, 0, 5, 10, 20, 40, 80, 160, 300]
    assert pin_delay(50) == 300


def test_no_keypad_can_lock_every_pit_boss_out(table):
    """The attack: five wrong PINs per pit boss once locked them all for good, with no way back
    but a new journal. Now the last pit boss is only slowed, and still corrects, clears and registers."""
    table.pin_lock_minutes = 24 * 60  # a house that locks for a day: Boss stays locked throughout
    wrong_pins(table, 5, by="Boss")
    assert table.state.pin_waits["Boss"].locked
    wrong_pins(table, 12, by="Chief")
    assert table.state.wrong_pins["Chief"] == 12 and not table.state.pin_waits["Chief"].locked
    assert [a.facts.name for a in table.state.alarms.values() if a.kind is AlarmKind.PIN_LOCKED] == ["Boss"]
    table.clock.advance(minutes=5)  # the longest delay
    alarm = next(a for a in table.state.alarms.values() if a.kind is AlarmKind.PIN_LOCKED)
    table.clear_alarm(alarm=alarm.id, note="Boss called", by="Chief", pin="8000")
    table.register_staff(name="Night boss", role=Role.PIT_BOSS, pin="7000", by="Chief", by_pin="8000")
    assert "Night boss" in table.state.staff and "Boss" not in table.state.pin_waits


def test_a_journal_with_one_pit_boss_never_locks_him(tmp_path):
    clock = FakeClock()
    with TableSession.open(tmp_path / "j.db", clock) as session:
        session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
        session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
        wrong_pins(session, 20)
        assert not session.state.pin_waits["Boss"].locked
        assert not [a for a in session.state.alarms.values() if a.kind is AlarmKind.PIN_LOCKED]
    with TableSession.open(tmp_path / "j.db", clock) as session:  # a restart changes nothing
        clock.advance(minutes=5)
        change_limits(session, "9000")
        assert session.state.minimum == 10


def test_a_locked_pin_unlocks_on_its_own_after_the_configured_minutes_even_across_a_restart(tmp_path):
    clock = FakeClock()
    with TableSession.open(tmp_path / "j.db", clock, pin_lock_minutes=7) as session:
        session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
        session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
        session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Rui", pin="2222")
        for _ in range(5):
            wait = session.state.pin_waits.get("Ana")
            if wait is not None:
                clock.advance(wait.until - clock.now())
            with pytest.raises(Refused, match="wrong PIN"):
                session.relieve(role=Role.CROUPIER, incoming="Ana", pin="0000")
        locked_at = clock.now()
    with TableSession.open(tmp_path / "j.db", clock) as session:
        clock.advance(minutes=6, seconds=59)
        with pytest.raises(Refused, match="locked for 1 min more"):
            session.relieve(role=Role.CROUPIER, incoming="Ana", pin="1111")
        clock.advance(seconds=1)
        assert clock.now() - locked_at == timedelta(minutes=7)
        session.relieve(role=Role.CROUPIER, incoming="Ana", pin="1111")
        assert session.state.staff_on(Role.CROUPIER) == "Ana" and "Ana" not in session.state.wrong_pins


def test_an_acknowledgement_naming_a_pit_boss_does_not_end_his_run_of_wrong_pins(table):
    # Only a command that checked the PIN ends the run: an event merely naming him does not.
    wrong_pins(table, 5, by="Chief")  # Boss is then the last pit boss: slowed, never locked
    wrong_pins(table, 4)
    alarm = next(iter(table.state.alarms))
    table.acknowledge_alarm(alarm=alarm, by="Boss")
    assert table.state.wrong_pins["Boss"] == 4 and "Boss" in table.state.pin_waits


def test_staff_unlock_while_the_table_runs_is_refused_saying_what_to_do(table, capsys):
    wrong_pins(table, 5)
    path = table.journal.path
    before = [row.kind for row in rows_of(path)]
    assert cli(["staff", "unlock", "Boss", "--db", str(path)]) == 2
    said = capsys.readouterr().err
    assert "the table is running" in said and "nothing was recorded" in said and "stop the table" in said
    assert [row.kind for row in rows_of(path)] == before and "Boss" in table.state.pin_waits


def test_staff_unlock_keeps_the_table_s_clock_never_recording_before_the_last_event(tmp_path, capsys):
    """A Pi restarted without a battery clock: the wall clock is days behind the journal."""
    from datetime import datetime, timezone

    clock = FakeClock(datetime.now(timezone.utc) + timedelta(days=3))
    session = TableSession.open(tmp_path / "j.db", clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Chief", role=Role.PIT_BOSS, pin="8000", by="Boss", by_pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    wrong_pins(session, 5)
    session.close()
    assert cli(["staff", "unlock", "Boss", "--db", str(tmp_path / "j.db")]) == 0
    records = [json.loads(row.body) for row in rows_of(tmp_path / "j.db")]
    assert [r["kind"] for r in records[-2:]] == ["pin-unlocked", "alarm-cleared"]  # the lockout's alarm ends with it
    assert records[-3]["alarm_kind"] == "clock-jumped"  # the jump recorded, with both readings
    times = [r["time"] for r in records]
    assert times == sorted(times)


def test_staff_unlock_at_the_console_frees_a_pin_and_records_who(table, capsys):
    wrong_pins(table, 5)
    path = table.journal.path
    table.close()
    assert cli(["staff", "unlock", "Boss", "--db", str(path)]) == 0
    assert "the PIN of Boss is unlocked" in capsys.readouterr().out
    [unlocked] = [json.loads(row.body) for row in rows_of(path) if row.kind == "pin-unlocked"]
    assert unlocked["name"] == "Boss" and unlocked["operator"] == getpass.getuser()
    # The unlock answers the lockout's alarm: it ends in the same record, saying how and by whom.
    [cleared] = [json.loads(row.body) for row in rows_of(path) if row.kind == "alarm-cleared"]
    assert (cleared["answer"], cleared["by"]) == ("pin-unlocked", getpass.getuser())
    with TableSession.open(path, FakeClock(table.clock.now())) as again:
        assert "Boss" not in again.state.pin_waits
        assert not [a for a in again.state.alarms.values() if a.kind is AlarmKind.PIN_LOCKED]
        change_limits(again, "9000")
    assert cli(["staff", "unlock", "Boss", "--db", str(path)]) == 1  # nothing to unlock: nothing recorded
    assert "neither locked nor delayed" in capsys.readouterr().err
    assert cli(["staff", "unlock", "Nobody", "--db", str(path)]) == 1
    assert [row.kind for row in rows_of(path)].count("pin-unlocked") == 1


def test_staff_unlock_needs_the_tables_key(table, capsys):
    wrong_pins(table, 5)
    path = table.journal.path
    table.close()
    key = path.with_name("table.key")
    key.rename(path.with_name("elsewhere.key"))
    assert cli(["staff", "unlock", "Boss", "--db", str(path)]) == 2
    assert "key" in capsys.readouterr().err
    assert "pin-unlocked" not in [row.kind for row in rows_of(path)]


def test_a_copied_journal_alone_does_not_give_a_pin_away(table):
    boss = table.state.staff["Boss"]
    salt = bytes.fromhex(boss.salt)
    # Trying every 4-digit PIN offline against the journal's salt and hash finds nothing without the key.
    assert hash_pin("9000", salt) != boss.pin_hash
    key = read_key(table.journal.path.with_name("table.key"))
    assert hash_pin(Pin("9000", pepper(key)), salt) == boss.pin_hash
    assert "9000" not in repr(Pin("9000", pepper(key)))


def test_staff_unlock_never_makes_a_journal(tmp_path, capsys):
    missing = tmp_path / "nowhere.db"
    assert cli(["staff", "unlock", "Boss", "--db", str(missing)]) == 2
    assert "no such journal" in capsys.readouterr().err and not missing.exists()


def test_staff_unlock_while_the_table_runs_records_nothing_and_says_why(table, capsys):
    wrong_pins(table, 5)
    before = table.seq
    assert cli(["staff", "unlock", "Boss", "--db", str(table.journal.path)]) == 2  # the table holds the journal
    assert capsys.readouterr().err.startswith("croupier staff: ")
    assert table.seq == before and table.state.pin_waits["Boss"].locked


def test_the_timeline_says_what_each_pin_event_did(table, capsys):
    from croupier.history.timeline import describe

    wrong_pins(table, 5)
    with pytest.raises(Refused):
        change_limits(table, "9000")
    path = table.journal.path
    table.close()
    assert cli(["staff", "unlock", "Boss", "--db", str(path)]) == 0
    with Journal.open(path, read_only=True) as journal:
        said = [describe(entry.event) for entry in journal.entries() if entry.event.kind in ("pin-refused", "pin-unlocked")]
    assert said == ["wrong PIN for Boss (1 in a row)", "wrong PIN for Boss (2 in a row)",
                    "wrong PIN for Boss (3 in a row): not checked again for 5 s",
                    "wrong PIN for Boss (4 in a row): not checked again for 10 s",
                    f"wrong PIN for Boss (5 in a row): locked for {PIN_LOCK_MINUTES} min",
                    "a PIN typed for Boss while it waits: not checked",
                    f"the PIN of Boss unlocked at the console by {getpass.getuser()}"]


def test_opening_the_table_takes_the_opening_croupiers_pin(tmp_path):
    session = TableSession.open(tmp_path / "j.db", FakeClock())
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    with pytest.raises(OpeningPinMissing) as refused:  # the core asks it, not only the screen
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana")
    assert refused.value.name == "Ana"
    assert session.state.phase is Phase.CLOSED and not session.state.wrong_pins
    with pytest.raises(Refused, match="wrong PIN for Ana"):
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana",
                           pin="1112")
    assert session.state.phase is Phase.CLOSED and session.state.wrong_pins == {"Ana": 1}
    with pytest.raises(Refused, match="'Boss' is not registered as croupier"):
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Boss",
                           pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    assert session.state.phase is not Phase.CLOSED
    session.close()


def test_a_table_driven_by_the_sensor_alone_opens_without_a_pin(tmp_path):
    with TableSession.open(tmp_path / "j.db", FakeClock()) as session:
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="unattended",
                           sensor_only=True)
        assert session.state.phase is not Phase.CLOSED
