"""`croupier floor demo`: the whole floor on one machine. nats-server (127.0.0.1 only, a temporary
store), simulated wheels (`croupier wheel-sim`), headless tables publishing to the floor
(`croupier run --headless --floor URL --table-id ID`), the ingester on the embedded store, and the
floor view in front; quitting the view stops every one of them. Logs and journals stay in a
temporary folder, removed at the end."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from croupier.floor.broker import BrokerError, LocalBroker, ends_with_parent
from croupier.floor.enrolment import enrol, table_public_key
from croupier.floor.store import StoreError, open_store
from croupier.journal.signing import public_path, signing_key_for
from croupier.terminal import HANGUP_EXIT

PROFILE = "pt-americana"


class Floor:
    """The demo's processes, started in order and stopped in reverse."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen] = []
        self.broker = LocalBroker(folder / "nats", log_file=folder / "nats-server.log", ends_with_parent=True)
        self.store = folder / "floor.db"

    def _spawn(self, name: str, *argv: str) -> subprocess.Popen:
        env = {k: v for k, v in os.environ.items() if k != "CROUPIER_CONFIG"}
        log = open(self.folder / f"{name}.log", "wb")
        proc = subprocess.Popen([sys.executable, "-m", "croupier", *argv], stdin=subprocess.DEVNULL,
                                stdout=log, stderr=log, env=env, start_new_session=True,
                                preexec_fn=ends_with_parent())
        log.close()
        self.processes.append(proc)
        return proc

    def start(self, tables: int, speed: float) -> None:
        self.broker.start()
        floor_key = self.folder / "floor-signing.key"
        signing_key_for(floor_key, create=True)
        with open_store(str(self.store)) as store:  # each table's key pair made and enrolled, as an install does
            for n in range(1, tables + 1):
                (self.folder / f"T{n}").mkdir()
                enrol(store, f"T{n}", table_public_key(self.journal(n)))
        self._spawn("ingester", "floor", "serve", "--nats", self.broker.url, "--store", str(self.store),
                    "--anchor-every", "10", "--signing-key", str(floor_key))
        for n in range(1, tables + 1):
            link = self.folder / f"wheel-T{n}"
            self._spawn(f"wheel-T{n}", "wheel-sim", "--protocol", "cammegh-ss2", "--speed", str(speed),
                        "--seed", str(n), "--link", str(link))
            _wait_for(link.exists, 15, f"the simulated wheel of table T{n}")
            self._spawn(f"table-T{n}", "run", "--headless", "--db", str(self.journal(n)),
                        "--profile", PROFILE, "--wheel", f"cammegh-ss2:{link}", "--floor", self.broker.url,
                        "--table-id", f"T{n}", "--floor-key", str(public_path(floor_key)))
        _wait_for(self._store_ready, 30, "the floor store")

    def journal(self, n: int) -> Path:
        """Table n's journal, in a folder of its own: its keys are beside it."""
        return self.folder / f"T{n}" / "journal.db"

    def _store_ready(self) -> bool:
        try:
            open_store(str(self.store), read_only=True).close()
        except StoreError:
            return False
        return True

    def stop(self) -> None:
        for proc in reversed(self.processes):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in reversed(self.processes):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.broker.stop()


def _wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise BrokerError(f"{what} did not come up within {timeout:.0f} s")
        time.sleep(0.1)


def run_demo(tables: int = 4, speed: float = 20.0) -> int:
    from croupier.floor.view import run_view

    def hung_up(signum: int, frame: object) -> None:  # while the floor comes up: stopped, its folder removed
        raise SystemExit(HANGUP_EXIT)

    signal.signal(signal.SIGHUP, hung_up)
    with tempfile.TemporaryDirectory(prefix="croupier-floor-") as folder:
        floor = Floor(Path(folder))
        try:
            floor.start(tables, speed)
            # A closed terminal ends the view (croupier.terminal's watch) and then the floor below, in
            # order; a hang-up signal would end this process at once, before that.
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            return run_view(str(floor.store))
        except BrokerError as exc:
            print(f"croupier floor demo: {exc} (logs in {folder} were removed)", file=sys.stderr)
            return 1
        finally:
            floor.stop()
