"""Leaving a screen whose terminal hung up.

A hung-up terminal (the SSH connection dropped, the console's window closed) answers every read at
once with nothing. Textual's input thread then selects and reads it again and again, a whole core
for ever, and with SIGHUP ignored (nohup, some service managers), or the terminal inherited in a new
session, no signal comes to end the program, which keeps the journal and the wheel's port. The
watch asks poll() about the terminal with no event wanted, so it reads no key the screen expects and
wakes only when the terminal hangs up, and then ends the screen as a hang-up would. Textual's
output thread dies at its first write to the hung-up terminal, after which the screen blocks on its
full queue; the screen's terminal therefore drops what cannot be written any more.
"""
from __future__ import annotations

import os
import select
import stat
import sys
import threading
from typing import Any, Callable, cast

HANGUP_EXIT = 129  # 128 + SIGHUP: how a shell reports a program that a hang-up ended
_HUNG_UP = select.POLLHUP | select.POLLERR | select.POLLNVAL


class HangupWatch:
    """A thread blocked in poll() on `fds` that calls `on_hangup` once the first of them hangs up;
    `stop()` ends it."""

    def __init__(self, fds: list[int], on_hangup: Callable[[], None]) -> None:
        self._on_hangup = on_hangup
        self._poll = select.poll()
        for fd in fds:
            self._poll.register(fd, 0)  # no event asked for: poll() still reports a hang-up or an error
        self._wake, self._waker = os.pipe()
        self._poll.register(self._wake, select.POLLIN)
        self._thread = threading.Thread(target=self._run, name="terminal hang-up", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            events = self._poll.poll()
            if any(fd == self._wake for fd, _ in events):
                return
            if any(mask & _HUNG_UP for _, mask in events):
                self._on_hangup()
                return

    def stop(self) -> None:
        if self._waker < 0:
            return
        os.write(self._waker, b"\0")
        self._thread.join(timeout=5)
        os.close(self._waker)
        os.close(self._wake)
        self._waker = self._wake = -1


class _Unfailing:
    """The terminal's output, dropping what a hung-up terminal refuses."""

    def __init__(self, file: Any) -> None:
        self._file = file

    def write(self, text: str) -> None:
        try:
            self._file.write(text)
        except OSError:
            pass

    def flush(self) -> None:
        try:
            self._file.flush()
        except OSError:
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


def _driver(app: Any) -> Any:
    """The app's Linux driver, writing to an output that survives a hang-up (others as they were)."""
    from textual.drivers.linux_driver import LinuxDriver

    if app.driver_class is not LinuxDriver:
        return app.driver_class

    class Driver(LinuxDriver):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._file = cast(Any, _Unfailing(self._file))  # a file in all that the writer thread asks of one

    return Driver


def gone(fds: list[int]) -> bool:
    """Whether one of the terminals `fds` hung up."""
    poll = select.poll()
    for fd in fds:
        poll.register(fd, 0)
    return any(mask & _HUNG_UP for _, mask in poll.poll(0))


def run(app: Any) -> int:
    """Run the Textual `app` on this process's terminal until it quits, or exits with HANGUP_EXIT
    once the terminal hangs up; returns its exit code. The terminals are watched as character
    devices, not by isatty(): a terminal that hung up before the screen started is no tty any
    more, and would be left unwatched (/dev/null, also one, never hangs up)."""
    fds = [stream.fileno() for stream in (sys.__stdin__, sys.__stdout__, sys.__stderr__)
           if stream is not None and not stream.closed and stat.S_ISCHR(os.fstat(stream.fileno()).st_mode)]
    ended = threading.Event()

    def hung_up() -> None:
        # Asked again until it has ended: an exit asked while the screen still starts can be lost
        # (the demo's view stayed up, its input thread spinning on the dead terminal).
        while not ended.is_set():
            try:
                app.call_from_thread(app.exit, None, HANGUP_EXIT)
            except RuntimeError:  # not running yet: its loop starts in a moment
                ended.wait(0.05)
                continue
            ended.wait(0.5)

    app.driver_class = _driver(app)
    watch = HangupWatch(fds, hung_up) if fds else None
    try:
        app.run()
    except OSError:  # a hang-up while it starts: its first writes fail before the watch can end it
        if not gone(fds):
            raise
        return HANGUP_EXIT
    finally:
        ended.set()
        if watch is not None:
            watch.stop()
    return app.return_code or 0
