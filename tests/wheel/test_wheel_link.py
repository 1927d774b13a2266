"""The serial link on real pseudo-terminals: reading, unplug and replug, silence, stop, exclusivity."""
import os
import pty
import queue
import time
import tty

import pytest
from wheel_lines import number, ss2

from croupier.wheel.events import LinkStatus, WheelFault, WheelResult
from croupier.wheel.link import FAULTS_PER_WINDOW, WheelLink
from croupier.wheel.protocols import make_decoder
from croupier.wheel.ss2 import Ss2Decoder


class PlugInWheel:
    """A pty behind a symlink we control, like a USB adapter behind its udev name."""

    def __init__(self, path):
        self.path = path
        self.master = self.slave = None
        self.plug()

    def plug(self):
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        tmp = self.path.with_name(self.path.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self.slave))
        tmp.replace(self.path)

    def unplug(self):
        self.path.unlink(missing_ok=True)
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = None

    def write(self, *chunks):
        for chunk in chunks:
            os.write(self.master, chunk)

    def read(self):
        return os.read(self.master, 1024)

    def close(self):
        if self.master is not None:
            self.unplug()


@pytest.fixture
def wheel(tmp_path):
    plugged = PlugInWheel(tmp_path / "croupier-wheel")
    yield plugged
    plugged.close()


@pytest.fixture
def links():
    started = []

    def start(device, decoder=None, **options):
        options.setdefault("retry_delays", (0.05,))
        link = WheelLink(str(device), decoder or Ss2Decoder(), **options)
        started.append(link.start())
        return link

    yield start
    for link in started:
        link.stop()


def wait_for(link, kind, timeout=5.0, where=lambda e: True):
    """The next event of `kind` matching `where`; every event passed over is returned too."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            event = link.events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no {kind.__name__} within {timeout} s; saw {seen}") from None
        seen.append(event)
        if isinstance(event, kind) and where(event):
            return event, seen


def test_reads_a_game_from_the_device(wheel, links):
    link = links(wheel.path)
    status, _ = wait_for(link, LinkStatus)
    assert status.online
    wheel.write(ss2(3, 7, 12), ss2(4, 7, 12), number(25), ss2(5, 7, 25))
    result, _ = wait_for(link, WheelResult)
    assert (result.number, result.game) == (25, 7)


def test_unplug_and_replug_reports_offline_online_and_no_result_twice(wheel, links):
    link = links(wheel.path)
    wait_for(link, LinkStatus)
    wheel.write(ss2(4, 7, 12), number(25), ss2(5, 7, 25), b"*X;5;00")  # cut mid-line by the unplug
    result, _ = wait_for(link, WheelResult)
    assert result.number == 25
    wheel.unplug()
    offline, _ = wait_for(link, LinkStatus)
    assert not offline.online and not link.online
    wheel.plug()
    online, _ = wait_for(link, LinkStatus)
    assert online.online and link.online
    # The wheel is still in state 5 of game 7, then plays game 8.
    wheel.write(ss2(5, 7, 25), ss2(5, 7, 25), ss2(2, 8, 25), ss2(4, 8, 25), number(3), ss2(5, 8, 3))
    result, seen = wait_for(link, WheelResult)
    assert (result.number, result.game) == (3, 8)
    assert not [e for e in seen if isinstance(e, WheelResult) and e is not result]


def test_a_device_missing_at_start_is_retried(tmp_path, links):
    path = tmp_path / "croupier-wheel"
    link = links(path)
    offline, _ = wait_for(link, LinkStatus)
    assert not offline.online and "cannot open" in offline.detail
    late = PlugInWheel(path)
    try:
        online, _ = wait_for(link, LinkStatus)
        assert online.online
    finally:
        late.close()


def test_a_silent_wheel_goes_offline_and_comes_back(wheel, links):
    link = links(wheel.path, silence_timeout=0.3)
    wait_for(link, LinkStatus)
    silent, _ = wait_for(link, LinkStatus)  # nothing written
    assert not silent.online and "nothing from the wheel" in silent.detail
    wheel.write(ss2(2, 1, None))
    back, _ = wait_for(link, LinkStatus)
    assert back.online


def test_the_silence_limit_follows_the_protocol():
    # Status protocols repeat every 500 ms; the basic M360 and the plain line are silent between games.
    assert WheelLink("/dev/null", make_decoder("cammegh-ss2")).silence_timeout == 3.0
    assert WheelLink("/dev/null", make_decoder("cammegh-m360-basic")).silence_timeout is None
    assert WheelLink("/dev/null", make_decoder("line")).silence_timeout is None


def test_the_port_is_opened_exclusively(wheel, links):
    first = links(wheel.path)
    status, _ = wait_for(first, LinkStatus)
    assert status.online
    second = links(wheel.path)
    refused, _ = wait_for(second, LinkStatus)
    assert not refused.online and "lock" in refused.detail.lower()


def test_stop_ends_the_reader_while_nothing_arrives(wheel, links):
    link = links(wheel.path)
    wait_for(link, LinkStatus)
    thread = link._thread
    link.stop(timeout=2.0)
    assert not thread.is_alive()


def test_send_writes_a_command_line(wheel, links):
    link = links(wheel.path)
    wait_for(link, LinkStatus)
    assert link.send("*R")
    assert wheel.read() == b"*R\r\n"


def test_a_failing_handler_does_not_stop_the_sensor(wheel, links):
    got = []

    def handler(event):
        got.append(event)
        if isinstance(event, WheelResult) and len([e for e in got if isinstance(e, WheelResult)]) == 1:
            raise RuntimeError("consumer bug")

    link = links(wheel.path, on_event=handler)
    deadline = time.monotonic() + 5
    while not link.online and time.monotonic() < deadline:  # bytes sent before the port opens are dropped
        time.sleep(0.01)
    wheel.write(ss2(4, 1, None), number(5), ss2(5, 1, 5), ss2(2, 2, 5), ss2(4, 2, 5), number(6), ss2(5, 2, 6))
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and len([e for e in got if isinstance(e, WheelResult)]) < 2:
        time.sleep(0.02)
    assert [e.number for e in got if isinstance(e, WheelResult)] == [5, 6]


def write_for(wheel, seconds, chunk):
    """Keep writing `chunk` for `seconds` (a wheel at the wrong baud rate, a flood)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        wheel.write(chunk)
        time.sleep(0.01)


def test_noise_alone_takes_the_link_offline_until_a_valid_line(wheel, links):
    # A wheel at the wrong baud rate: bytes keep coming, none of them a line.
    link = links(wheel.path, silence_timeout=0.5)
    assert wait_for(link, LinkStatus)[0].online
    write_for(wheel, 1.5, bytes(range(0x80, 0xC0)) + b"\r\n")
    offline, _ = wait_for(link, LinkStatus)
    assert not offline.online and "only noise" in offline.detail and not link.online
    wheel.write(ss2(2, 1, None))
    assert wait_for(link, LinkStatus)[0].online


def test_noise_takes_a_wheel_without_status_lines_offline_too(wheel, links):
    link = links(wheel.path, make_decoder("line"), noise_timeout=0.5)
    assert wait_for(link, LinkStatus)[0].online
    write_for(wheel, 1.5, b"\xf0\xe1\xd2garbage\r\n")
    offline, _ = wait_for(link, LinkStatus)
    assert not offline.online and "only noise" in offline.detail


def test_a_flood_of_malformed_lines_is_bounded_and_summarised(wheel, links):
    link = links(wheel.path)
    assert wait_for(link, LinkStatus)[0].online
    flood = b"*X;9;garbage\r\n" * 200
    for _ in range(100):  # 20,000 malformed lines, nobody reading the events meanwhile
        wheel.write(flood, ss2(2, 1, None))
    wheel.write(ss2(4, 1, None), number(5), ss2(5, 1, 5))
    result, seen = wait_for(link, WheelResult, timeout=20)
    assert result.number == 5
    faults = [e for e in seen if isinstance(e, WheelFault)]
    assert len(faults) <= 2 * FAULTS_PER_WINDOW, len(faults)
    time.sleep(0.2)
    assert link.events.qsize() < 50


def test_the_faults_not_shown_are_counted_when_the_window_ends(wheel, links):
    link = links(wheel.path, fault_window=0.3)
    assert wait_for(link, LinkStatus)[0].online
    wheel.write(b"*X;9;garbage\r\n" * 50, ss2(2, 1, None))
    summary, seen = wait_for(link, WheelFault, where=lambda f: "not shown" in f.message)
    shown = [e for e in seen if isinstance(e, WheelFault) and e is not summary]
    assert len(shown) == FAULTS_PER_WINDOW and f"{50 - FAULTS_PER_WINDOW} more" in summary.message
