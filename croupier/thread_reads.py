"""A screen's reads in threads of their own, and the screen's end. Textual does not wait for a
thread's worker: a screen that ended while one still read had what it read (a journal, a store)
closed under it by whoever opened it, and SQLite ends the whole process when a connection closes
while another thread is in it. Each read holds its guard while it reads; the screen's end takes it,
so it waits for the read under way, and no read starts after it."""
from __future__ import annotations

import threading
from typing import Callable


class ReadGuard:
    """`with guard as reading:` around a read in its thread (`reading` False once the screen has
    ended: read nothing); `guard.end()` as the screen ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.ended = False

    def __enter__(self) -> bool:
        self._lock.acquire()
        return not self.ended

    def __exit__(self, *exc: object) -> None:
        self._lock.release()

    def end(self, then: Callable[[], None] | None = None) -> None:
        """No read from now on: once the read under way is done, `then` (closing what the reads used)."""
        with self._lock:
            self.ended = True
            if then is not None:
                then()
