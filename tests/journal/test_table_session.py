"""The session: commands committed before they return, state rebuilt from snapshot and tail,
subscribers told after the commit, refusals that record nothing, and the shift report."""
from __future__ import annotations

import json
import sqlite3
from decimal import Decimal

import pytest

from croupier import session as session_module
from croupier.cli import main as cli
from croupier.journal.store import Journal, JournalError
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.refusal import Refused
from croupier.table.state import VERSION, fold

from journal_kit import stored_head, write_shift


def all_events(path):
    with Journal.open(path, read_only=True) as journal:
        return [entry.event for entry in journal.entries()]


def test_reopening_gives_the_state_the_events_fold_to(tmp_path, monkeypatch):
    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 7)
    path = tmp_path / "j.db"
    session = write_shift(path)
    before = session.state
    session.journal.close()  # as if the power went: no closing snapshot
    again = TableSession.open(path, FakeClock())
    assert again.state == before == fold(all_events(path))
    with Journal.open(path, read_only=True) as journal:
        snapshot = journal.latest_snapshot(VERSION)
    assert snapshot is not None and again.seq - snapshot.seq < 7  # start-up folded only the tail
    again.close()


def test_a_snapshot_of_another_layout_is_ignored_and_the_events_refolded(tmp_path, monkeypatch):
    path = tmp_path / "j.db"
    write_shift(path).close()
    monkeypatch.setattr(session_module, "VERSION", 99)
    reopened = TableSession.open(path, FakeClock())
    assert reopened.state == fold(all_events(path))
    reopened.close()


def test_subscribers_hear_of_each_event_after_it_is_committed(tmp_path):
    path = tmp_path / "j.db"
    session = write_shift(path)
    heard = []

    def listener(event, state):
        with Journal.open(path, read_only=True) as reader:  # another program sees it already
            heard.append((event.kind, reader.head[0], state.phase.value))

    def broken(event, state):
        raise RuntimeError("a screen's bug")

    session.subscribe(broken)
    stop = session.subscribe(listener)
    session.launch(direction=session.state.last_direction.opposite())
    assert heard == [("ball-launched", session.seq, "spinning")]
    stop()
    session.close_bets()
    assert len(heard) == 1
    session.close()


def test_refused_commands_record_nothing(tmp_path):
    path = tmp_path / "j.db"
    session = write_shift(path)
    seq, size = session.seq, len(all_events(path))
    with pytest.raises(Refused, match="red is taken by seat 1"):
        session.assign_colour(colour="red", player="seat 2", chip_value=Decimal("5"), chips=10, by="Ana")
    with pytest.raises(Refused, match=r"1 is not a value of this table: the minimum or a posted value, 5 \(PT-A 9\)"):
        session.assign_colour(colour="blue", player="seat 2", chip_value=Decimal("1"), chips=10, by="Ana")
    with pytest.raises(Refused, match="a pit-boss must give their name and PIN"):
        session.correct_result(spin=8, number=3, reason="misread", by="Boss", pin=None)
    assert session.seq == seq and len(all_events(path)) == size
    session.close()


def test_a_read_only_session_shows_the_table_and_writes_nothing(tmp_path):
    path = tmp_path / "j.db"
    write_shift(path).close()
    review = TableSession.open(path, FakeClock(), read_only=True)
    assert review.state.counted == 8
    with pytest.raises(JournalError, match="read-only"):
        review.launch(direction=Direction.CLOCKWISE)
    review.close()


def test_a_journal_that_cannot_be_read_stops_the_table_and_is_left_alone(tmp_path):
    path = tmp_path / "j.db"
    write_shift(path).close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\x00" * (4096 - 100)  # the schema page wiped
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError, match="cannot be read.*Nothing was written.*croupier verify"):
        TableSession.open(path, FakeClock())
    assert path.read_bytes() == bytes(data)


def test_a_report_lists_spins_voids_and_the_colour_statement(tmp_path, capsys):
    path = tmp_path / "j.db"
    session = write_shift(path)
    session.correct_result(spin=8, number=26, reason="the dolly was on 26", by="Boss", pin="9000")
    session.close()
    assert cli(["report", "--db", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    spins = report["spins"]
    assert [s["number"] for s in spins] == [17, 0, 32, 5, 26, 11, 8, 26]
    assert spins[-1]["corrected_from"] == 23
    first = spins[0]
    assert (first["source"], first["ball"], first["croupier"], first["direction"]) == ("keypad", "A", "Ana",
                                                                                       "clockwise")
    assert first["time"] == "2025-01-06T14:01:00.000000+00:00"
    assert [(v["reason"], v["put_back"]) for v in report["voids"]] == [("chip-fell", 0)]
    assert report["voids"][0]["time"] == "2025-01-06T14:02:40.000000+00:00"
    (red,) = report["colour_ledger"]
    # By hand, 17 x1 and red x2 on each spin (PT-A 27-28): 17 pays 35; red wins on 32 and 5 (2 each);
    # the last spin corrected from 23 (red, +2) to 26 (black): won 39, lost 19 of 24 staked.
    assert (red["staked"], red["paid"], red["collected"], red["returned"]) == (24, 39, 19, 5)
    assert (red["staked_money"], red["paid_money"], red["collected_money"]) == ("120", "195", "95")
    assert report["totals"]["spins"] == 8 and report["totals"]["corrections"] == 1
    assert (report["head"]["event"], report["head"]["sha256"]) == stored_head(path)


def test_the_text_report_names_what_the_pit_boss_needs(tmp_path, capsys):
    path = tmp_path / "j.db"
    write_shift(path).close()
    assert cli(["report", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "8 spins, 1 void, 0 corrections" in out and "chip-fell, ball back in 0" in out
    assert "red      seat 1" in out and f"Journal head: event {stored_head(path)[0]}" in out


def test_report_on_a_missing_or_foreign_file_fails_clearly(tmp_path, capsys):
    assert cli(["report", "--db", str(tmp_path / "none.db")]) == 2
    assert "no such journal" in capsys.readouterr().err
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    assert cli(["report", "--db", str(other)]) == 2
    assert "not a croupier journal" in capsys.readouterr().err


def test_the_report_carries_the_wheel_statistics_of_the_counted_spins(tmp_path, capsys):
    from scipy.stats import chisquare

    numbers = [17, 0, 32, 5, 26, 11, 8, 23] * 5 + [17] * 6  # 17 comes up far too often
    path = tmp_path / "j.db"
    session = write_shift(path, numbers=numbers)
    session.correct_result(spin=len(numbers), number=4, reason="the dolly was on 4", by="Boss", pin="9000")
    session.close()
    assert cli(["report", "--db", str(path), "--json"]) == 0
    statistics = json.loads(capsys.readouterr().out)["statistics"]
    counted = numbers[:-1] + [4]  # the correction stands, the void spin never counts
    expected = chisquare([counted.count(n) for n in range(37)])
    assert statistics["spins"] == len(counted)
    assert statistics["chi_square"]["statistic"] == pytest.approx(expected.statistic)
    assert statistics["chi_square"]["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)
    assert cli(["report", "--db", str(path)]) == 0
    assert "Wheel statistics (46 spins)" in capsys.readouterr().out
