"""The head witness: a journal that lost its last commits (its -wal deleted after a crash, an older
copy put back) is refused, naming the events missing, instead of being continued as if whole."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest

from croupier.cli import main as cli
from croupier.journal.store import Journal, JournalError
from croupier.journal.witness import SLOT, read_witness, witness_path
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import PlayerWaiting

from journal_kit import stored_head, write_shift

CRASH_AFTER_WRITING = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[2])
    from journal_kit import write_shift
    session = write_shift(Path(sys.argv[1]))
    os._exit(0)  # a crash: no checkpoint, the commits are in the -wal file only
""")


@pytest.fixture
def crashed(tmp_path):
    """A journal whose whole shift is still in its -wal file, as after a power cut."""
    path = tmp_path / "journal.db"
    kit = str(Path(__file__).parent)
    subprocess.run([sys.executable, "-c", CRASH_AFTER_WRITING, str(path), kit], check=True)
    assert path.with_name("journal.db-wal").stat().st_size > 0
    return path


def test_after_a_crash_the_journal_is_whole_and_reaches_its_witness(crashed, capsys):
    seq, _ = stored_head(crashed)
    assert read_witness(witness_path(crashed)).seq == seq
    with TableSession.open(crashed, FakeClock()) as session:
        assert session.seq == seq


def test_a_deleted_wal_is_refused_naming_the_events_lost(crashed, capsys):
    seq, _ = stored_head(crashed)
    crashed.with_name("journal.db-wal").unlink()
    crashed.with_name("journal.db-shm").unlink(missing_ok=True)
    with pytest.raises(JournalError, match=rf"events 1 to {seq} are missing.*head witness recorded event {seq}"):
        TableSession.open(crashed, FakeClock())
    assert cli(["verify", "--db", str(crashed)]) == 1
    assert f"event 1: to event {seq} are missing" in capsys.readouterr().err
    assert cli(["report", "--db", str(crashed)]) == 1


def test_a_journal_without_its_witness_is_not_continued(tmp_path):
    write_shift(tmp_path / "journal.db").close()
    witness_path(tmp_path / "journal.db").unlink()
    with pytest.raises(JournalError, match="head witness .* is missing"):
        TableSession.open(tmp_path / "journal.db", FakeClock())


def test_a_witness_torn_by_a_power_cut_keeps_the_previous_head(tmp_path):
    path = tmp_path / "journal.db"
    write_shift(path).close()
    seq, _ = stored_head(path)
    head = witness_path(path)
    data = bytearray(head.read_bytes())
    newest = 0 if data.startswith(f"{seq} ".encode()) else 1
    data[newest * SLOT + 10:newest * SLOT + 40] = b"\0" * 30  # the slot being written when power went
    head.write_bytes(bytes(data))
    assert 0 < read_witness(head).seq < seq  # the other slot: the commit before
    with TableSession.open(path, FakeClock()) as session:  # behind the journal: nothing is missing
        assert session.seq == seq


def test_each_commit_moves_the_witness(tmp_path):
    with Journal.open(tmp_path / "j.db") as journal:
        for n in range(3):
            journal.append([PlayerWaiting(time=datetime(2025, 1, 1, tzinfo=timezone.utc), player=f"p{n}")])
            assert read_witness(witness_path(journal.path)).seq == n + 1


def test_a_launch_is_witnessed_at_once_and_made_durable_with_the_result(tmp_path, monkeypatch):
    # An SD card takes 2-10 ms a sync: the launch and "no more bets" do not sync the witness on their
    # own (a witness behind its journal is allowed); the result does, and carries theirs with it.
    import croupier.journal.witness as witness_module

    synced = []
    real = witness_module.os.fdatasync
    monkeypatch.setattr(witness_module.os, "fdatasync", lambda fd: (synced.append(fd), real(fd)))
    clock = FakeClock()
    session = write_shift(tmp_path / "journal.db", clock, numbers=())
    from croupier.rules.spin import Direction

    synced.clear()
    session.launch(direction=Direction.CLOCKWISE)
    session.close_bets()
    assert synced == [] and read_witness(witness_path(session.journal.path)).seq == session.seq
    session.enter_result(number=17)
    session.confirm_result()
    assert len(synced) >= 1 and read_witness(witness_path(session.journal.path)).seq == session.seq
    session.close()
