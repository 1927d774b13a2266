"""A report of the whole journal saves its fold in the user's cache directory; the next report of that
journal takes it up and folds only what the table recorded since, with the same figures as a report
that folds everything again (`--fresh`). A fold that is not the user's own, not this journal's, or
made before the journal was rewritten is never taken up."""
from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import pytest

from croupier.cli import main as cli
from croupier.rules.spin import Direction
from croupier.table.events import Stake

from journal_kit import raw, recompute_chain, write_shift


def report(capsys, journal: Path, *options: str) -> dict:
    assert cli(["report", "--db", str(journal), "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def the_figures(report: dict) -> dict:
    return {key: value for key, value in report.items() if key != "checked_before"}


def play(session, *numbers: int) -> None:
    for number in numbers:
        session.place_bets(colour="red", stakes=(Stake(bet="17", chips=1),))
        session.clock.advance(seconds=40)
        last = session.state.last_direction
        session.launch(direction=Direction.CLOCKWISE if last is None else last.opposite())
        session.close_bets()
        session.clock.advance(seconds=20)
        session.enter_result(number=number)
        session.confirm_result()
        session.payouts_done()


def fold_files() -> list[Path]:
    return sorted((Path(os.environ["XDG_CACHE_HOME"]) / "croupier").glob("report-*.fold"))


@pytest.fixture
def table(tmp_path):
    session = write_shift(tmp_path / "journal.db")
    yield session
    session.close()


def test_the_next_report_folds_only_what_came_since_with_the_same_figures(table, capsys):
    journal = Path(table.journal.path)
    first = report(capsys, journal)
    assert first["checked_before"] == 0 and first["totals"]["spins"] == 8
    assert len(fold_files()) == 1

    play(table, 17, 4)
    second = report(capsys, journal)
    assert second["checked_before"] == first["head"]["event"]  # taken up where the first one ended
    assert second["totals"]["spins"] == 10 and [s["number"] for s in second["spins"][-2:]] == [17, 4]
    # The shift: red has 1 chip on 17 and 2 on red each spin: 35 on its 17, 2 on each of 32, 5, 23.
    # Since: 1 chip on 17 only, paid 35 on the new 17 and nothing on 4.
    assert [c["paid_chips"] for c in second["croupiers"]] == [35 + 3 * 2 + 35]
    fresh = report(capsys, journal, "--fresh")
    assert fresh["checked_before"] == 0 and the_figures(second) == the_figures(fresh)


def test_the_text_report_says_which_events_an_earlier_report_checked(table, capsys):
    journal = Path(table.journal.path)
    assert cli(["report", "--db", str(journal)]) == 0
    assert "checked and folded by an earlier report" not in capsys.readouterr().out
    head = table.journal.head[0]
    play(table, 5)
    assert cli(["report", "--db", str(journal)]) == 0
    assert f"Events 1-{head} were checked and folded by an earlier report" in capsys.readouterr().out


def test_a_fold_altered_in_the_cache_is_not_taken_up(table, capsys):
    journal = Path(table.journal.path)
    report(capsys, journal)
    (saved,) = fold_files()
    data = bytearray(saved.read_bytes())
    data[-1] ^= 0xFF  # the last byte of the spins' columns: a number changed
    saved.write_bytes(bytes(data))
    again = report(capsys, journal)
    assert again["checked_before"] == 0
    assert [s["number"] for s in again["spins"]] == [17, 0, 32, 5, 26, 11, 8, 23]


def test_another_journals_fold_is_not_taken_up(table, tmp_path, capsys):
    journal = Path(table.journal.path)
    other = write_shift(tmp_path / "other.db", numbers=(1, 2, 3))
    other.close()
    report(capsys, tmp_path / "other.db")
    report(capsys, journal)
    mine, theirs = sorted(fold_files(), key=lambda p: p.stat().st_mtime, reverse=True)
    mine.write_bytes(theirs.read_bytes())  # signed with the same user's key, but for the other journal
    again = report(capsys, journal)
    assert again["checked_before"] == 0 and again["totals"]["spins"] == 8


def test_a_journal_rewritten_before_the_saved_event_is_folded_whole(table, capsys):
    journal = Path(table.journal.path)
    report(capsys, journal)
    table.close()
    with raw(journal) as conn:  # a result changed and the chain recomputed from there, as a forger would
        seq, body = conn.execute("SELECT seq, body FROM events WHERE kind='result-recorded' "
                                 "AND body LIKE '%\"number\":32,%'").fetchone()
        conn.execute("UPDATE events SET body=? WHERE seq=?", (body.replace('"number":32,', '"number":31,'), seq))
        recompute_chain(conn, journal, seq)
    again = report(capsys, journal)
    assert again["checked_before"] == 0  # the saved fold is of events that are no longer there
    assert 31 in [s["number"] for s in again["spins"]]


def test_a_report_over_days_folds_its_days_and_saves_nothing(table, capsys):
    journal = Path(table.journal.path)
    day = table.clock.now().date().isoformat()
    ranged = report(capsys, journal, "--from", day, "--to", day)
    assert ranged["checked_before"] == 0 and fold_files() == []


def test_a_report_over_days_takes_the_events_an_earlier_report_checked_by_their_time(table, capsys):
    journal = Path(table.journal.path)
    first_day = table.clock.now().date()
    table.clock.advance(days=1)
    play(table, 2, 4)  # the next day
    head = report(capsys, journal)["head"]["event"]  # checked and saved up to here
    table.clock.advance(days=1)
    play(table, 6)  # the day after: after the saved fold
    days = {"first": (first_day, first_day), "second": (first_day + timedelta(days=1),) * 2,
            "second and third": (first_day + timedelta(days=1), first_day + timedelta(days=2))}
    numbers = {"first": [17, 0, 32, 5, 26, 11, 8, 23], "second": [2, 4], "second and third": [2, 4, 6]}
    for name, (since, until) in days.items():
        options = ("--from", since.isoformat(), "--to", until.isoformat())
        ranged = report(capsys, journal, *options)
        assert ranged["checked_before"] == head and [s["number"] for s in ranged["spins"]] == numbers[name]
        fresh = report(capsys, journal, *options, "--fresh")
        assert the_figures(ranged) == the_figures(fresh), name


def test_a_cache_directory_that_cannot_be_written_changes_nothing(table, capsys, tmp_path, monkeypatch):
    journal = Path(table.journal.path)
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    first, second = report(capsys, journal), report(capsys, journal)
    assert first == second and second["checked_before"] == 0


def test_a_fold_saved_by_other_code_is_not_taken_up(table, capsys, monkeypatch):
    from croupier.journal import report_cache

    journal = Path(table.journal.path)
    report(capsys, journal)
    monkeypatch.setattr(report_cache, "_fold_stamp", lambda: b"the projections of another version")
    play(table, 5)
    again = report(capsys, journal)
    assert again["checked_before"] == 0 and again["totals"]["spins"] == 9
