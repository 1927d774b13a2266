"""`croupier floor demo` brings up a whole floor on one machine and leaves nothing running after it."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest

from croupier.floor.demo import Floor
from croupier.floor.store import open_store

from floor_kit import wait_for


def test_the_demo_floor_fills_the_store_and_stops_every_process(tmp_path):
    pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor-server]'")
    floor = Floor(tmp_path)
    try:
        floor.start(tables=2, speed=25)

        def tables_stored() -> list[str]:
            with open_store(str(floor.store), read_only=True) as store:
                return [t.table_id for t in store.tables() if t.head_seq >= 2]

        assert wait_for(lambda: tables_stored() == ["T1", "T2"], timeout=60), tables_stored()
    finally:
        floor.stop()
    assert floor.processes and all(proc.poll() is not None for proc in floor.processes)
    with socket.socket() as s:  # the broker is gone too
        assert s.connect_ex(("127.0.0.1", floor.broker.port)) != 0


def children_of(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("ending", ["terminal closed", "killed"])
def test_a_demo_whose_terminal_closes_or_that_is_killed_leaves_no_process_behind(tmp_path, ending):
    """Its broker, ingester, tables and wheels run in sessions of their own: a closed SSH window (or
    kill -9) ended the demo alone and left ten processes running for good. The terminal closes as
    soon as they all run, often before the view is up."""
    import fcntl
    import os
    import pty
    import select
    import signal
    import subprocess
    import sys
    import termios

    pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor-server]'")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, b"\x18\x00\x50\x00\x00\x00\x00\x00")  # 24 x 80

    def own_terminal() -> None:  # as a login shell has it: the pty is the session's terminal
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    env = {**os.environ, "TMPDIR": str(tmp_path)}
    demo = subprocess.Popen([sys.executable, "-m", "croupier", "floor", "demo", "--tables", "1"], stdin=slave,
                            stdout=slave, stderr=slave, env=env, start_new_session=True, preexec_fn=own_terminal)
    os.close(slave)
    drained = bytearray()

    def up() -> bool:  # the broker, the ingester, a wheel and a table
        try:
            while True:  # keep the screen's output read, as a terminal does
                ready, _, _ = select.select([master], [], [], 0)
                if not ready:
                    break
                drained.extend(os.read(master, 65536))
        except OSError:
            pass
        return len(children_of(demo.pid)) >= 4

    try:
        assert wait_for(up, timeout=60), drained[-2000:]
        children = children_of(demo.pid)
        if ending == "terminal closed":
            os.close(master)
        else:
            demo.send_signal(signal.SIGKILL)
        demo.wait(60)
        assert wait_for(lambda: not any(alive(pid) for pid in children), timeout=30), \
            [pid for pid in children if alive(pid)]
        if ending == "terminal closed":  # whether the view was up yet or not: its folder went with it
            assert not list(tmp_path.glob("croupier-floor-*"))
    finally:
        if demo.poll() is None:
            demo.kill()
        if ending == "killed":
            os.close(master)
