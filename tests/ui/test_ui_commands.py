"""`croupier table` and `croupier demo` from the command line: bad configurations, journals and pins
are refused with a message naming the problem, and change nothing; the demo runs on a terminal and
its results arrive and are paid."""
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from croupier.commands import demo, table


def write_config(folder: Path, text: str) -> str:
    """A configuration file; its log goes nowhere (the tests' process keeps no log handler)."""
    path = folder / "croupier.toml"
    path.write_text(text + '\n[logging]\ndestination = "none"\n')
    return str(path)


def test_table_refuses_a_bad_configuration(tmp_path, capsys):
    assert table.main(["--config", write_config(tmp_path, '[table]\nminimum = 0\n')]) == 2
    assert "croupier.toml: table.minimum: the table minimum must be above zero" in capsys.readouterr().err


def test_table_refuses_a_damaged_journal_and_leaves_it_as_it_was(tmp_path, capsys):
    damaged = tmp_path / "journal.db"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    config = write_config(tmp_path, f'[journal]\npath = "{damaged}"\n[display]\nenabled = false\n')
    assert table.main(["--config", config]) == 2  # not restarted by systemd: someone must look at it
    assert "journal.db cannot be read" in capsys.readouterr().err
    assert damaged.read_bytes() == b"SQLite format 3\x00" + b"\x00" * 200


def test_table_on_a_read_only_journal_folder_exits_3_for_systemd_not_to_restart_it(tmp_path, capsys, monkeypatch):
    from croupier.journal import store

    def read_only(path, *args, **kwargs):
        raise store.write_fault(Path(path), OSError(30, "Read-only file system"))

    monkeypatch.setattr(store.Journal, "open", read_only)
    config = write_config(tmp_path, f'[journal]\npath = "{tmp_path / "journal.db"}"\n[display]\nenabled = false\n')
    assert table.main(["--config", config]) == 3
    assert "read-only" in capsys.readouterr().err
    unit = (Path(__file__).parents[2] / "systemd" / "croupier-table.service").read_text()
    assert "RestartPreventExitStatus=2 3" in unit


def test_table_says_how_to_run_without_gpio(tmp_path, capsys, monkeypatch):
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-driver")
    config = write_config(tmp_path, f'[journal]\npath = "{tmp_path / "journal.db"}"\n[wheel]\nprotocol = "none"\n')
    assert table.main(["--config", config]) == 1
    err = capsys.readouterr().err
    assert "cannot use the GPIO pins" in err and "GPIOZERO_PIN_FACTORY=mock" in err and "[display] enabled = false" in err


def test_demo_refuses_a_bad_speed_and_a_journal_it_cannot_use(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        demo.main(["--speed", "0"])
    assert exit_.value.code == 2 and "0 is not between 0.1 and 50" in capsys.readouterr().err
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list")
    assert demo.main(["--db", str(notes)]) == 1
    assert "notes.db" in capsys.readouterr().err and notes.read_text() == "shopping list"


def test_table_and_demo_run_in_process_leave_no_log_handler_and_no_file_behind(tmp_path, monkeypatch, capsys):
    """The tests run the commands in the same process: each run must take its log handler away, or
    the next run logs every line twice, into a file in whatever directory the tests ran from."""
    import logging

    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    handlers = (list(logging.getLogger().handlers), list(logging.getLogger("croupier").handlers))
    damaged = tmp_path / "journal.db"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    config = tmp_path / "croupier.toml"
    config.write_text(f'[journal]\npath = "{damaged}"\n'
                      f'[logging]\ndestination = "file"\nfile = "{tmp_path / "table.log"}"\n')
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list")
    for _ in range(2):
        assert table.main(["--config", str(config)]) == 2
        assert demo.main(["--db", str(notes)]) == 1
    capsys.readouterr()
    assert (logging.getLogger().handlers, logging.getLogger("croupier").handlers) == handlers
    assert list(here.iterdir()) == []


@pytest.mark.skipif(shutil.which("true") is None or not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_the_demo_on_a_linux_console_brings_results_that_can_be_paid(tmp_path):
    """As a croupier would run it: TERM=linux, 80x24; a result arrives, D (asked again: nothing is
    counted) pays it, Ctrl+Q quits. Its
    log stays in its temporary folder: nothing is written where it was started."""
    import fcntl
    import termios

    started_in = tmp_path / "cwd"
    started_in.mkdir()
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "croupier", "demo", "--speed", "20", "--language", "en", "--db",
                                str(tmp_path / "demo.db")], stdin=slave, stdout=slave, stderr=slave,
                               env={**os.environ, "TERM": "linux"}, cwd=started_in, start_new_session=True)
    os.close(slave)
    drawn = bytearray()

    def wait_for(pattern: bytes, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, re.sub(rb"\x1b\[[0-9;?]*[ -/]*[@-~]", b"", bytes(drawn))):
            assert time.monotonic() < deadline and process.poll() is None, f"{pattern!r} never drawn"
            if select.select([master], [], [], 0.1)[0]:
                drawn.extend(os.read(master, 65536))

    try:
        wait_for(rb"Payouts \xc2\xb7 +\d+ ")  # a game at speed 20 lasts about 2 s
        del drawn[:]
        os.write(master, b"d")
        wait_for(rb"Nothing is counted")
        os.write(master, b"d")
        wait_for(rb"Payouts recorded")
        os.write(master, b"\x11")  # Ctrl+Q
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    from croupier.journal.store import Journal

    with Journal.open(tmp_path / "demo.db", read_only=True) as journal:
        recorded = [entry.event.kind for entry in journal.entries()]
    assert "result-recorded" in recorded and recorded.index("payouts-completed") > recorded.index("result-recorded")
    assert list(started_in.iterdir()) == []


def test_the_demo_keeps_its_journal_and_log_when_it_fails(tmp_path, monkeypatch, capsys):
    """A demo that ends on an error leaves what it recorded and its log to look at, and says where."""
    from croupier.ui.app import TableApp

    def crash(self):
        raise RuntimeError("the screen failed")

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr(TableApp, "run", crash)
    with pytest.raises(RuntimeError):
        demo.main(["--language", "en"])
    (folder,) = tmp_path.glob("croupier-demo-*")
    assert (folder / "demo-journal.db").stat().st_size > 0
    assert f"kept in {folder}" in capsys.readouterr().err


def test_a_demo_refusing_its_journal_leaves_no_folder_behind(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list")
    assert demo.main(["--db", str(notes)]) == 1
    assert list(tmp_path.glob("croupier-demo-*")) == []
