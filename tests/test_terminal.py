"""Every screen ends when its terminal hangs up, with SIGHUP ignored (nohup, some service managers)
or on a terminal inherited in a new session, where no signal comes at all: left running it reads
the dead terminal in a loop at a whole core for ever, and the table keeps its journal and the
wheel's port. Each app runs as a user starts it, on a real pseudo-terminal that is then closed."""
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from croupier.terminal import HANGUP_EXIT

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
WAIT_S = 90  # generous: seven people's tests share two cores


def _ignore_sighup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def _read_until(master: int, pattern: bytes, process_alive) -> None:
    drawn = bytearray()
    deadline = time.monotonic() + WAIT_S
    while not re.search(pattern, ANSI.sub(b"", bytes(drawn))):
        assert time.monotonic() < deadline and process_alive(), f"{pattern!r} never drawn: {bytes(drawn[-400:])!r}"
        if select.select([master], [], [], 0.1)[0]:
            try:
                drawn.extend(os.read(master, 65536))
            except OSError:
                break


def _env() -> dict[str, str]:
    return {**os.environ, "TERM": "linux", "COLUMNS": "80", "LINES": "24", "GPIOZERO_PIN_FACTORY": "mock"}


def hang_up_in_new_session(argv: list[str], drawn: bytes | None, cwd: Path) -> int:
    """Run `croupier ARGV` in a session of its own on a pseudo-terminal it does not control, SIGHUP
    ignored, until it has drawn `drawn` (None: the terminal hangs up before it starts); close the
    terminal; its exit status."""
    import fcntl
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    if drawn is None:
        os.close(master)
        master = -1
    process = subprocess.Popen([sys.executable, "-m", "croupier", *argv], stdin=slave, stdout=slave, stderr=slave,
                               env=_env(), cwd=cwd, start_new_session=True, preexec_fn=_ignore_sighup)
    os.close(slave)
    try:
        if drawn is not None:
            _read_until(master, drawn, lambda: process.poll() is None)
            os.close(master)
            master = -1
        return process.wait(timeout=WAIT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if master >= 0:
            os.close(master)


def hang_up_controlling_terminal(argv: list[str], drawn: bytes, cwd: Path) -> int:
    """The same on the terminal the program controls (pty.fork), SIGHUP ignored."""
    pid, master = pty.fork()
    if pid == 0:  # the child: nothing of the test's process may run here
        try:
            os.chdir(cwd)
            _ignore_sighup()
            os.execve(sys.executable, [sys.executable, "-m", "croupier", *argv], _env())
        finally:
            os._exit(127)
    import fcntl
    import termios

    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    try:
        _read_until(master, drawn, lambda: os.waitpid(pid, os.WNOHANG)[0] == 0)
        os.close(master)
        master = -1
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        raise AssertionError(f"still running {WAIT_S} s after its terminal hung up")
    finally:
        if master >= 0:
            os.close(master)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def table_config(folder: Path) -> str:
    path = folder / "croupier.toml"
    path.write_text(f'[journal]\npath = "{folder / "journal.db"}"\n[wheel]\nprotocol = "none"\n'
                    '[display]\nenabled = false\n[logging]\ndestination = "none"\n')
    return str(path)


def assert_journal_free(path: Path, **purpose: str) -> None:
    """The journal takes a writer again: the table that held it let it go."""
    from croupier.journal.store import Journal

    with Journal.open(path, **purpose):
        pass


@pytest.mark.parametrize("hang_up", [hang_up_in_new_session, hang_up_controlling_terminal])
def test_the_table_exits_when_its_terminal_hangs_up_and_lets_its_journal_go(tmp_path, hang_up):
    config = table_config(tmp_path)
    assert hang_up(["table", "--config", config], rb"menu", tmp_path) == HANGUP_EXIT
    assert_journal_free(tmp_path / "journal.db")


def test_the_demo_exits_when_its_terminal_hangs_up(tmp_path):
    from croupier.journal.store import DEMO

    journal = tmp_path / "demo.db"
    assert hang_up_in_new_session(["demo", "--language", "en", "--db", str(journal)], rb"menu", tmp_path) == HANGUP_EXIT
    assert_journal_free(journal, purpose=DEMO)


@pytest.fixture
def demo_journal(tmp_path) -> Path:
    """A journal with an opened table, as the demo leaves it."""
    from croupier.session import TableSession
    from croupier.table.clock import SystemClock
    from croupier.ui import demo

    config = demo.demo_config(tmp_path)
    with TableSession.open(config.journal_path, SystemClock()) as session:
        demo.prepare(session, config)
    return config.journal_path


def test_review_exits_when_its_terminal_hangs_up(tmp_path, demo_journal):
    assert hang_up_in_new_session(["review", "--db", str(demo_journal)], rb"Colours", tmp_path) == HANGUP_EXIT


def test_the_billboard_exits_when_its_terminal_hangs_up(tmp_path, demo_journal):
    assert hang_up_in_new_session(["billboard", "--db", str(demo_journal)], rb"Roleta", tmp_path) == HANGUP_EXIT


def test_the_floor_view_exits_when_its_terminal_hangs_up(tmp_path):
    from croupier.floor.store import open_store

    store = tmp_path / "floor.db"
    open_store(str(store)).close()
    assert hang_up_in_new_session(["floor", "view", "--store", str(store)], rb"Alarms", tmp_path) == HANGUP_EXIT


def test_a_screen_whose_terminal_hung_up_before_it_started_exits(tmp_path):
    """A hung-up terminal is no tty any more: a screen started on one was left unwatched, and the
    floor demo whose window closed while its floor came up stayed running for good."""
    from croupier.floor.store import open_store

    store = tmp_path / "floor.db"
    open_store(str(store)).close()
    assert hang_up_in_new_session(["floor", "view", "--store", str(store)], None, tmp_path) == HANGUP_EXIT
