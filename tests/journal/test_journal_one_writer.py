"""One writer: the table holds an exclusive lock on its journal while it is open; a second program
that would write it exits 2 once its first screen is drawn, before touching any of the journal's files, and
the first goes on."""
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.journal.store import Journal, JournalBusy
from croupier.table.clock import FakeClock

from journal_kit import write_shift

LEFT_SCREEN = "\x1b[?1049l"  # the terminal's own screen again, as the app ends


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def test_a_second_table_on_a_journal_in_use_exits_2_at_once_touching_nothing(tmp_path):
    path = tmp_path / "journal.db"
    session = write_shift(path, FakeClock())
    config = tmp_path / "croupier.toml"
    config.write_text(f'[journal]\npath = "{path}"\n[display]\nenabled = false\n[logging]\ndestination = "none"\n')
    before = files(tmp_path)
    second = subprocess.run([sys.executable, "-m", "croupier", "table", "--config", str(config)],
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    said = second.stderr.rsplit(LEFT_SCREEN, 1)[-1]  # after its first screen: what is left on the terminal
    assert second.returncode == 2, said
    assert "is being written by another program" in said
    assert len(said.strip().splitlines()) == 1
    assert files(tmp_path) == before
    session.join_waiting_list(player="seat 9")  # the table that held it goes on recording
    seq = session.seq
    session.close()
    with Journal.open(path) as journal:  # and once it has let go, the journal opens again
        assert journal.head[0] == seq


def test_a_second_writer_in_the_same_program_is_refused_too(tmp_path):
    path = tmp_path / "journal.db"
    with Journal.open(path):
        with pytest.raises(JournalBusy, match="only one program writes a journal at a time"):
            Journal.open(path)
        with Journal.open(path, read_only=True) as reader:  # readers (review, billboard, reports) are welcome
            assert reader.head[0] == 0
