"""The serial link to the wheel: the only module that imports pyserial (inside its functions).

A reader thread opens the device (9600 8N1 by default, exclusive, with a read timeout so that it
never blocks for long), feeds what it reads to a decoder with the time it arrived, and hands every
event to a callback or a queue. When the device goes away (USB adapter unplugged, cable pulled) it
reports `LinkStatus(online=False)`, retries with a growing delay and reports `online=True` when it is
back. A wheel that keeps its status cadence but falls silent is offline too, and so is one whose
bytes are all noise (a wrong baud rate): online means valid wheel lines arrive.

A flood of malformed lines costs neither memory nor log: at most `FAULTS_PER_WINDOW` faults are
passed on per window, then one fault counting those not shown; the queue is bounded, and when it
is full a fault is dropped while any other event waits for room.

The decoder is kept across reconnects, so a game reported before the unplug is not reported again
when the wheel is heard repeating its state-5 line afterwards.

    link = WheelLink("/dev/croupier-wheel", make_decoder("cammegh-ss2"), on_event=handle)
    link.start()
    ...
    link.stop()

The Textual screen passes `on_event=lambda e: app.post_message(...)` (post_message is thread-safe);
a headless runner leaves `on_event` out and reads `link.events`, a queue.Queue.
"""
from __future__ import annotations

import logging
import queue
import threading
import time as _time
from typing import Callable, Sequence

from croupier.wheel.events import LinkStatus, WheelEvent, WheelFault
from croupier.wheel.protocols import WheelDecoder

log = logging.getLogger(__name__)

RETRY_DELAYS_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # then every 5 s
READ_TIMEOUT_S = 0.5  # how long a read waits for a byte: stop() cancels a waiting read; silence is checked this often
SILENT_STATUS_LINES = 6  # a status wheel that misses this many 500 ms lines is offline
NOISE_TIMEOUT_S = 10.0  # a wheel without status lines that sends only noise this long is offline
FAULTS_PER_WINDOW = 5  # faults passed on per window; the rest are counted
FAULT_WINDOW_S = 10.0
QUEUE_LIMIT = 1000  # events waiting for a reader that is slower than the wheel


class FaultThrottle:
    """Passes the first faults of each window and counts the others, reported when it ends."""

    def __init__(self, limit: int = FAULTS_PER_WINDOW, window: float = FAULT_WINDOW_S):
        self.limit, self.window = limit, window
        self._start: float | None = None
        self._shown = self._hidden = 0

    def admit(self, fault: WheelFault) -> list[WheelEvent]:
        out = self.flush(fault.time)
        if self._start is None:
            self._start = fault.time
        if self._shown < self.limit:
            self._shown += 1
            out.append(fault)
        else:
            self._hidden += 1
        return out

    def flush(self, now: float) -> list[WheelEvent]:
        """The count of the faults not shown, once their window is over."""
        if self._start is None or now - self._start < self.window:
            return []
        hidden, self._start, self._shown, self._hidden = self._hidden, None, 0, 0
        if not hidden:
            return []
        return [WheelFault(f"{hidden} more faults in the last {self.window:g} s, not shown", now, "")]


class WheelLink:
    def __init__(
        self,
        device: str,
        decoder: WheelDecoder,
        on_event: Callable[[WheelEvent], None] | None = None,
        *,
        baudrate: int = 9600,
        clock: Callable[[], float] | None = None,  # None: the monotonic clock
        read_timeout: float = READ_TIMEOUT_S,
        retry_delays: Sequence[float] = RETRY_DELAYS_S,
        silence_timeout: float | None = -1.0,
        noise_timeout: float | None = None,
        fault_window: float = FAULT_WINDOW_S,
    ):
        """`silence_timeout`: seconds without a byte before the link counts as offline; the default
        follows the decoder (six status intervals), None never times out. `noise_timeout`: seconds
        of bytes without a valid line before it counts as offline (default: the silence timeout,
        or 10 s for a wheel without status lines)."""
        self.device = device
        self.decoder = decoder
        self.baudrate = baudrate
        self.clock = clock or _time.monotonic
        self.read_timeout = read_timeout
        self.retry_delays = tuple(retry_delays) or (1.0,)
        if silence_timeout is not None and silence_timeout < 0:
            heartbeat = decoder.heartbeat
            silence_timeout = None if heartbeat is None else heartbeat * SILENT_STATUS_LINES
        self.silence_timeout = silence_timeout
        self.noise_timeout = noise_timeout or silence_timeout or NOISE_TIMEOUT_S
        self.events: queue.Queue[WheelEvent] = queue.Queue(QUEUE_LIMIT)
        self._on_event = on_event or self._queue
        self._faults = FaultThrottle(window=fault_window)
        self._left_over: list[WheelEvent] = []  # decoded while stopping with the queue full
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port = None
        self._port_lock = threading.Lock()
        self._online: bool | None = None

    # -- control ---------------------------------------------------------------------------------

    def start(self) -> "WheelLink":
        if self._thread is not None:
            raise RuntimeError("the wheel link is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"wheel-link {self.device}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader: a waiting read is cancelled, so it returns at once."""
        self._stop.set()
        with self._port_lock:
            if self._port is not None:
                try:
                    self._port.cancel_read()
                except Exception:  # the port may be half-closed by an unplug already
                    pass
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> "WheelLink":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def online(self) -> bool:
        return bool(self._online)

    def send(self, command: str) -> bool:
        """Send one command line (`*R` acknowledges a void on the SS2); False when offline."""
        data = command.encode("ascii") + b"\r\n"
        with self._port_lock:
            if self._port is None:
                return False
            try:
                self._port.write(data)
                return True
            except Exception as e:  # pyserial raises its own and OS errors alike
                log.warning("could not send %r to the wheel: %s", command, e)
                return False

    # -- the reader thread -----------------------------------------------------------------------

    def _run(self) -> None:
        import serial  # pyserial: only here, only when a link runs

        failures = 0
        while not self._stop.is_set():
            try:
                port = open_port(self.device, self.baudrate, self.read_timeout)
            except (serial.SerialException, OSError, ValueError) as e:
                self._status(False, f"cannot open {self.device}: {e}", "cannot-open")
                delay = self.retry_delays[min(failures, len(self.retry_delays) - 1)]
                failures += 1
                self._stop.wait(delay)
                continue
            failures = 0
            with self._port_lock:
                self._port = port
            try:
                self._read(port, serial.SerialException)
            finally:
                with self._port_lock:
                    self._port = None
                try:
                    port.close()
                except Exception:
                    pass
            self._stop.wait(self.retry_delays[0])  # a device that fails as soon as it opens must not spin

    def _read(self, port, serial_error: type[Exception]) -> None:
        try:
            port.reset_input_buffer()  # bytes queued before this open are stale
        except (serial_error, OSError):
            pass
        self.decoder.resync()  # and a line they started has lost its beginning
        self._status(True, f"{self.device} open, {self.baudrate} 8N1")
        last_data = self.clock()
        noise_since: float | None = None  # bytes came, no valid line since
        while not self._stop.is_set():
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial_error, OSError) as e:
                self._status(False, f"{self.device} lost: {e}", "lost")
                return
            now = self.clock()
            if data:
                if self.silence_timeout is not None and now - last_data > self.silence_timeout:
                    self.decoder.resync()  # the line cut by the silence cannot be finished
                last_data = now
                valid = self.decoder.valid_lines
                for event in self.decoder.feed(data, now):
                    self._emit(event)
                if self.decoder.valid_lines != valid:
                    noise_since = None
                    self._status(True, "the wheel is heard again")
                elif noise_since is None:
                    noise_since = now
            for summary in self._faults.flush(now):
                self._deliver(summary)
            if not self._online:
                continue
            if self.silence_timeout is not None and now - last_data > self.silence_timeout:
                self._status(False, f"nothing from the wheel for {self.silence_timeout:g} s", "silent",
                             self.silence_timeout)
            elif noise_since is not None and now - noise_since > self.noise_timeout:
                self._status(False, f"only noise from the wheel for {self.noise_timeout:g} s, no valid line "
                                    f"(is the baud rate {self.baudrate} the wheel's?)", "noise", self.noise_timeout)

    def _status(self, online: bool, detail: str, reason: str = "", seconds: float | None = None) -> None:
        if self._online is online:
            return
        self._online = online
        self._emit(LinkStatus(online, self.clock(), detail, reason, seconds))

    def _emit(self, event: WheelEvent) -> None:
        for passed in self._faults.admit(event) if isinstance(event, WheelFault) else (event,):
            self._deliver(passed)

    def _deliver(self, event: WheelEvent) -> None:
        try:
            self._on_event(event)
        except Exception:  # a consumer's bug must not stop the sensor
            log.exception("wheel event handler failed on %r", event)

    def _queue(self, event: WheelEvent) -> None:
        """Into the bounded queue: a fault is dropped when it is full, any other event waits (or,
        once the link is stopping, is kept for `drain`)."""
        while True:
            try:
                self.events.put(event, timeout=0.1)
                return
            except queue.Full:
                if isinstance(event, WheelFault):
                    return
                if self._stop.is_set():
                    self._left_over.append(event)
                    return

    def drain(self) -> list[WheelEvent]:
        """After `stop`: every event decoded and not yet taken from `events`, in order."""
        found = []
        while True:
            try:
                found.append(self.events.get_nowait())
            except queue.Empty:
                break
        found += self._left_over
        self._left_over = []
        return found


def open_port(device: str, baudrate: int, timeout: float):
    """The wheel's serial port, 8N1, opened exclusively (pyserial: imported only here)."""
    import serial

    return serial.Serial(device, baudrate, bytesize=serial.EIGHTBITS, parity=serial.PARITY_NONE,
                         stopbits=serial.STOPBITS_ONE, timeout=timeout, exclusive=True)


class QueryPort:
    """The wheel's serial port for its log queries (`croupier reconcile`): a command out, its reply
    line back, the status lines in between skipped. A log page's data may hold '*', so lines are
    cut at CR/LF only, not by the table's framer."""

    def __init__(self, device: str, baudrate: int = 9600, reply_timeout: float = 3.0):
        self.port = open_port(device, baudrate, 0.2)
        self.reply_timeout = reply_timeout
        self.pending = b""

    def ask(self, command: str, answer: str) -> str:
        self.port.write(command.encode("ascii") + b"\r\n")
        deadline = _time.monotonic() + self.reply_timeout
        while _time.monotonic() < deadline:
            self.pending += self.port.read(4096)
            *lines, self.pending = self.pending.replace(b"\n", b"\r").split(b"\r")
            for line in lines:
                text = line.decode("latin-1")
                if text.startswith(answer):
                    return text
        raise OSError(f"the wheel did not answer {command!r} within {self.reply_timeout:.0f} s")

    def close(self) -> None:
        self.port.close()
