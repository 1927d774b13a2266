"""A simulated wheel on a pseudo-terminal, for the demo, the tests and a table without its wheel.

    sim = WheelSimulator("cammegh-ss2", speed=20, seed=7)
    device = sim.start()            # "/dev/pts/5": open it like the wheel's serial port
    sim.force_next_result(17)
    ...
    sim.stop()

The games come from `games.SimulatedWheel`. `speed` divides the pauses of the uneventful phases,
so a 45 s game takes about 2.5 s at speed 20; the lines that hold a condition the decoder times
(flag 1 for over 5 s, flag 8 past 3 s of state 3) keep their real pace at any speed, so a reader on
its own clock (`croupier run` with `croupier wheel-sim` in another process) sees the same voids as
at speed 1. `sim.clock` is the wheel's own time (real seconds times the speed, 1:1 while a condition
is held); a WheelLink may use it, as the demo does, or the real clock.

`link_path` makes a symlink to the pty (like the udev name of a real adapter); `unplug()` closes the
pty and removes the link, `replug()` opens a new pty behind the same link, as a USB adapter pulled and
plugged back does. While unplugged the wheel plays on and what it sends is lost.
"""
from __future__ import annotations

import collections
import os
import pty
import random
import select
import threading
import time
import tty
from pathlib import Path
from typing import Callable, Sequence

from croupier.wheel.games import FAULTS, Emission, PlannedGame, SimulatedWheel


class WheelSimulator:
    def __init__(
        self,
        protocol: str = "cammegh-ss2",
        *,
        faults: Sequence[str] = (),
        fault_every: int = 2,
        speed: float = 1.0,
        seed: int | None = None,
        games: int | None = None,
        results: Sequence[int] = (),
        link_path: str | os.PathLike[str] | None = None,
        first_game: int = 1,
        on_game: Callable[[PlannedGame], None] | None = None,
    ):
        """`faults` are played in turn, one every `fault_every` games; `results` force the first
        games' numbers; `games` stops after that many games (None: until stop())."""
        unknown = [f for f in faults if f not in FAULTS]
        if unknown:
            raise ValueError(f"unknown fault {unknown[0]!r}; use one of: {', '.join(FAULTS)}")
        if not speed > 0:
            raise ValueError("speed must be above 0")
        if fault_every < 1:
            raise ValueError("fault_every must be 1 or more")
        self.protocol = protocol
        self.speed = float(speed)
        self.wheel = SimulatedWheel(protocol, random.Random(seed), first_game)
        self._faults = list(faults)
        self._fault_every = fault_every
        self._games = games
        self._forced: collections.deque[int] = collections.deque(results)
        self._queued_faults: collections.deque[str] = collections.deque()
        self._link_path = None if link_path is None else Path(link_path)
        self._on_game = on_game
        self.played: list[PlannedGame] = []  # games written in full, in order
        self._lock = threading.Lock()
        self._played_changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._device: str | None = None
        # (wheel time, real time, wheel seconds per real second) when the current pause began:
        # one tuple, replaced whole, so clock() reads it without the lock.
        self._pace = (0.0, time.monotonic(), self.speed)

    # -- control ---------------------------------------------------------------------------------

    def start(self) -> str:
        """Open the pty, start playing; returns the device path to open (the link path if set)."""
        if self._thread is not None:
            raise RuntimeError("the simulator is already running")
        self._open_pty()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"wheel-sim {self.protocol}", daemon=True)
        self._thread.start()
        return self.device

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close_pty()

    def __enter__(self) -> "WheelSimulator":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def device(self) -> str:
        if self._link_path is not None:
            return str(self._link_path)
        if self._device is None:
            raise RuntimeError("the simulator has not started")
        return self._device

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def clock(self) -> float:
        """The wheel's own time: real seconds times the speed, except while a condition is held."""
        wheel, real, rate = self._pace
        return wheel + (time.monotonic() - real) * rate

    def force_next_result(self, number: int) -> None:
        if number not in range(37):
            raise ValueError(f"{number} is not a pocket (0-36)")
        with self._lock:
            self._forced.append(number)

    def queue_fault(self, fault: str) -> None:
        """The next game not yet started has this fault."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}; use one of: {', '.join(FAULTS)}")
        with self._lock:
            self._queued_faults.append(fault)

    def wait_for_games(self, count: int, timeout: float) -> bool:
        """Block until `count` games have been written in full; False on timeout."""
        with self._played_changed:
            return self._played_changed.wait_for(lambda: len(self.played) >= count, timeout)

    def unplug(self) -> None:
        with self._lock:
            self._close_pty()

    def replug(self) -> str:
        with self._lock:
            self._close_pty()
            self._open_pty()
        return self.device

    # -- the pty ---------------------------------------------------------------------------------

    def _open_pty(self) -> None:
        master, slave = pty.openpty()
        tty.setraw(slave)  # no echo, no CR/LF translation: bytes pass as the wheel sends them
        os.set_blocking(master, False)  # nobody reading: the bytes are lost, as on a real line
        self._master, self._slave, self._device = master, slave, os.ttyname(slave)
        if self._link_path is not None:
            if self._link_path.exists() and not self._link_path.is_symlink():
                os.close(master)
                os.close(slave)
                raise FileExistsError(f"{self._link_path} exists and is not a symlink: not replacing it")
            tmp = self._link_path.with_name(self._link_path.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self._device)
            tmp.replace(self._link_path)

    def _close_pty(self) -> None:
        if self._link_path is not None and self._link_path.is_symlink():
            self._link_path.unlink(missing_ok=True)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def _write(self, data: bytes) -> None:
        with self._lock:
            master = self._master
            if master is None:
                return  # unplugged
            try:
                readable, _, _ = select.select([master], [], [], 0)
                if readable:
                    os.read(master, 4096)  # commands from the host: the simulated wheel ignores them
                os.write(master, data)
            except (BlockingIOError, OSError):
                pass  # buffer full or the other side gone: the bytes are lost

    # -- playing ---------------------------------------------------------------------------------

    def _next_game_plan(self, index: int) -> tuple[int | None, str | None]:
        with self._lock:
            number = self._forced.popleft() if self._forced else None
            if self._queued_faults:
                return number, self._queued_faults.popleft()
        if self._faults and index % self._fault_every == self._fault_every - 1:
            return number, self._faults[(index // self._fault_every) % len(self._faults)]
        return number, None

    def _play(self, emission: Emission) -> bool:
        """Wait the emission's pause and write it; False when stopped meanwhile."""
        rate = 1.0 if emission.realtime else self.speed
        wheel, real, previous = self._pace
        now = time.monotonic()
        self._pace = (wheel + (now - real) * previous, now, rate)
        if self._stop.wait(emission.delay / rate):
            return False
        self._write(emission.data)
        return True

    def _run(self) -> None:
        for emission in self.wheel.opening():
            if not self._play(emission):
                return
        index = 0
        while not self._stop.is_set() and (self._games is None or index < self._games):
            number, fault = self._next_game_plan(index)
            game = self.wheel.play(number, fault)
            for emission in game.emissions:
                if not self._play(emission):
                    return
            with self._played_changed:
                self.played.append(game)
                self._played_changed.notify_all()
            if self._on_game is not None:
                self._on_game(game)
            index += 1
