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

A simulated Slingshot keeps its winning-number log as the real one does (guide 2.7) and answers
`*s t`, `*s r <page>` (in state 6, at rest after its `games` when `rest` is set) and `*W` (in states 5 and 6):
`croupier reconcile` reads it. `log` holds what it logged; `miss(n)` loses the next n results from
what the table hears (the wheel logs them; a link that drops the lines would), `misread(n)` makes
the table hear the next result as `n` while the wheel logs its own number.

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
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from croupier.wheel.games import FAULTS, Emission, PlannedGame, SimulatedWheel
from croupier.wheel.history import PAGE_BYTES, Logged, encode_page


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
        rest: bool = False,
    ):
        """`faults` are played in turn, one every `fault_every` games; `results` force the first
        games' numbers; `games` stops after that many games (None: until stop()); `rest`: then the
        Slingshot rests in state 6, answering its log queries, until stop()."""
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
        self._rest = rest
        self.played: list[PlannedGame] = []  # games written in full, in order (without their bytes: a demo runs for days)
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
        self.log: list[Logged] = []  # the wheel's own winning-number log
        self._state = 1  # the state of the last status line sent
        self._commands = b""
        self._silenced: collections.deque[int | None] = collections.deque()  # see miss() and misread()

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

    def miss(self, results: int = 1) -> None:
        """The table does not hear the next `results` results (the wheel still logs them)."""
        with self._lock:
            self._silenced.extend([None] * results)

    def misread(self, number: int) -> None:
        """The table hears the next result as `number`; the wheel logs the number the ball is in."""
        with self._lock:
            self._silenced.append(number)

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
            if data[:3] == b"*X;" and data[3:4].isdigit():  # a line split by noise may end at the ';'
                self._state = data[3] - ord("0")
            try:
                readable, _, _ = select.select([master], [], [], 0)
                if readable:
                    self._commands = (self._commands + os.read(master, 4096))[-256:]
                    data = self._answers() + data
                os.write(master, data)
            except (BlockingIOError, OSError):
                pass  # buffer full or the other side gone: the bytes are lost

    def _answers(self) -> bytes:
        """The replies to the complete commands received (the Slingshot's log queries; any other
        command is ignored, as before)."""
        *commands, self._commands = self._commands.replace(b"\n", b"\r").split(b"\r")
        if not self.wheel.kind.log_queries:
            return b""
        out = b""
        for command in (c.strip().decode("latin-1") for c in commands):
            pages = -(-len(self.log) // PAGE_BYTES)
            if command == "*s t":
                out += f"*s t {pages}\r\n".encode()
            elif command.startswith("*s r "):
                page = command[5:].strip()
                if self._state != 6 or not page.isdigit() or int(page) >= pages:
                    out += f"*s r {page} FAIL\r\n".encode("latin-1")
                else:
                    entries = self.log[int(page) * PAGE_BYTES:(int(page) + 1) * PAGE_BYTES]
                    out += f"*s r {int(page)} ".encode() + encode_page(entries) + b"\r\n"
            elif command == "*W":
                if self._state not in (5, 6):
                    out += b"*W BUSY\r\n"
                else:
                    counts = [0] * 37
                    for entry in self.log:
                        counts[entry.number] += not entry.misfire
                    out += f"*W {sum(counts)}\r\n".encode() + b"".join(
                        f"*W {number} {count}\r\n".encode() for number, count in enumerate(counts))
        return out

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
            with self._lock:
                heard = self._silenced.popleft() if self._silenced else game.number
            for emission in game.emissions:
                if not self._play(self._heard_as(emission, game.number, heard)):
                    return
            with self._played_changed:
                self.log.append(Logged(game.number))
                self.played.append(replace(game, emissions=()))
                self._played_changed.notify_all()
            if self._on_game is not None:
                self._on_game(game)
            index += 1
        if self._rest and self.wheel.kind.log_queries:
            while self._play(self.wheel.closed()):  # at rest, answering the log queries until stopped
                pass

    @staticmethod
    def _heard_as(emission: Emission, number: int, heard: int | None) -> Emission:
        """What the table hears of a game's line: its number as `heard`, or nothing of its result."""
        if heard == number:
            return emission
        text = emission.data.decode("ascii")
        fields = text.split(";")
        if text.startswith("*X;5;"):
            fields[3] = "  " if heard is None else f"{heard:>2}"
            return replace(emission, data=";".join(fields).encode("ascii"))
        if text.strip() == f"{number:>2}".strip() and not text.startswith("*"):
            return replace(emission, data=(b"" if heard is None else f"{heard:>2}\r\n".encode("ascii")))
        return emission
