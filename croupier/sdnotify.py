"""Tell systemd how the service is doing (sd_notify), for units with Type=notify and WatchdogSec=.

    notifier = Notifier()                  # reads $NOTIFY_SOCKET and $WATCHDOG_USEC
    notifier.ready("table T1 open")        # once the screen is up
    if notifier.interval:                  # from the UI's own loop, so a frozen screen stops pinging
        app.set_interval(notifier.interval, notifier.ping)
    notifier.stopping()                    # on the way out

Outside systemd every call does nothing and returns False.
"""
from __future__ import annotations

import os
import socket
from typing import Mapping


class Notifier:
    def __init__(self, environ: Mapping[str, str] | None = None):
        environ = os.environ if environ is None else environ
        self.address = _socket_address(environ.get("NOTIFY_SOCKET", ""))
        self.interval = _watchdog_interval(environ)
        self._socket: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        """True when systemd is listening."""
        return self.address is not None

    def ready(self, status: str | None = None) -> bool:
        """Start-up is over: systemd marks the unit active (Type=notify)."""
        return self.notify("READY=1", *([_status(status)] if status else []))

    def status(self, text: str) -> bool:
        """A one-line state shown by `systemctl status`."""
        return self.notify(_status(text))

    def ping(self) -> bool:
        """The watchdog keep-alive: send at least every `interval` seconds."""
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        return self.notify("STOPPING=1", *([_status(status)] if status else []))

    def notify(self, *assignments: str) -> bool:
        """Send KEY=VALUE lines in one datagram; False when not under systemd or it was not sent."""
        if self.address is None or not assignments:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                # Never block the UI loop on a busy manager: a lost ping is followed by the next.
                self._socket.setblocking(False)
            self._socket.sendto("\n".join(assignments).encode(), self.address)
        except OSError:
            return False
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _socket_address(value: str) -> str | bytes | None:
    """$NOTIFY_SOCKET: a filesystem path, or '@name' for the abstract namespace."""
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    return None


def _watchdog_interval(environ: Mapping[str, str]) -> float | None:
    """Seconds between pings: half of WatchdogSec=, as systemd advises, so one late ping is not fatal.
    None when there is no watchdog, or it is meant for another process ($WATCHDOG_PID)."""
    pid = environ.get("WATCHDOG_PID")
    if pid is not None and pid.strip() != str(os.getpid()):
        return None
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2_000_000 if usec > 0 else None


def _status(text: str) -> str:
    return "STATUS=" + " ".join(text.split())
