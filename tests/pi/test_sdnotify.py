"""sd_notify against a real AF_UNIX datagram socket standing in for systemd."""
from __future__ import annotations

import os
import socket
import uuid

import pytest

from croupier.sdnotify import Notifier


@pytest.fixture
def systemd(tmp_path):
    """A listening socket at a filesystem path, as systemd's $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    yield str(path), sock
    sock.close()


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_ready_status_ping_and_stopping_reach_systemd(systemd):
    address, sock = systemd
    notifier = Notifier({"NOTIFY_SOCKET": address})
    assert notifier.enabled
    assert notifier.ready("table T1 open")
    assert received(sock) == "READY=1\nSTATUS=table T1 open"
    assert notifier.ping()
    assert received(sock) == "WATCHDOG=1"
    assert notifier.status("sensor offline, keypad in use")
    assert received(sock) == "STATUS=sensor offline, keypad in use"
    assert notifier.stopping()
    assert received(sock) == "STOPPING=1"
    notifier.close()


def test_the_abstract_namespace_is_reached_through_an_at_sign():
    name = f"croupier-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.ready()
        assert received(sock) == "READY=1"
    finally:
        sock.close()


def test_a_status_stays_on_one_line(systemd):
    address, sock = systemd
    Notifier({"NOTIFY_SOCKET": address}).status("wheel\nunplugged\n")
    # A newline would start a new assignment systemd would try to read as KEY=VALUE.
    assert received(sock) == "STATUS=wheel unplugged"


def test_outside_systemd_nothing_is_sent_and_nothing_fails():
    notifier = Notifier({})
    assert not notifier.enabled
    assert notifier.interval is None
    assert notifier.ready() is False and notifier.ping() is False and notifier.stopping() is False


@pytest.mark.parametrize("value", ["", "relative/notify", "@", "vsock:2:1234"])
def test_an_address_systemd_would_not_give_disables_it(value):
    assert not Notifier({"NOTIFY_SOCKET": value}).enabled


def test_a_vanished_socket_does_not_stop_the_table(tmp_path):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.enabled
    assert notifier.ping() is False


def test_a_busy_systemd_never_blocks_the_screen(systemd):
    address, sock = systemd
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)  # nothing is read: the queue fills
    notifier = Notifier({"NOTIFY_SOCKET": address})
    # A blocking send would hang here once the queue is full; instead the pings are dropped.
    results = [notifier.ping() for _ in range(5000)]
    assert results[0] is True
    assert False in results


def test_the_watchdog_is_pinged_at_half_its_period():
    # WatchdogSec=30 arrives as WATCHDOG_USEC=30000000; pinging every 15 s leaves one ping to spare.
    assert Notifier({"WATCHDOG_USEC": "30000000"}).interval == 15.0
    assert Notifier({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}).interval == 15.0


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {"WATCHDOG_USEC": "0"},
        {"WATCHDOG_USEC": "thirty"},
        {"WATCHDOG_USEC": "-5"},
        # The watchdog belongs to another process (our parent, say).
        {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)},
    ],
)
def test_no_watchdog_means_no_interval(environ):
    assert Notifier(environ).interval is None
