"""Rows edited, deleted, inserted or reordered behind the program's back (triggers dropped, raw
SQL): `croupier verify` catches each and names the first bad event; the table refuses to start."""
from __future__ import annotations

import json
import os

import pytest

from croupier.cli import main as cli
from croupier.journal.store import Journal, JournalError
from croupier.journal.verify import verify
from croupier.journal.witness import witness_path
from croupier.session import TableSession
from croupier.table.clock import FakeClock

from journal_kit import copy_journal, raw, rehash, snapshots_every, stored_head, write_shift


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A 54-event journal with snapshots after events 10, 20, ... (and at close)."""
    path = tmp_path_factory.mktemp("pristine") / "journal.db"
    with snapshots_every(10):
        write_shift(path).close()
    return path


@pytest.fixture
def journal(pristine, tmp_path):
    return copy_journal(pristine, tmp_path / "journal.db")


def problem(path) -> tuple[int, str]:
    with Journal.open(path, read_only=True) as j:
        verdict = verify(j)
    assert not verdict.intact
    return verdict.bad_event, verdict.problem


def test_an_untouched_journal_verifies_from_the_command_line(journal, capsys):
    last, _ = stored_head(journal)
    assert cli(["verify", "--db", str(journal)]) == 0
    out = capsys.readouterr().out
    assert f"intact: {last} events" in out and "snapshots checked" in out and f"head: event {last}" in out


def result_row(conn, number):
    return conn.execute("SELECT seq, body FROM events WHERE kind='result-recorded' AND body LIKE ?",
                        (f'%"number":{number},%',)).fetchone()


def test_an_edited_result_is_caught_at_that_event(journal, capsys):
    conn = raw(journal)
    seq, body = result_row(conn, 32)
    conn.execute("UPDATE events SET body=? WHERE seq=?", (body.replace('"number":32', '"number":23'), seq))
    conn.close()
    assert problem(journal) == (seq, f"event {seq}: its content does not match its hash: the event was altered")
    assert cli(["verify", "--db", str(journal)]) == 1
    assert f"NOT intact: event {seq}: its content does not match its hash" in capsys.readouterr().err


def test_an_edit_with_its_hash_recomputed_breaks_the_link_to_the_next_event(journal):
    conn = raw(journal)
    seq, body = result_row(conn, 32)
    prev, time = conn.execute("SELECT prev_hash, time FROM events WHERE seq=?", (seq,)).fetchone()
    forged = body.replace('"number":32', '"number":23')
    conn.execute("UPDATE events SET body=?, hash=? WHERE seq=?",
                 (forged, rehash(prev, seq, time, "result-recorded", forged), seq))
    conn.close()
    at, why = problem(journal)
    assert at == seq + 1 and f"event {seq} was altered (its hash recomputed)" in why


def test_a_deleted_event_is_named(journal):
    conn = raw(journal)
    conn.execute("DELETE FROM events WHERE seq=30")
    conn.close()
    assert problem(journal) == (30, "event 30: is missing (event 29 is followed by event 31): events were deleted")


def test_a_deleted_event_with_the_rest_renumbered_is_caught_where_the_chain_breaks(journal):
    conn = raw(journal)
    conn.execute("DELETE FROM events WHERE seq=30")
    conn.execute("UPDATE events SET seq = -seq WHERE seq > 30")  # in two steps: seq is unique
    conn.execute("UPDATE events SET seq = -seq - 1 WHERE seq < 0")
    conn.close()
    at, why = problem(journal)
    assert at == 30 and "does not follow event 29" in why


def test_an_inserted_event_is_caught(journal):
    conn = raw(journal)
    (prev,) = conn.execute("SELECT hash FROM events WHERE seq=20").fetchone()
    conn.execute("UPDATE events SET seq = -seq WHERE seq > 20")
    conn.execute("UPDATE events SET seq = -seq + 1 WHERE seq < 0")
    body = json.dumps({"kind": "player-waiting", "player": "ghost", "time": "2025-01-06T14:05:00.000000+00:00"},
                      sort_keys=True, separators=(",", ":"))
    time = "2025-01-06T14:05:00.000000+00:00"
    conn.execute("INSERT INTO events VALUES (21, ?, 'player-waiting', ?, ?, ?, 'x')",
                 (time, body, prev, rehash(prev, 21, time, "player-waiting", body)))  # even with a well-made hash
    conn.close()
    assert problem(journal) == (21, "event 21: was inserted: event 22 follows event 20 in the hash chain")


def test_an_event_appended_without_the_chain_is_caught(journal):
    conn = raw(journal)
    conn.execute("INSERT INTO events VALUES (55, 'x', 'table-closed', '{}', 'x', 'x', 'x')")
    conn.close()
    assert problem(journal)[0] == 55


def test_two_reordered_events_are_caught_at_the_first(journal):
    conn = raw(journal)
    conn.execute("UPDATE events SET seq = -1 WHERE seq = 40")
    conn.execute("UPDATE events SET seq = 40 WHERE seq = 41")
    conn.execute("UPDATE events SET seq = 41 WHERE seq = -1")
    conn.close()
    assert problem(journal) == (40, "event 40: is out of order: in the hash chain it follows event 41: "
                                    "events were reordered")


def test_events_cut_from_the_end_are_caught_when_a_snapshot_remembers_them(journal):
    conn = raw(journal)
    conn.execute("DELETE FROM events WHERE seq > 45")
    conn.close()
    at, why = problem(journal)
    assert at == 46 and "deleted from the end" in why


def test_events_cut_after_the_last_snapshot_are_named_by_the_head_witness(journal):
    conn = raw(journal)
    conn.execute("DELETE FROM snapshots WHERE seq > 50")
    conn.execute("DELETE FROM events WHERE seq > 52")
    conn.close()
    # The chain that is left is whole: the head witness beside the journal remembers event 54.
    at, why = problem(journal)
    assert at == 53 and "event 53: to event 54 are missing" in why and "head witness" in why


def test_an_altered_snapshot_is_caught(journal):
    conn = raw(journal)
    (state,) = conn.execute("SELECT state FROM snapshots WHERE seq=30").fetchone()
    conn.execute("UPDATE snapshots SET state=? WHERE seq=30", (state.replace('"counted":', '"counted":1'),))
    conn.close()
    at, why = problem(journal)
    assert at == 30 and "snapshot" in why and "digest" in why


def test_a_forged_snapshot_with_a_valid_digest_still_differs_from_the_events(journal):
    from croupier.journal.store import snapshot_digest

    conn = raw(journal)
    seq, event_hash, version, state = conn.execute(
        "SELECT seq, event_hash, version, state FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
    forged = state.replace('"voids":1', '"voids":0')
    assert forged != state
    conn.execute("UPDATE snapshots SET state=?, digest=? WHERE seq=?",
                 (forged, snapshot_digest(event_hash, version, forged.encode()), seq))
    conn.close()
    at, why = problem(journal)
    assert at == seq and "differs from the state the events give" in why


def test_the_table_does_not_start_on_an_altered_journal_and_leaves_it_as_it_was(journal):
    conn = raw(journal)
    (body,) = conn.execute("SELECT body FROM events WHERE seq=54").fetchone()
    conn.execute("DELETE FROM snapshots WHERE seq > 50")  # start-up folds the events after 50
    conn.execute("UPDATE events SET body=? WHERE seq=54", (body.replace("Ana", "Rui"),))
    conn.close()
    before = journal.read_bytes()
    with pytest.raises(JournalError, match="event 54: its content does not match its hash.*croupier verify"):
        TableSession.open(journal, FakeClock())
    assert journal.read_bytes() == before


def test_verify_refuses_a_file_that_is_not_a_journal(tmp_path, capsys):
    path = tmp_path / "notes.db"
    path.write_text("not a journal\n" * 100)
    assert cli(["verify", "--db", str(path)]) == 2
    assert "cannot be read" in capsys.readouterr().err


# No "intact" without evidence: a file cut short, or with pages but no event readable in them, is
# damage; a missing witness is said; a refused file is never written to, its witness included.

def files(folder) -> dict[str, bytes]:
    """The journal's files; SQLite's shared-memory index and an empty WAL come and go with any reader."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())
            if path.is_file() and not path.name.endswith("-shm") and not (path.name.endswith("-wal")
                                                                          and not path.stat().st_size)}


def verify_cli(path, *extra) -> int:
    return cli(["verify", "--db", str(path), *extra])


def key(path) -> str:
    return str(path.with_name("table.key"))


def refused_untouched(path, match: str) -> None:
    """The table will not start on it, and leaves every file as it was."""
    before = files(path.parent)
    with pytest.raises(JournalError, match=match):
        TableSession.open(path, FakeClock())
    assert files(path.parent) == before


def test_a_journal_cut_short_of_a_whole_page_is_damage_everywhere(journal, capsys):
    os.truncate(journal, journal.stat().st_size - 1000)
    for extra in ((), ("--key", key(journal))):
        assert verify_cli(journal, *extra) != 0
        captured = capsys.readouterr()
        assert "intact:" not in captured.out and "NOT intact" in captured.err
    assert cli(["report", "--db", str(journal)]) != 0
    refused_untouched(journal, "cut short")


def test_pages_without_a_readable_event_are_damage_not_an_empty_journal(journal, capsys):
    conn = raw(journal)  # every row gone, the pages kept, as a file whose events read back as zeros
    conn.execute("DELETE FROM snapshots")
    conn.execute("DELETE FROM events")
    conn.close()
    witness_path(journal).unlink()
    for extra in ((), ("--key", key(journal))):
        assert verify_cli(journal, *extra) == 1
        captured = capsys.readouterr()
        assert "intact:" not in captured.out and "no event can be read from its" in captured.err
    assert cli(["report", "--db", str(journal)]) != 0
    assert "no event can be read" in capsys.readouterr().err
    refused_untouched(journal, "no event can be read from its")  # and no genesis witness is written for it
    assert not witness_path(journal).exists()


def test_a_new_journal_is_still_an_empty_one(tmp_path, capsys):
    TableSession.open(tmp_path / "new.db", FakeClock()).close()
    assert verify_cli(tmp_path / "new.db", "--key", key(tmp_path / "new.db")) == 0
    assert "intact: 0 events" in capsys.readouterr().out


def test_without_its_witness_a_journal_is_never_called_intact_without_saying_so(journal, capsys):
    witness_path(journal).unlink()
    assert verify_cli(journal) == 0
    out = capsys.readouterr().out
    intact = next(line for line in out.splitlines() if "intact" in line)
    assert "head witness" in intact and "MISSING" in intact
    assert verify_cli(journal, "--key", key(journal)) == 1  # the table always keeps one: its loss is a finding
    assert "head witness" in capsys.readouterr().err


def test_the_table_refuses_a_journal_with_an_event_missing_before_its_newest_snapshot(journal):
    conn = raw(journal)
    (newest,) = conn.execute("SELECT max(seq) FROM snapshots").fetchone()
    conn.execute("DELETE FROM events WHERE seq = ?", (newest - 3,))
    conn.close()
    refused_untouched(journal, f"event {newest - 3} is missing")
