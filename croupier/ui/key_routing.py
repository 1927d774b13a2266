"""Which screen a key goes to when keys come faster than the screens change.

A croupier types ahead: the keys of a whole flow (`/ 1 1 5 #`) can be in the queue before its first
dialog is on screen. Textual hands each key to the screen on top when the key is taken from the
app's queue, so a key can reach a dialog that has closed since, or the table screen while a flow's
next dialog is on its way. Such keys wait here for the flow's next dialog; when the flow ends, the
keys still waiting are dropped. A key typed before a dialog closed never reaches the table screen
(its digits would become a result), and a closed dialog never handles a key (its second dismissal
would take the table screen off the stack).
"""
from __future__ import annotations

import logging
import time
from collections import deque

from croupier.keypad.entry import Key

log = logging.getLogger(__name__)


def now() -> float:
    """The clock Textual stamps its messages with (`Message.time`)."""
    return time.monotonic()


class KeyRouter:
    def __init__(self, app) -> None:
        self.app = app
        self.flows = 0  # flows under way (a flow cancelled by the next ends after the next began)
        self.closed_at = 0.0  # when the last dialog or sheet closed, or the last flow ended
        self.ahead: deque[Key] = deque()  # typed for a flow's dialog not yet on screen

    def deliver(self, screen, key: Key, typed_at: float) -> None:
        """`screen` received `key`, typed at `typed_at`: give it to the screen it was meant for."""
        app = self.app
        table = app.table_screen
        if screen is app.screen and not getattr(screen, "closed", False):
            if screen is table and self.flow_running:
                self.ahead.append(key)  # the flow's next dialog is on its way
            elif not self.flow_running and typed_at < self.closed_at:
                # typed for a dialog closed since (by the croupier, or for the sheet of a result)
                log.info("key %s typed for a dialog that has closed: dropped", key.name)
            else:
                screen.press(key)
        elif self.flow_running or (screen is table and screen in app.screen_stack):
            self.ahead.append(key)  # for the dialog on its way, or the sheet just opened
            app.call_later(app.drain_keys)
        else:
            log.info("key %s typed for a dialog that has closed: dropped", key.name)

    def drain(self) -> None:
        """Hand the keys typed ahead to the dialog on top, once it is on screen. A key that closes
        it leaves the rest for the next one."""
        app = self.app
        screen = app.screen
        while self.ahead and screen is not app.table_screen and screen.is_mounted \
                and not getattr(screen, "closed", False) and hasattr(screen, "press"):
            screen.press(self.ahead.popleft())
            screen = app.screen

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
