"""A clock the table trusts: the system clock is checked against the monotonic clock; a jump beyond
the tolerance is recorded as the `clock-jumped` alarm with both readings and not followed, so no
event is recorded before the one before it and reliefs and ball swaps run on the monotonic clock;
the clock's standing is recorded at each start; `croupier doctor` says how to fix a clock on its own."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import GuardedClock
from croupier.table.events import AlarmKind, AlarmRaised, ClockChecked, Role

from journal_kit import BALLS

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)


class Machine:
    """A wall clock someone can set, and a monotonic clock that only runs."""

    def __init__(self) -> None:
        self.wall, self.running = T0, 1000.0

    def run(self, **units: float) -> None:
        step = timedelta(**units)
        self.wall += step
        self.running += step.total_seconds()

    def set_wall(self, **units: float) -> None:
        self.wall += timedelta(**units)

    def clock(self) -> GuardedClock:
        return GuardedClock(timedelta(seconds=10), wall=lambda: self.wall, monotonic=lambda: self.running)


def test_a_jump_is_taken_out_handed_on_once_and_the_way_back_too():
    machine = Machine()
    clock = machine.clock()
    machine.run(minutes=1)
    machine.set_wall(hours=-2)
    assert clock.now() == T0 + timedelta(minutes=1)  # the table's time goes on
    (back,) = clock.jumps()
    assert (back.wall, back.table) == (T0 + timedelta(minutes=1, hours=-2), T0 + timedelta(minutes=1))
    assert clock.jumps() == []
    machine.run(seconds=30)
    machine.set_wall(seconds=3)  # a time server's small correction: followed, no jump
    assert clock.now() == T0 + timedelta(minutes=1, seconds=33) and clock.jumps() == []
    machine.set_wall(hours=2)  # back where it was: the table meets it again, and says so
    assert clock.now() == machine.wall
    (forward,) = clock.jumps()
    assert forward.wall == forward.table == machine.wall


def test_a_start_behind_the_journal_starts_at_its_last_event():
    machine = Machine()
    clock = machine.clock()
    clock.not_before(T0 + timedelta(hours=2))
    assert clock.now() == T0 + timedelta(hours=2)
    (jump,) = clock.jumps()
    assert jump.wall == T0 and jump.table == T0 + timedelta(hours=2)


def open_table(path, clock) -> TableSession:
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue"), balls=BALLS, croupier="Ana",
                       pin="1111")
    return session


def spin(session, machine, number, direction) -> None:
    machine.run(seconds=40)
    session.launch(direction=direction)
    machine.run(seconds=20)
    session.enter_result(number=number)
    session.confirm_result()
    session.payouts_done()


def test_clock_set_back_and_forward_under_a_running_table(tmp_path):
    machine = Machine()
    session = open_table(tmp_path / "journal.db", machine.clock())
    spin(session, machine, 17, Direction.CLOCKWISE)
    machine.set_wall(hours=-2)  # 11:04 becomes 09:04
    spin(session, machine, 5, Direction.ANTICLOCKWISE)
    machine.set_wall(days=3, hours=2)  # three days ahead
    spin(session, machine, 8, Direction.CLOCKWISE)
    machine.set_wall(days=-3)  # and back
    spin(session, machine, 11, Direction.ANTICLOCKWISE)
    session.close()
    with TableSession.open(tmp_path / "journal.db", machine.clock(), read_only=True) as reader:
        events = [entry.event for entry in reader.journal.entries()]
    times = [event.time for event in events]
    assert times == sorted(times) and times[-1] - times[0] < timedelta(minutes=10)
    jumps = [event for event in events if isinstance(event, AlarmRaised) and event.alarm_kind is AlarmKind.CLOCK_JUMPED]
    assert len(jumps) == 3
    readings = [(jump.facts.wall_clock - jump.facts.table_clock) for jump in jumps]
    assert readings == [timedelta(hours=-2), timedelta(days=3), timedelta()]
    assert "jumped back" in jumps[0].detail and "jumped forward" in jumps[1].detail
    kinds = {event.alarm_kind for event in events if isinstance(event, AlarmRaised)}
    assert kinds == {AlarmKind.CLOCK_JUMPED}  # no relief or ball swap overdue from the days that never passed


def test_the_report_says_where_the_clock_jumped(tmp_path, capsys, machine_zone):
    from croupier.cli import main as cli

    machine_zone("Europe/Rome")  # the report's times and the jump's in the table's zone: UTC+01:00 in January
    machine = Machine()
    session = open_table(tmp_path / "journal.db", machine.clock())
    spin(session, machine, 17, Direction.CLOCKWISE)
    machine.set_wall(hours=-2)
    spin(session, machine, 5, Direction.ANTICLOCKWISE)
    session.close()
    assert cli(["report", "--db", str(tmp_path / "journal.db")]) == 0
    out = capsys.readouterr().out
    # at 10:01:40 by the table's clock, the system clock read 08:01:40 (both in Rome), as the report
    # writes every time: 07:01:40 and 09:01:40 UTC
    assert ("6 Jan 2025, 10:01:40  clock-jumped: The system clock jumped back: it read 6 Jan 2025, 08:01:40 when "
            "the table's clock read 6 Jan 2025, 10:01:40; the table keeps its own time") in out
    assert out.index("#1      17") < out.index("#2       5")  # filed in recorded order, at the table's times


def test_no_event_is_recorded_earlier_than_the_one_before_it(tmp_path):
    from croupier.table.clock import FakeClock

    clock = FakeClock(T0 + timedelta(hours=1))
    session = open_table(tmp_path / "journal.db", clock)
    last = session.state.last_event_time
    session.journal.close()
    clock = FakeClock(T0)  # a plain clock an hour behind the journal
    with TableSession.open(tmp_path / "journal.db", clock) as session:
        (launched,) = session.launch(direction=Direction.CLOCKWISE)
    assert launched.time == last


def test_the_table_records_its_clock_standing_at_each_start(tmp_path, monkeypatch):
    from croupier import timesync
    from croupier.commands.table import open_session, record_clock
    from croupier.config import default_config
    from dataclasses import replace

    monkeypatch.setattr(timesync, "standing", lambda: timesync.ClockStanding(False, "adjtimex", False))
    config = replace(default_config(), journal_path=tmp_path / "journal.db")
    with open_session(config.journal_path, config) as session:
        record_clock(session, config)
        (checked,) = [entry.event for entry in session.journal.entries() if isinstance(entry.event, ClockChecked)]
    assert (checked.synchronised, checked.told_by, checked.rtc, checked.tolerance_seconds) == (False, "adjtimex",
                                                                                               False, 10)


def test_the_jump_is_worded_in_the_tables_language(machine_zone):
    from croupier.history.words import alarm_detail_words, alarm_subject_words, alarm_words
    from croupier.i18n import install
    from croupier.table.events import AlarmFacts

    machine_zone("Europe/Rome")
    facts = AlarmFacts(rule="", wall_clock=T0 - timedelta(hours=2), table_clock=T0)
    install("pt")
    assert alarm_words("clock-jumped") == "Relógio do sistema saltou"
    assert alarm_subject_words(facts, "system clock") == "relógio do sistema"
    # in the reader's zone, as every other time it shows (the machine's here: UTC+01:00 in January)
    assert "saltou para trás: marcava 06/01/2025, 08:00:00 quando o relógio da mesa marcava 06/01/2025, 10:00:00;" in (
        alarm_detail_words("clock-jumped", facts, "the system clock jumped back"))
