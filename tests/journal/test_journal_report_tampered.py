"""A journal changed behind the program's back (triggers dropped, then raw SQL, as a trial did) is
never reported or exported: `croupier report` (text and --json) and every export of `croupier
review` refuse, naming the first bad event, exit 1, and print or write nothing."""
from __future__ import annotations


import pytest

from croupier.cli import main as cli
from croupier.journal.store import Journal
from croupier.journal.report import REPORT_EVENTS, build_report
from croupier.journal.verify import ChainCheck, check_chain, verify

from journal_kit import copy_journal, raw, write_shift


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """The shift of journal_kit: 8 spins (17, 0, 32, 5, 26, 11, 8, 23), one void, some 50 events."""
    path = tmp_path_factory.mktemp("pristine") / "journal.db"
    write_shift(path).close()
    return path


@pytest.fixture
def journal(pristine, tmp_path):
    return copy_journal(pristine, tmp_path / "journal.db")


def edit_result(path, number: int, to: int) -> int:
    """Change the recorded result `number` to `to`; returns its event number."""
    with raw(path) as conn:
        seq, body = conn.execute("SELECT seq, body FROM events WHERE kind='result-recorded' AND body LIKE ?",
                                 (f'%"number":{number},%',)).fetchone()
        conn.execute("UPDATE events SET body=? WHERE seq=?", (body.replace(f'"number":{number},', f'"number":{to},'), seq))
    return seq


@pytest.mark.parametrize("form", [[], ["--json"]])
def test_the_report_of_an_untouched_journal_shows_the_result(journal, capsys, form):
    assert cli(["report", "--db", str(journal), *form]) == 0
    out = capsys.readouterr().out
    assert ('"number":32' if form else " 32  ") in out


@pytest.mark.parametrize("form", [[], ["--json"]])
def test_an_edited_result_is_not_reported_and_the_event_is_named(journal, capsys, form):
    seq = edit_result(journal, 32, 23)
    assert cli(["report", "--db", str(journal), *form]) == 1
    out, err = capsys.readouterr()
    assert out == ""  # not a line of a report that cannot be trusted
    assert f"is damaged: event {seq}: its content does not match its hash: the event was altered" in err
    assert f"croupier verify --db {journal}" in err


def test_deleted_events_stop_the_report_at_the_first_missing_one(journal, capsys):
    with raw(journal) as conn:
        conn.execute("DELETE FROM events WHERE seq IN (30, 31)")
    assert cli(["report", "--db", str(journal), "--json"]) == 1
    assert "event 30: is missing (event 29 is followed by event 32)" in capsys.readouterr().err


def test_events_cut_from_the_end_under_a_snapshot_stop_the_report(journal, capsys):
    with Journal.open(journal, read_only=True) as j:
        last_snapshot = max(s.seq for s in j.snapshots())
    with raw(journal) as conn:
        conn.execute("DELETE FROM events WHERE seq > ?", (last_snapshot - 3,))
    assert cli(["report", "--db", str(journal)]) == 1
    assert f"event {last_snapshot - 2}: is missing" in capsys.readouterr().err


@pytest.mark.parametrize("option, name", [("--csv-spins", "spins.csv"), ("--csv-events", "events.csv"),
                                          ("--pdf", "shift.pdf")])
def test_every_export_of_an_edited_journal_is_refused_and_the_previous_file_kept(journal, tmp_path, capsys,
                                                                                   option, name):
    seq = edit_result(journal, 32, 23)
    target = tmp_path / name
    target.write_text("the last good export\n")
    assert cli(["review", "--db", str(journal), option, str(target)]) == 1
    assert f"is damaged: event {seq}: its content does not match its hash" in capsys.readouterr().err
    assert target.read_text() == "the last good export\n"
    assert list(tmp_path.glob(f".{name}.*")) == []  # no half-written file either


def reorder(path):
    with raw(path) as conn:
        conn.execute("UPDATE events SET seq = -1 WHERE seq = 40")
        conn.execute("UPDATE events SET seq = 40 WHERE seq = 41")
        conn.execute("UPDATE events SET seq = 41 WHERE seq = -1")


def delete_30(path):
    with raw(path) as conn:
        conn.execute("DELETE FROM events WHERE seq = 30")


def alter_snapshots(path) -> int:
    """Spoil every snapshot's digest; returns the event the first snapshot follows."""
    with raw(path) as conn:
        conn.execute("UPDATE snapshots SET digest = 'x' || substr(digest, 2)")
        return conn.execute("SELECT min(seq) FROM snapshots").fetchone()[0]


@pytest.mark.parametrize("tamper, bad_event", [
    (lambda path: edit_result(path, 5, 6), None),  # None: the event the tampering returns
    (delete_30, 30),
    (reorder, 40),
    (alter_snapshots, None),
])
def test_the_quick_check_finds_the_same_first_bad_event_as_verify(journal, tamper, bad_event):
    named = tamper(journal)
    bad_event = named if bad_event is None else bad_event
    with Journal.open(journal, read_only=True) as j:
        quick, full = check_chain(j), verify(j)
    assert quick.bad_event == full.bad_event == bad_event
    assert quick.problem == full.problem and not quick.intact


def test_the_quick_check_passes_an_untouched_journal_up_to_its_head(journal):
    with Journal.open(journal, read_only=True) as j:
        verdict = check_chain(j)
        assert verdict.intact and verdict.head == j.head and verdict.events == j.head[0] > 40
        assert verdict.snapshots == sum(1 for _ in j.snapshots()) >= 1


def test_a_report_covers_the_journal_up_to_the_head_it_was_opened_at(journal):
    with Journal.open(journal, read_only=True) as reader:
        opened_at = reader.head
        with Journal.open(journal) as table:  # the table goes on while the pit boss reads
            last_result = [e.event for e in table.entries() if e.event.kind == "result-recorded"][-1]
            table.append([last_result])
        report = build_report(ChainCheck(reader).events(REPORT_EVENTS), reader.head)
    assert report.totals.spins == 8 and (report.head.event, report.head.sha256) == opened_at


def test_a_snapshot_the_table_takes_while_the_report_reads_is_no_damage(journal):
    with Journal.open(journal, read_only=True) as reader:
        with Journal.open(journal) as table:
            last_result = [e.event for e in table.entries() if e.event.kind == "result-recorded"][-1]
            (entry,) = table.append([last_result])
            table.write_snapshot(entry.seq, 1, b"{}")
        assert check_chain(reader).intact
