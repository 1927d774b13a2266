"""What runs around the table app: its log, and the devices started once the app runs and stopped
when it ends (the wheel link, the GPIO matrix keypad, the display board, the floor link). Each device posts to the
app (never touches the screen) and is stopped with a bounded wait, so nothing keeps the process
alive at exit.
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Callable, Iterator, TYPE_CHECKING

from croupier.config import Config, LoggingConfig, setup_logging
from croupier.i18n import _
from croupier.ui.messages import KeypadPressed, WheelReport

if TYPE_CHECKING:
    from croupier.keypad.entry import Key
    from croupier.ui.app import TableApp

log = logging.getLogger(__name__)

Start = Callable[["TableApp"], Callable[[], None]]  # start(app) -> stop()


@contextmanager
def logging_to(config: LoggingConfig) -> Iterator[None]:
    """croupier's log where the configuration says, for as long as the command runs; then the
    handler is removed and closed, so a command run in-process (as the tests do) leaves none."""
    handler = setup_logging(config)
    try:
        yield
    finally:
        if handler is not None:
            logging.getLogger("croupier").removeHandler(handler)
            handler.close()


class Devices:
    def __init__(self) -> None:
        self._starts: list[Start] = []
        self._stops: list[Callable[[], None]] = []

    def add(self, start: Start) -> None:
        self._starts.append(start)

    def add_running(self, stop: Callable[[], None]) -> None:
        """A device already running (the display board, opened before the app to fail early)."""
        self._stops.append(stop)

    def start(self, app: TableApp) -> None:
        for start in self._starts:
            self._stops.append(start(app))

    def stop(self) -> None:
        while self._stops:
            stop = self._stops.pop()
            try:
                stop()
            except Exception:  # one device failing to stop must not keep the others running
                log.exception("stopping a device failed")


def wheel_link(config: Config, device: str | None = None, *, clock: Callable[[], float] | None = None,
               silence_timeout: float | None = -1.0) -> Start:
    """The serial link to the wheel (config.wheel; `device` overrides its path), posting WheelReport."""
    wheel = config.wheel
    if wheel is None:  # a table without a sensor types its results: it has no link to start
        raise ValueError('the configuration names no wheel ([wheel] protocol = "none")')

    def start(app: TableApp) -> Callable[[], None]:
        from croupier.table.regulation import profile_of
        from croupier.wheel.events import WheelEvent
        from croupier.wheel.link import WheelLink
        from croupier.wheel.protocols import make_decoder

        state = app.session.state
        revolutions = profile_of(state).min_ball_revolutions if state.profile else None
        decoder = make_decoder(wheel.protocol, revolutions)
        last = state.last_result
        if last is not None and last.wheel_game is not None:
            decoder.mark_reported(last.wheel_game, last.number)  # never record a game twice
        app.sensor.respins_in_play = decoder.respin_clears_voids  # the Mercury re-spins in play

        def report(event: WheelEvent) -> None:
            app.post_message(WheelReport(event))

        link = WheelLink(device or wheel.device, decoder, report, baudrate=wheel.baud, clock=clock,
                         silence_timeout=silence_timeout)
        link.start()
        return link.stop

    return start


ANCHORS_S = 1.0  # how often the floor's anchor receipts are recorded, from the app's own loop


def floor_link(config: Config) -> Start:
    """The journal published to the casino floor ([floor] url, [table] id) from the publisher's own
    thread: the screen and the journal work the same with the floor down. Its anchor receipts are
    recorded by the app's loop, the session's one writer. A bad table id or a missing nats-py is
    refused now, before the screen starts (FloorLinkError)."""
    from croupier.floor.table_link import FloorLink, FloorLinkError, check_floor_link

    table_id, url = check_floor_link(config.table.id), config.floor.url
    if url is None:
        raise FloorLinkError("the configuration names no floor ([floor] url)")

    def start(app: TableApp) -> Callable[[], None]:
        try:
            link = FloorLink(app.session, config.journal_path, table_id, url, floor_key=config.floor.floor_key,
                             credentials=config.floor.credentials, ca=config.floor.ca)
        except FloorLinkError as exc:
            # A file of the link it cannot read (a floor key copied in as root's 0600): the table
            # plays and records as usual, says so, and doctor names the file.
            log.error("the floor link did not start: %s", exc)
            app.say(_("The floor link did not start: the table records as usual; croupier doctor says why"), error=True)
            return lambda: None
        timer = app.set_interval(ANCHORS_S, link.drain)

        def stop() -> None:
            timer.stop()
            link.stop()

        return stop

    return start


def matrix_keypad(config: Config) -> Start:
    """The 4x4 GPIO keypad (config.keypad), posting KeypadPressed from its scanning thread. Its pins
    are claimed now, so a wiring problem is reported before the screen starts."""
    from croupier.keypad.matrix import MatrixKeypad

    running: dict[str, TableApp] = {}

    def pressed(key: Key) -> None:
        running["app"].post_message(KeypadPressed(key))

    keypad = MatrixKeypad(config.keypad.rows, config.keypad.columns, pressed)

    def start(app: TableApp) -> Callable[[], None]:
        running["app"] = app
        keypad.start()
        return keypad.close

    return start
