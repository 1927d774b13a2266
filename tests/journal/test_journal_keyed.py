"""The keyed chain: every column hashed, an HMAC with the table's key beside each hash, signed
snapshots and head witness. Whoever can write the file but has not the key can recompute the plain
chain, and `croupier verify --key` still names the first event they touched; the table refuses to
start on it."""
from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest

from croupier.cli import main as cli
from croupier.journal import witness as witness_module
from croupier.journal.store import Journal, JournalError, snapshot_digest
from croupier.session import TableSession
from croupier.table.clock import FakeClock

from journal_kit import copy_journal, raw, recompute_chain, rehash, snapshots_every, stored_head, write_shift


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """The shift of journal_kit with a correction of spin 3 (32 -> 23); snapshots every 10 events."""
    path = tmp_path_factory.mktemp("pristine") / "journal.db"
    with snapshots_every(10):
        session = write_shift(path)
        session.correct_result(spin=3, number=23, reason="misread", by="Boss", pin="9000")
        session.close()
    return path


@pytest.fixture
def journal(pristine, tmp_path):
    return copy_journal(pristine, tmp_path / "journal.db")


def verify(path, *extra) -> int:
    return cli(["verify", "--db", str(path), *extra])


def key_file(path) -> str:
    return str(path.with_name("table.key"))


def test_an_untouched_journal_verifies_with_its_key(journal, capsys):
    assert verify(journal, "--key", key_file(journal)) == 0
    out = capsys.readouterr().out
    seq, digest = stored_head(journal)
    assert f"intact: {seq} events" in out and digest in out
    assert "keyed: every event" in out and f"head witness: event {seq}" in out


def test_without_the_key_verify_says_the_keyed_check_was_not_done(journal, capsys):
    assert verify(journal) == 0
    assert "keyed check NOT done" in capsys.readouterr().out


def test_changing_a_corrections_kind_breaks_the_chain_for_report_and_verify(journal, capsys):
    # Item 5: the kind column said which events were corrections; it was outside the hash.
    with raw(journal) as conn:
        (seq,) = conn.execute("SELECT seq FROM events WHERE kind='result-corrected'").fetchone()
        conn.execute("UPDATE events SET kind='player-waiting' WHERE seq=?", (seq,))
    assert cli(["report", "--db", str(journal)]) == 1
    assert f"event {seq}: its content does not match its hash" in capsys.readouterr().err
    assert verify(journal) == 1
    assert f"NOT intact: event {seq}" in capsys.readouterr().err


def test_an_edit_with_the_whole_chain_recomputed_passes_the_plain_check_but_not_the_key(journal, capsys):
    # Item 6: result 17 of spin 1 made 23, every later hash, snapshot digest and the witness rewritten.
    conn = raw(journal)
    seq, body = conn.execute("SELECT seq, body FROM events WHERE kind='result-recorded' "
                             "AND body LIKE '%\"number\":17,%'").fetchone()
    conn.execute("UPDATE events SET body=? WHERE seq=?", (body.replace('"number":17,', '"number":23,'), seq))
    recompute_chain(conn, journal, seq)
    conn.close()
    assert verify(journal) == 0  # only the plain chain: whole again
    assert "keyed check NOT done" in capsys.readouterr().out
    assert verify(journal, "--key", key_file(journal)) == 1
    err = capsys.readouterr().err
    assert f"NOT intact: event {seq}: its hash is not signed with the table's key" in err
    with pytest.raises(JournalError, match="signed|not written by this table"):
        TableSession.open(journal, FakeClock())


def test_a_forged_correction_appended_with_a_recomputed_chain_is_caught_by_the_key(journal, capsys):
    conn = raw(journal)
    seq, time, prev, body = conn.execute("SELECT seq, time, hash, body FROM events WHERE kind='result-corrected'"
                                         ).fetchone()
    (last,) = conn.execute("SELECT max(seq) FROM events").fetchone()
    record = json.loads(body)
    record.update(spin=1, was=17, number=0)
    forged = json.dumps(record, sort_keys=True, separators=(",", ":"))
    (prev,) = conn.execute("SELECT hash FROM events WHERE seq=?", (last,)).fetchone()
    conn.execute("INSERT INTO events VALUES (?, ?, 'result-corrected', ?, ?, ?, ?)",
                 (last + 1, time, forged, prev, rehash(prev, last + 1, time, "result-corrected", forged), "0" * 64))
    recompute_chain(conn, journal, last + 1)
    conn.close()
    assert verify(journal, "--key", key_file(journal)) == 1
    assert f"NOT intact: event {last + 1}: its hash is not signed" in capsys.readouterr().err


def test_a_forged_snapshot_changing_the_pit_bosss_pin_is_never_trusted(journal):
    # The newest snapshot's PIN hash and salt swapped for Ana's (whose PIN the forger knows), its
    # digest recomputed: the table must not start on it and let "1111" correct results.
    conn = raw(journal)
    seq, event_hash, version, state = conn.execute(
        "SELECT seq, event_hash, version, state FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
    staff = json.loads(state)["staff"]
    boss, ana = staff["Boss"], staff["Ana"]
    forged = state.replace(boss["pin_hash"], ana["pin_hash"]).replace(boss["salt"], ana["salt"])
    assert forged != state
    conn.execute("UPDATE snapshots SET state=?, digest=? WHERE seq=?",
                 (forged, snapshot_digest(event_hash, version, forged.encode()), seq))
    conn.close()
    with pytest.raises(JournalError, match=f"snapshot after event {seq} .*not written by this table"):
        TableSession.open(journal, FakeClock())
    assert verify(journal, "--key", key_file(journal)) == 1


def test_deleting_every_snapshot_refolds_the_events_and_loses_nothing(journal):
    with TableSession.open(journal, FakeClock()) as session:
        before = session.state
    with raw(journal) as conn:
        conn.execute("DELETE FROM snapshots")
    with TableSession.open(journal, FakeClock()) as session:
        assert session.state == before and session.state.corrections == 1


def test_a_journal_opened_with_another_tables_key_is_refused(journal, tmp_path):
    other = tmp_path / "other.key"
    other.write_text("ab" * 32 + "\n")
    with pytest.raises(JournalError, match="not made with this table's key"):
        Journal.open(journal, key=other)
    assert verify(journal, "--key", str(other)) == 2


def test_the_key_is_made_once_beside_a_new_journal_readable_by_its_owner_only(tmp_path):
    with Journal.open(tmp_path / "j.db"):
        pass
    key = tmp_path / "table.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    first = key.read_bytes()
    with Journal.open(tmp_path / "second.db"):  # another journal of the same table: the same key
        pass
    assert key.read_bytes() == first


def test_a_table_without_its_key_does_not_start_and_says_where_the_key_should_be(journal):
    os.remove(journal.with_name("table.key"))
    with pytest.raises(JournalError, match="table.key is missing: restore it from its backup"):
        TableSession.open(journal, FakeClock())


def test_a_journal_of_the_older_format_is_refused_by_name(tmp_path, capsys):
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as conn:
        conn.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                           "CREATE TABLE events (seq INTEGER PRIMARY KEY, time, kind, body, prev_hash, hash);"
                           "CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, event_hash, version, state, digest);"
                           "INSERT INTO meta VALUES ('format', 'croupier-journal/1');")
    before = old.read_bytes()
    assert verify(old) == 2
    assert "format 'croupier-journal/1'" in capsys.readouterr().err
    with pytest.raises(JournalError, match="older format.*new journal file"):
        TableSession.open(old, FakeClock())
    assert old.read_bytes() == before



def test_a_second_verify_starts_where_the_first_ended_and_a_rewrite_still_fails_it(journal, capsys):
    assert verify(journal, "--key", key_file(journal)) == 0
    seq, _ = stored_head(journal)
    capsys.readouterr()
    assert verify(journal, "--key", key_file(journal)) == 0
    assert f"events 1-{seq} were checked by an earlier `verify --key`" in capsys.readouterr().out
    conn = raw(journal)  # an early rewrite changes the hash the mark remembers: checked whole again
    at, body = conn.execute("SELECT seq, body FROM events WHERE kind='colour-assigned'").fetchone()
    conn.execute("UPDATE events SET body=? WHERE seq=?", (body.replace("seat 1", "seat 9"), at))
    recompute_chain(conn, journal, at)
    conn.close()
    assert verify(journal, "--key", key_file(journal)) == 1
    assert f"NOT intact: event {at}: its hash is not signed" in capsys.readouterr().err


# Rollback: an older copy put back with its own head witness passes every local check but one,
# verify's own signed mark of how far it checked the journal.

def rolled_back(tmp_path, *, later=None, verified=True):
    """A journal that went on past an older copy of itself (`later(session)` runs then), verified
    with its key at its new head (unless not `verified`), then replaced by that older copy with
    its own head witness, as a restore from an old backup would; the old and the new heads."""
    path = tmp_path / "journal.db"
    write_shift(path, numbers=(17, 0, 32)).close()
    (tmp_path / "backup").mkdir()
    backup = copy_journal(path, tmp_path / "backup" / "journal.db")
    old = stored_head(path)
    session = TableSession.open(path, FakeClock())
    session.join_waiting_list(player="seat 7")
    if later is not None:
        later(session)
    session.close()
    new = stored_head(path)
    if verified:
        assert verify(path, "--key", key_file(path)) == 0  # leaves its signed mark at the new head
    for name in ("journal.db", "journal.db.head"):
        (tmp_path / name).write_bytes((backup.parent / name).read_bytes())
    for leftover in ("journal.db-wal", "journal.db-shm"):
        (tmp_path / leftover).unlink(missing_ok=True)
    return path, old, new


def test_an_older_copy_put_back_with_its_own_witness_is_caught_naming_both_heads(tmp_path, capsys):
    from croupier.commands import table

    path, old, new = rolled_back(tmp_path)
    capsys.readouterr()
    assert verify(path, "--key", key_file(path)) == 1
    err = capsys.readouterr().err
    assert f"ends at event {old[0]}, sha256 {old[1]}" in err and f"to event {new[0]}, sha256 {new[1]}" in err
    assert "an older copy was put back" in err
    assert verify(path, "--key", key_file(path), "--full") == 1
    mark = path.with_name("journal.db.verified").read_bytes()
    config = tmp_path / "croupier.toml"
    config.write_text(f'[journal]\npath = "{path}"\n[display]\nenabled = false\n[logging]\ndestination = "none"\n')
    before = path.read_bytes(), path.with_name("journal.db.head").read_bytes()
    assert table.main(["--config", str(config)]) == 2
    assert "an older copy was put back" in capsys.readouterr().err
    assert (path.read_bytes(), path.with_name("journal.db.head").read_bytes()) == before
    assert path.with_name("journal.db.verified").read_bytes() == mark  # the evidence stays


def test_an_older_copy_put_back_and_written_on_is_caught_too(tmp_path, capsys):
    path, old, new = rolled_back(tmp_path)
    mark = path.with_name("journal.db.verified")
    kept = mark.read_bytes()
    mark.unlink()  # as a table without this check would have, it goes on writing the old copy
    session = TableSession.open(path, FakeClock())
    for seat in range(5):
        session.join_waiting_list(player=f"seat {seat + 10}")
    session.close()
    mark.write_bytes(kept)
    capsys.readouterr()
    assert verify(path, "--key", key_file(path)) == 1
    assert f"its event {new[0]} is not the one `croupier verify --key` checked" in capsys.readouterr().err
    with pytest.raises(JournalError, match="an older copy was put back and written on"):
        TableSession.open(path, FakeClock())


def test_an_older_copy_put_back_is_caught_by_the_floors_last_anchor_too(tmp_path, capsys):
    from datetime import datetime, timezone

    from croupier.floor.anchors import record_anchor

    def anchor(session) -> None:
        seq, digest = session.journal.head
        session.run(record_anchor, seq=seq, digest=digest, anchored_at=datetime(2025, 1, 6, 15, tzinfo=timezone.utc))

    path, old, new = rolled_back(tmp_path, later=anchor, verified=False)  # only the anchor's mark knows
    anchored = new[0] - 1  # the event before the anchor's own
    capsys.readouterr()
    assert verify(path, "--key", key_file(path)) == 1
    err = capsys.readouterr().err
    assert f"ends at event {old[0]}, sha256 {old[1]}" in err
    assert f"the floor anchored it to event {anchored}, sha256 " in err and "(journal.db.anchored, signed)" in err
    with pytest.raises(JournalError, match="the floor anchored it to event"):
        TableSession.open(path, FakeClock())
