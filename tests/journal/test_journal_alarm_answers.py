"""An overdue relief or ball swap ends with the procedure that answers it, and the journal records
that ending as its clearing (with who did it and which procedure): every reader of the record - the
table's state, the report's procedures, the timeline, the floor - reads the same event. A journal
written before the clearing was recorded reads the same."""
from __future__ import annotations

from croupier.cli import main as cli
from croupier.history.procedures import Procedures
from croupier.history.timeline import timeline
from croupier.table.clock import FakeClock
from croupier.table.events import AlarmAnswer, AlarmCleared, AlarmKind, Role
from croupier.session import TableSession
from croupier.table.state import fold

from journal_kit import write_shift


def overdue_then_done(path):
    """A shift whose croupier stayed 61 min with the same ball: both alarms raised, then Rui takes
    over and swaps the ball."""
    clock = FakeClock()
    session = write_shift(path, clock)
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    clock.advance(minutes=61)
    session.tick()
    assert {a.kind for a in session.state.alarms.values()} == {AlarmKind.RELIEF_OVERDUE, AlarmKind.BALL_SWAP_OVERDUE}
    session.relieve(role=Role.CROUPIER, incoming="Rui", pin="2222")
    session.swap_ball(by="Rui")
    return session


def test_a_relief_and_a_ball_swap_record_the_end_of_the_alarms_they_answer(tmp_path):
    session = overdue_then_done(tmp_path / "T1.db")
    entries = list(session.journal.entries())
    state = session.state
    session.close()
    raised = {e.event.alarm_kind: e.event.alarm for e in entries if e.event.kind == "alarm-raised"}
    ended = [e.event for e in entries if isinstance(e.event, AlarmCleared)]
    assert [(c.alarm, c.answer, c.by) for c in ended] == [
        (raised[AlarmKind.RELIEF_OVERDUE], AlarmAnswer.RELIEF, "Rui"),
        (raised[AlarmKind.BALL_SWAP_OVERDUE], AlarmAnswer.BALL_SWAP, "Rui")]
    kinds = [e.event.kind for e in entries]
    assert kinds.index("alarm-cleared") == kinds.index("staff-relieved") + 1  # in the relief's own record
    assert state.alarms == {}
    lines = [row.text for row in timeline(entries)]
    assert f"alarm {raised[AlarmKind.RELIEF_OVERDUE]}: ended at the table: relief done by Rui" in lines
    assert f"alarm {raised[AlarmKind.BALL_SWAP_OVERDUE]}: ended at the table: ball swapped by Rui" in lines


def test_the_recorded_endings_read_back_after_the_table_restarts_and_the_journal_verifies(tmp_path, capsys):
    path = tmp_path / "T1.db"
    session = overdue_then_done(path)
    written = [e.event for e in session.journal.entries()]
    state = session.state
    session.close()
    with TableSession.open(path, FakeClock()) as again:  # the table started again on its journal
        assert [e.event for e in again.journal.entries()] == written
        assert again.state == state and again.state.alarms == {}
    assert cli(["verify", "--db", str(path), "--key", str(path.with_name("table.key"))]) == 0
    assert f"intact: {len(written)} events" in capsys.readouterr().out


def test_a_journal_without_the_recorded_ending_reads_the_same(tmp_path):
    """The state and the report's procedures of the journal, and of the same journal less its
    recorded endings (as a table wrote it before): alike, the alarms ended by whoever did the procedure."""
    session = overdue_then_done(tmp_path / "T1.db")
    entries = list(session.journal.entries())
    session.close()
    older = [e for e in entries if not (isinstance(e.event, AlarmCleared) and e.event.answer is not None)]
    assert len(older) == len(entries) - 2
    assert fold(e.event for e in older) == fold(e.event for e in entries)
    procedures = []
    for journal in (entries, older):
        fold_ = Procedures()
        fold_.add_all((e.seq, e.event) for e in journal)
        procedures.append([(a.kind, a.cleared_by, a.cleared_note) for a in fold_.alarms])
    assert procedures[0] == procedures[1] == [("relief-overdue", "Rui", ""), ("ball-swap-overdue", "Rui", "")]


def test_a_pin_unlocked_at_the_console_ends_its_lockout_alarm_saying_so(tmp_path):
    import pytest

    from croupier.table.refusal import Refused

    clock = FakeClock()
    session = write_shift(tmp_path / "T1.db", clock)
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    for _ in range(5):
        wait = session.state.pin_waits.get("Rui")
        if wait is not None:
            clock.advance(wait.until - clock.now())
        with pytest.raises(Refused):
            session.relieve(role=Role.CROUPIER, incoming="Rui", pin="0000")
    [locked] = [a.id for a in session.state.alarms.values() if a.kind is AlarmKind.PIN_LOCKED]
    session.unlock_pin(name="Rui", operator="root")
    entries = list(session.journal.entries())
    assert session.state.alarms == {} and "Rui" not in session.state.pin_waits
    session.close()
    [ended] = [e.event for e in entries if isinstance(e.event, AlarmCleared)]
    assert (ended.alarm, ended.answer, ended.by) == (locked, AlarmAnswer.PIN_UNLOCKED, "root")
    assert f"alarm {locked}: ended at the table: PIN unlocked at the console by root" in [r.text for r in timeline(entries)]
    fold_ = Procedures()
    fold_.add_all((e.seq, e.event) for e in entries)
    assert [(a.kind, a.cleared_by) for a in fold_.alarms] == [("pin-locked", "root")]
