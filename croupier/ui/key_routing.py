"""Which screen a key goes to when keys come faster than the screens change.

A croupier types ahead: the keys of a whole flow (`/ 1 1 5 #`) can be in the queue before its first
dialog is on screen. Textual hands each key to the screen on top when the key is taken from the
app's queue, so a key can reach a dialog that has closed since, or the table screen while a flow's
next dialog is on its way. Such keys wait here for the flow's next dialog; when the flow ends, the
keys still waiting are dropped. A key typed before a dialog closed never reaches the table screen
(its digits would become a result), and a closed dialog never handles a key (its second dismissal
would take the table screen off the stack).

One rule for keys typed ahead: a key typed for a step that has ended - by a refusal, a dialog
closed, a question drawn anew by the table (the payout sheet of a result, of a corrected number) -
is dropped, and the screen says so. A screen's `asked_at` is when its question was drawn: a key
typed before it is not an answer to it (a digit never becomes a chip count unless typed after that
count's question was drawn).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import logging
import time
from collections import deque

from croupier.keypad.entry import Key

if TYPE_CHECKING:
    from croupier.ui.app import TableApp

log = logging.getLogger(__name__)


def now() -> float:
    """The clock Textual stamps its messages with (`Message.time`)."""
    return time.monotonic()


class KeyRouter:
    def __init__(self, app: TableApp) -> None:
        self.app = app
        self.flows = 0  # flows under way (a flow cancelled by the next ends after the next began)
        self.closed_at = 0.0  # when the last dialog or sheet closed, or the last flow ended
        self.ahead: deque[tuple[Key, float]] = deque()  # typed for a flow's dialog not yet on screen
        self.ended_at = 0.0  # when the table last ended the step under way (a refusal said)
        self.dropped = 0  # keys dropped since the croupier's last key that counted
        self.held: list[Key] | None = None  # typed while the table starts, in order

    def hold(self) -> None:
        """The table is starting: the keys typed now are for the first screen it shows."""
        self.held = []

    def release(self) -> None:
        """The table is up: the keys held are typed now, in order, as if typed at this moment."""
        held, self.held = self.held or [], None
        for key in held:
            self.app.deliver_key(self.app.screen, key, now())

    def deliver(self, screen, key: Key, typed_at: float) -> None:
        """`screen` received `key`, typed at `typed_at`: give it to the screen it was meant for."""
        app = self.app
        if self.held is not None:
            self.held.append(key)
            return
        table = app.table_screen
        if typed_at < self.ended_at:
            self._drop(key)  # typed for the step a refusal ended
        elif screen is app.screen and not getattr(screen, "closed", False):
            if screen is table and self.flow_running:
                self.ahead.append((key, typed_at))  # the flow's next dialog is on its way
            elif not self.flow_running and typed_at < self.closed_at:
                self._drop(key)  # typed for a dialog closed since (by the croupier, or for the sheet of a result)
            else:
                self._press(screen, key, typed_at)
        elif self.flow_running or (screen is table and screen in app.screen_stack):
            self.ahead.append((key, typed_at))  # for the dialog on its way, or the sheet just opened
            app.call_later(app.drain_keys)
        else:
            self._drop(key)

    def drain(self) -> None:
        """Hand the keys typed ahead to the dialog on top, once it is on screen. A key that closes
        it leaves the rest for the next one."""
        app = self.app
        screen = app.screen
        while self.ahead and screen is not app.table_screen and screen.is_mounted \
                and not getattr(screen, "closed", False) and hasattr(screen, "press"):
            key, typed_at = self.ahead.popleft()
            if typed_at < self.ended_at:
                self._drop(key)
            else:
                self._press(screen, key, typed_at)
            screen = app.screen

    def _press(self, screen, key: Key, typed_at: float) -> None:
        if typed_at < getattr(screen, "asked_at", 0.0):
            self._drop(key)  # typed before this question was drawn: not an answer to it
            return
        self.dropped = 0
        self.app.clear_dropped()  # a key that counts is the next step: the notice is of the one before
        screen.press(key)

    def _drop(self, key: Key) -> None:
        log.info("key %s typed for a step that has ended: dropped", key.name)
        self.dropped += 1
        self.app.say_dropped(self.dropped)

    def step_ended(self) -> None:
        """The table refused what the croupier asked: the keys typed after it were for what would
        have come next."""
        self.ended_at = now()

    @property
    def flow_running(self) -> bool:
        return self.flows > 0

    def flow_started(self) -> None:
        self.flows += 1

    def flow_ended(self) -> None:
        self.flows -= 1
        self.closed()

    def closed(self) -> None:
        """A dialog or the payout sheet closed: what was typed before it is not for the table."""
        self.closed_at = now()
        if not self.flow_running:
            self.ahead.clear()
