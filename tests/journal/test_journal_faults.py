"""Faults on the journal's side: a corrupted file (bytes flipped anywhere, a truncated file, a
damaged witness), a disk that fills up, a folder that turns read-only. Each gets a plain message,
no traceback, and nothing recorded before is lost or changed; a damaged file is never written to."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

import pytest

from croupier.cli import main as cli
from croupier.journal.store import Journal, JournalError, JournalFault
from croupier.journal.witness import witness_path
from croupier.session import TableSession
from croupier.table.clock import FakeClock

from journal_kit import copy_journal, stored_head, write_shift

PAGE = 4096


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A checkpointed journal of 3 shifts' worth of spins, spread over a few dozen pages."""
    path = tmp_path_factory.mktemp("pristine") / "journal.db"
    write_shift(path, numbers=tuple(n % 37 for n in range(60))).close()
    return path


def files(path: Path) -> dict[str, bytes]:
    """The journal, its witness and the key (a reader's empty -wal and -shm files are SQLite's own)."""
    return {p.name: p.read_bytes() for p in (path, witness_path(path), path.with_name("table.key"))}


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def offsets(path: Path) -> list[int]:
    """A byte in the header, then in the middle of every page, then near the end of each."""
    size = path.stat().st_size
    return [18, 28, 60, 100] + [p + PAGE // 2 for p in range(0, size, PAGE)] + [p + PAGE - 9 for p in range(0, size, PAGE)]


def content(path: Path) -> list | None:
    """Every row of the journal as SQLite returns it (None when it cannot), read without croupier."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            return [conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
                    for table in ("meta", "events", "snapshots")]
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def test_a_flipped_byte_anywhere_gives_a_message_and_no_traceback_and_is_never_written_to(pristine, tmp_path, capsys):
    outcomes = {"caught by verify": 0, "harmless": 0}
    rows = content(pristine)
    for offset in offsets(pristine):
        folder = tmp_path / str(offset)
        folder.mkdir()
        journal = copy_journal(pristine, folder / "journal.db")
        flip(journal, offset)
        before = files(journal)
        verify = cli(["verify", "--db", str(journal), "--key", str(folder / "table.key")])
        report = cli(["report", "--db", str(journal)])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        assert verify in (0, 1, 2) and report in (0, 1, 2)
        try:
            TableSession.open(journal, FakeClock()).close()
            opened = True
        except JournalError as exc:
            opened = False
            assert str(exc)
        if verify == 0:
            # Only a byte SQLite never hands back (free space in a page, an unused header field).
            assert content(journal) == rows, f"byte {offset}: a changed row passed verify --key"
            outcomes["harmless"] += 1
            continue
        outcomes["caught by verify"] += 1
        assert str(journal) in err  # the message names the file (and the first bad event where there is one)
        if not opened:
            assert files(journal) == before, f"byte {offset}: a refused journal was written to"
    assert outcomes["caught by verify"] > 0, outcomes


@pytest.mark.parametrize("cut", [PAGE, 5 * PAGE, -PAGE])
def test_a_truncated_journal_exits_2_naming_the_damage_and_is_not_written_to(pristine, tmp_path, capsys, cut):
    journal = copy_journal(pristine, tmp_path / "journal.db")
    data = journal.read_bytes()
    journal.write_bytes(data[:cut])
    before = files(journal)
    assert cli(["verify", "--db", str(journal)]) in (1, 2)
    assert cli(["report", "--db", str(journal)]) in (1, 2)
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(journal) in err
    with pytest.raises(JournalError):
        TableSession.open(journal, FakeClock())
    assert files(journal) == before


def test_a_damaged_witness_is_named_and_the_journal_not_written_to(pristine, tmp_path, capsys):
    journal = copy_journal(pristine, tmp_path / "journal.db")
    witness_path(journal).write_bytes(os.urandom(384))
    before = files(journal)
    with pytest.raises(JournalError, match="head witness cannot be read"):
        TableSession.open(journal, FakeClock())
    assert cli(["verify", "--db", str(journal)]) == 2
    assert "head witness cannot be read" in capsys.readouterr().err
    assert files(journal) == before


def test_a_read_only_disk_is_said_plainly_and_keeps_every_result(tmp_path):
    folder = tmp_path / "table"
    folder.mkdir()
    as_root = os.geteuid() == 0
    if as_root and not mount_tmpfs(folder, "1m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        session = write_shift(folder / "journal.db")
        head = session.seq
        session.close()
        if as_root:  # root writes through file modes: make the filesystem itself read-only
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            os.chmod(folder, 0o500)
            os.chmod(folder / "journal.db", 0o400)
        with pytest.raises(JournalFault, match="read-only.*Everything recorded before is kept"):
            TableSession.open(folder / "journal.db", FakeClock())
        if as_root:
            subprocess.run(["mount", "-o", "remount,rw", str(folder)], check=True)
        assert stored_head(folder / "journal.db")[0] == head
    finally:
        if as_root:
            subprocess.run(["umount", "-l", str(folder)], check=False)
        else:
            os.chmod(folder, 0o700)


def mount_tmpfs(folder: Path, size: str) -> bool:
    if shutil.which("mount") is None:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True).returncode == 0


@contextmanager
def small_disk(tmp_path: Path, size: str) -> Iterator[Path]:
    """A folder on a tmpfs of `size` (root only), unmounted afterwards; the test skips where none mounts."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if not mount_tmpfs(disk, size):
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


FILL = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from journal_kit import write_shift
from croupier.journal.store import JournalFault
session = write_shift(Path(sys.argv[1]))
confirmed = session.seq
try:
    while True:  # players come and go until the disk is full
        session.join_waiting_list(player="player " + "x" * 200)
        confirmed = session.seq
        session.leave_waiting_list(player="player " + "x" * 200)
        confirmed = session.seq
except JournalFault as fault:
    print(confirmed, fault, sep="\\n")
    try:
        session.join_waiting_list(player="another")
    except JournalFault:
        print("refused again")
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_full_disk_is_said_plainly_and_keeps_every_confirmed_result(tmp_path):
    with small_disk(tmp_path, "1m") as disk:  # the shift, its signatures and its WAL fit; the players fill the rest
        journal = disk / "journal.db"
        run = subprocess.run([sys.executable, "-c", FILL, str(journal), str(Path(__file__).parent)],
                             capture_output=True, text=True, timeout=300)
        assert "Traceback" not in run.stderr, run.stderr
        confirmed, message, again = run.stdout.strip().split("\n")
        assert "the disk is full" in message and "Everything recorded before is kept" in message
        assert again == "refused again"
        seq, _ = stored_head(journal)
        assert seq == int(confirmed)  # every event confirmed before the fault is there, none after
        assert cli(["verify", "--db", str(journal), "--key", str(disk / "table.key")]) == 0


def test_a_witness_that_cannot_be_written_keeps_the_commit_and_stops_the_next(tmp_path, monkeypatch):
    session = write_shift(tmp_path / "journal.db")
    head = session.seq

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "pwrite", disk_full)
    session.join_waiting_list(player="seat 7")  # committed: shown and folded like any other
    assert session.seq == head + 1 and "seat 7" in session.state.waiting
    with pytest.raises(JournalFault, match="the disk is full"):
        session.leave_waiting_list(player="seat 7")
    assert stored_head(tmp_path / "journal.db")[0] == head + 1 and "seat 7" in session.state.waiting
    monkeypatch.undo()
    session.close()
    with TableSession.open(tmp_path / "journal.db", FakeClock()) as reopened:  # the witness behind: accepted
        assert reopened.seq == head + 1


# --- the same through `croupier run --headless`, fed by a simulated wheel on a pseudo-terminal ---------


def run_headless(db: Path, device: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "CROUPIER_CONFIG"}
    return subprocess.Popen([sys.executable, "-m", "croupier", "run", "--headless", "--db", str(db), "--profile",
                             "pt-americana", "--wheel", f"cammegh-ss2:{device}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)


@pytest.fixture
def wheel(tmp_path):
    from croupier.wheel.simulator import WheelSimulator

    simulator = WheelSimulator("cammegh-ss2", speed=50, seed=3, link_path=tmp_path / "wheel")
    device = simulator.start()
    yield device
    simulator.stop()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="the simulated wheel needs a pseudo-terminal")
def test_run_headless_refuses_a_journal_with_a_flipped_byte_and_writes_nothing(pristine, tmp_path, wheel):
    # A byte of an event's body flipped in the middle of the file: the table must not continue it.
    for offset in (p + PAGE // 2 for p in range(PAGE, pristine.stat().st_size, PAGE)):
        journal = copy_journal(pristine, tmp_path / "journal.db")
        flip(journal, offset)
        if cli(["verify", "--db", str(journal)]) == 1:
            break
    before = files(journal)
    proc = run_headless(journal, wheel)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "Traceback" not in err and str(journal) in err
    assert files(journal) == before


@pytest.mark.skipif(os.geteuid() != 0 or not hasattr(os, "openpty"), reason="mounting a small tmpfs needs root")
def test_run_headless_on_a_disk_that_fills_stops_plainly_and_keeps_every_result(tmp_path, wheel):
    # Room for a few games whatever the start-up speed: the wheel runs from before the table starts.
    with small_disk(tmp_path, "256k") as disk:
        journal = disk / "journal.db"
        proc = run_headless(journal, wheel)
        try:
            _, err = proc.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("run --headless did not stop when the disk filled")
        assert proc.returncode == 3 and "the disk is full" in err and "Traceback" not in err, err[-2000:]
        with Journal.open(journal, read_only=True) as opened:
            results = [row for row in opened.rows() if row.kind == "result-recorded"]
        assert results  # games were recorded before the disk filled, and they are all still there
        assert cli(["verify", "--db", str(journal), "--key", str(disk / "table.key")]) == 0
