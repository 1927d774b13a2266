"""A report of the whole journal saves its fold in the user's cache directory; the next report of that
journal takes it up and folds only what the table recorded since, with the same figures as a report
that folds everything again (`--fresh`). A fold that is not the user's own, not this journal's, or
made before the journal was rewritten is never taken up."""
from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import pickle
from datetime import timedelta
from pathlib import Path

import pytest

from croupier.cli import main as cli
from croupier.journal import fold_codec, fold_stamp, report_cache
from croupier.journal.key import read_key
from croupier.journal.report import REPORT_EVENTS, ReportFold
from croupier.journal.store import Journal
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
    assert [c["paid_chips_by_value"] for c in second["croupiers"]] == [{"5": 35 + 3 * 2 + 35}]
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
    journal = Path(table.journal.path)
    report(capsys, journal)
    monkeypatch.setattr(fold_stamp, "stamp", lambda: b"the projections of another version")
    play(table, 5)
    again = report(capsys, journal)
    assert again["checked_before"] == 0 and again["totals"]["spins"] == 9


# --- nothing in the cache changes a figure ----------------------------------------------------------


def report_noticing(capsys, journal: Path, *options: str) -> tuple[dict, str]:
    assert cli(["report", "--db", str(journal), "--json", *options]) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def resign(saved: Path, key: bytes) -> None:
    """What someone who can write the cache does: change the fold and sign it again with a key of theirs."""
    data = saved.read_bytes()
    head = len(report_cache.MAGIC)
    body = data[head + report_cache.SIGNATURE_BYTES:]
    saved.write_bytes(data[:head] + hmac.new(key, body, hashlib.sha256).digest() + body)


THE_SHIFT = [17, 0, 32, 5, 26, 11, 8, 23]


def test_a_changed_fold_signed_again_with_a_key_kept_in_the_cache_is_ignored_with_a_notice(table, capsys):
    journal = Path(table.journal.path)
    report(capsys, journal)
    (saved,) = fold_files()
    (saved.parent / "report.key").write_bytes(b"k" * 32)  # the key the cache once kept beside the folds
    data = bytearray(saved.read_bytes())
    data[-1] = 0  # the last spin's number: 23 -> 0 ("every result as 0")
    saved.write_bytes(bytes(data))
    resign(saved, b"k" * 32)
    again, err = report_noticing(capsys, journal)
    assert again["checked_before"] == 0 and [s["number"] for s in again["spins"]] == THE_SHIFT
    assert "was not used (it is not signed with the key derived from the table's key)" in err


def test_a_fold_of_36s_under_a_swapped_report_key_changes_nothing(table, capsys):
    journal = Path(table.journal.path)
    report(capsys, journal)
    (saved,) = fold_files()
    forged = ReportFold()
    with Journal.open(journal, read_only=True) as opened:
        forged.add_all(opened.events(REPORT_EVENTS))
        header = {"stamp": fold_stamp.stamp(), "journal": str(journal.resolve()), "reached": list(opened.head)}
    forged.spins._number[:] = bytes([36]) * len(forged.spins._number)
    buffer = io.BytesIO()
    fold_codec.write(forged, header, buffer)
    saved.write_bytes(report_cache.MAGIC + bytes(report_cache.SIGNATURE_BYTES) + buffer.getvalue())
    (saved.parent / "report.key").write_bytes(b"s" * 32)  # swapped in
    resign(saved, b"s" * 32)
    again, err = report_noticing(capsys, journal)
    assert [s["number"] for s in again["spins"]] == THE_SHIFT and "was not used" in err


class RunsACommand:
    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


@pytest.mark.parametrize("signed_with", ["the derived key", "a key in the cache"])
def test_a_signed_pickle_naming_os_system_runs_nothing(table, capsys, tmp_path, signed_with):
    journal = Path(table.journal.path)
    report(capsys, journal)
    (saved,) = fold_files()
    marker = tmp_path / "touched"
    payload = pickle.dumps(RunsACommand(f"touch {marker}"))
    # The old layout (a pickle after the signature), and the new one's magic line before it.
    for layout in (payload, report_cache.MAGIC + bytes(report_cache.SIGNATURE_BYTES) + payload):
        saved.write_bytes(layout)
        if signed_with == "the derived key":  # even whoever holds the table's key cannot make a report run code
            table_key = read_key(journal.with_name("table.key"))
            key = report_cache.fold_key(journal.with_name("table.key"), journal, print)
            assert key is not None and table_key
        else:
            key = b"k" * 32
        if layout.startswith(report_cache.MAGIC):
            resign(saved, key)
        again, err = report_noticing(capsys, journal)
        assert not marker.exists()
        assert [s["number"] for s in again["spins"]] == THE_SHIFT and "was not used" in err
        report(capsys, journal, "--fresh")  # puts a good fold back for the next layout


def test_a_fold_or_its_folder_writable_by_others_is_ignored_with_a_notice(table, capsys):
    journal = Path(table.journal.path)
    report(capsys, journal)
    (saved,) = fold_files()
    saved.chmod(0o666)
    again, err = report_noticing(capsys, journal)
    assert again["checked_before"] == 0 and "may be written by other users (mode 0666)" in err
    saved.chmod(0o600)
    saved.parent.chmod(0o777)
    try:
        again, err = report_noticing(capsys, journal)
        assert again["checked_before"] == 0 and "may be written by other users (mode 0777)" in err
        assert "could not be saved" in err  # nor is a new one kept there
    finally:
        saved.parent.chmod(0o700)
    assert report_noticing(capsys, journal)[0]["checked_before"] == again["head"]["event"]


def test_a_table_key_others_may_write_keeps_no_fold(table, capsys):
    journal = Path(table.journal.path)
    journal.with_name("table.key").chmod(0o620)
    first, err = report_noticing(capsys, journal)
    assert "no saved fold is used or kept" in err and fold_files() == []
    assert [s["number"] for s in first["spins"]] == THE_SHIFT


def test_without_the_tables_key_nothing_is_saved_and_nothing_said(table, capsys, tmp_path):
    journal = Path(table.journal.path)
    table.close()
    moved = tmp_path / "kept-elsewhere.key"
    journal.with_name("table.key").rename(moved)
    first, err = report_noticing(capsys, journal)
    assert err == "" and fold_files() == [] and first["totals"]["spins"] == 8
    report(capsys, journal, "--key", str(moved))  # the key named: the fold is saved with it
    assert len(fold_files()) == 1
    assert report(capsys, journal, "--key", str(moved))["checked_before"] == first["head"]["event"]


def test_the_fold_format_makes_only_the_folds_own_classes_and_keeps_shared_objects():
    fold = ReportFold()
    fold.croupiers._on_wheel = fold.croupiers._person("Ana")  # the same figures, on the wheel and in the list
    buffer = io.BytesIO()
    fold_codec.write(fold, {"reached": [0, ""]}, buffer)
    buffer.seek(0)
    _, document = fold_codec.read_header(buffer)
    again = fold_codec.read_fold(document, buffer)
    assert type(again) is ReportFold and type(again.spins) is type(fold.spins)
    assert again.croupiers._on_wheel is again.croupiers.figures["Ana"]
    for bad in ({"o": "Popen", "a": []}, {"o": "ReportFold", "a": [["__class__", 1]]}, {"dd": "eval", "d": []},
                {"c": "O", "n": 1}, {"x": 1}, [1, 2]):
        with pytest.raises(fold_codec.FoldFormatError):
            fold_codec.read_fold(bad, io.BytesIO(b"\0" * 64))


def test_the_key_the_configuration_names_signs_the_fold(table, capsys, tmp_path):
    journal = Path(table.journal.path)
    table.close()
    elsewhere = tmp_path / "keys" / "table.key"
    elsewhere.parent.mkdir()
    journal.with_name("table.key").rename(elsewhere)
    config = tmp_path / "croupier.toml"
    config.write_text(f'[journal]\npath = "{journal}"\nkey = "{elsewhere}"\n', encoding="utf-8")
    first, err = report_noticing(capsys, journal, "--config", str(config))
    assert err == "" and len(fold_files()) == 1
    assert report(capsys, journal, "--config", str(config))["checked_before"] == first["head"]["event"]
