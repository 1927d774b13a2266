"""A screen's reads in threads of their own, and the screen's end. Textual does not wait for a
thread's worker: a screen that ended while one still read had what it read (a journal, a store)
closed under it by whoever opened it, and SQLite ends the whole process when a connection closes
while another thread is in it. Each read holds its guard while it reads; the screen's end takes it,
so it waits for the read under way (or cuts it short), and no read starts after it."""
from __future__ import annotations

import threading
from types import TracebackType
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

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        self._lock.release()
        # A read the end cut short ends quietly: there is no screen left to say it on.
        return self.ended and kind is not None and issubclass(kind, Exception)

    def end(self, then: Callable[[], None] | None = None, interrupt: Callable[[], None] | None = None) -> None:
        """No read from now on; `interrupt` cuts the read under way short (a year's read is seconds
        the screen need not wait); once it is done, `then` (closing what the reads used)."""
        self.ended = True
        if interrupt is not None:
            interrupt()
        with self._lock:
            if then is not None:
                then()
