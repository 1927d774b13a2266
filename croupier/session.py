"""The table session the screens drive: the journal, the clock and the state, kept together.

    session = TableSession.open("journal.db", SystemClock())
    session.subscribe(lambda event, state: ...)      # the table screen, the display board
    session.launch(direction=Direction.CLOCKWISE)    # returns once the events are committed

Every method runs one command of `croupier.table` against the current state and the clock, appends
its events to the journal in one transaction, then folds them into the state and tells the
subscribers. A refused command raises `croupier.table.refusal.Refused` and records nothing. No rule lives here.
"""
from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
from pathlib import Path
from datetime import datetime
from typing import Callable, Concatenate, ParamSpec, TypeVar

from croupier.journal.key import pepper
from croupier.journal.store import Journal, JournalError
from croupier.table import alarms, balls, bets, colours, context, cycle, payouts, relief, roles, sign, timekeeping
from croupier.table.clock import Clock, GuardedClock
from croupier.table.codec import CodecError
from croupier.table.commands import execute, tick
from croupier.table.events import Event, FloorAnchored, Role
from croupier.table.notices import Notice, notices
from croupier.table.refusal import PinDelayed, PinLocked, Refused, WrongPin
from croupier.table.state import INITIAL, VERSION, TableState, apply, decode_state, encode_state

log = logging.getLogger(__name__)

Listener = Callable[[Event, TableState], None]
P = ParamSpec("P")
E = TypeVar("E", bound=Event)

SNAPSHOT_EVERY = 500  # events between snapshots: start-up folds at most this many
PIN_ARGUMENTS = ("pin", "by_pin")  # the commands' PIN arguments, peppered with the table's key


def _command(command: Callable[Concatenate[TableState, datetime, P], list[Event]]
             ) -> Callable[Concatenate[TableSession, P], list[Event]]:
    """A session method running `command`, taking the arguments the command takes after the state
    and the time, with their types."""

    def method(self: TableSession, /, *args: P.args, **arguments: P.kwargs) -> list[Event]:
        return self.run(command, *args, **arguments)

    method.__name__ = command.__name__
    method.__doc__ = command.__doc__
    return method


def recorded(events: list[Event] | None, kind: type[E]) -> E | None:
    """The event of `kind` a command recorded (after any alarm that fell due with it); None when
    the command was refused or recorded none."""
    found = [event for event in events or () if isinstance(event, kind)]
    return found[-1] if found else None


def _fold(journal: Journal, path) -> tuple[TableState, int]:
    """The state from the journal's last snapshot and the events after it, and that snapshot's seq."""
    snapshot = journal.latest_snapshot(VERSION)
    state, after = INITIAL, 0
    if snapshot is not None:
        try:
            state, after = decode_state(snapshot.state), snapshot.seq
        except CodecError as exc:
            raise JournalError(f"{path}: the snapshot after event {snapshot.seq} cannot be read ({exc})")
    for entry in journal.entries(after, snapshot.event_hash if snapshot else None):
        state = apply(state, entry.event)
    return state, after


class TableSession:
    def __init__(self, journal: Journal, clock: Clock, state: TableState, snapshot_seq: int, *,
                 pin_lock_minutes: int | None = None) -> None:
        self.journal = journal
        self.clock = clock
        # how long PIN_LOCK_AFTER wrong PINs in a row lock a PIN ([table] pin_lock_minutes)
        self.pin_lock_minutes = pin_lock_minutes or roles.PIN_LOCK_MINUTES
        self._state = state
        self._snapshot_seq = snapshot_seq
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()
        self._pepper = pepper(journal.key) if journal.key else b""

    @classmethod
    def open(cls, path: str | Path, clock: Clock, *, read_only: bool = False, key: Path | bytes | None = None,
             purpose: str | None = None, pin_lock_minutes: int | None = None) -> "TableSession":
        """Open (or create) the journal and rebuild the state from its last snapshot and the events
        after it. `key` and `purpose` as for `Journal.open` (the table's key file, by default
        table.key beside the journal); `pin_lock_minutes` as `[table] pin_lock_minutes`. Raises
        JournalError, naming the problem, for a journal that cannot be trusted."""
        journal = Journal.open(path, read_only=read_only, key=key, purpose=purpose)
        try:
            state, after = _fold(journal, path)
            if not read_only:
                journal.index_sequence()  # the journal is accepted: what the next start's count reads
        except BaseException:
            journal.close()
            raise
        session = cls(journal, clock, state, after, pin_lock_minutes=pin_lock_minutes)
        if isinstance(clock, GuardedClock):
            clock.not_before(state.last_event_time)  # the jump is recorded with the first command
        if not read_only and journal.head[0] - after >= SNAPSHOT_EVERY:
            session.snapshot()
        return session

    def reload(self) -> TableState:
        """The state folded again from the journal: after a screen bug, the table goes on from what
        was recorded, whatever the screen made of it."""
        with self._lock:
            self._state, self._snapshot_seq = _fold(self.journal, self.journal.path)
            return self._state

    @property
    def state(self) -> TableState:
        return self._state

    @property
    def seq(self) -> int:
        """Sequence number of the last recorded event."""
        return self.journal.head[0]

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(event, state)` after each new event is committed; returns the way to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def run(self, command: Callable[Concatenate[TableState, datetime, P], list[Event]], /,
            *args: P.args, **arguments: P.kwargs) -> list[Event]:
        """Run one command now; its events (with any alarm that fell due) are committed together.
        A wrong PIN, or one typed while its PIN waits, is recorded (and the one that locks the PIN
        raises an alarm) before the refusal reaches the caller."""
        if args:
            raise TypeError(f"{command.__name__} takes its arguments by keyword")
        for name in PIN_ARGUMENTS:
            if isinstance(typed := arguments.get(name), str):
                arguments[name] = roles.Pin(typed, self._pepper, self.clock.now())
        try:
            return self._commit(command, arguments)
        except Refused as refusal:
            self._record_wrong_pin(refusal)
            raise

    def authorise(self, name: str, pin: str, *allowed: Role, to: str) -> None:
        """Check a PIN before a protected action is asked for (a screen's menu); a wrong one is
        recorded like a wrong PIN given with a command. Raises Refused."""
        try:
            roles.authorise(self._state, name, roles.Pin(pin, self._pepper, self.clock.now()), *allowed, to=to)
        except Refused as refusal:
            self._record_wrong_pin(refusal)
            raise

    def _record_wrong_pin(self, refusal: Refused) -> None:
        if isinstance(refusal, WrongPin):
            self._commit(roles.wrong_pin, {"name": refusal.name, "lock_minutes": self.pin_lock_minutes})
        elif isinstance(refusal, (PinDelayed, PinLocked)):
            self._commit(roles.pin_attempt_waiting, {"name": refusal.name})

    def _commit(self, command: Callable[..., list[Event]], arguments: dict) -> list[Event]:
        with self._lock:
            now = self.clock.now()
            if isinstance(self.clock, GuardedClock) and not self.journal.read_only:
                for jump in self.clock.jumps():  # recorded first, on their own: the command may be refused
                    self._commit(timekeeping.clock_jumped, {"wall": jump.wall, "table": jump.table})
            events = execute(command, self._state, now, **arguments)
            if not events:
                return []
            self.journal.append(events)
            for event in events:
                self._state = apply(self._state, event)
                if isinstance(event, FloorAnchored):
                    self.journal.note_anchor(event.seq, event.digest)
            if self.seq - self._snapshot_seq >= SNAPSHOT_EVERY:
                try:
                    self.snapshot()
                except (JournalError, sqlite3.Error):  # the events are safe; the next snapshot will do
                    log.warning("snapshot after event %d failed", self.seq, exc_info=True)
            state = self._state
        for event in events:
            for listener in list(self._listeners):
                try:
                    listener(event, state)
                except Exception:  # a screen's bug must not stop the table: the event is recorded
                    log.exception("a listener failed on %s", event.kind)
        return events

    def snapshot(self) -> None:
        with self._lock:
            if self.seq > self._snapshot_seq:
                self.journal.write_snapshot(self.seq, VERSION, encode_state(self._state))
                self._snapshot_seq = self.seq

    def close(self) -> None:
        with self._lock:
            try:
                if not self.journal.read_only:
                    self.snapshot()
            except (JournalError, sqlite3.Error) as exc:  # a full disk: the events are safe, start-up folds them
                log.warning("no closing snapshot after event %d: %s", self.seq, exc)
            finally:
                self.journal.close()

    def __enter__(self) -> "TableSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the commands, one method each (arguments as in croupier.table) -----------------------

    def tick(self) -> list[Event]:
        """Record the alarms now due (a relief or a ball change overdue); call it on a timer."""
        return self.run(tick)

    def notices(self) -> list[Notice]:
        return notices(self._state, self.clock.now())

    def register_staff(self, *, name: str, role: Role, pin: str, by: str | None = None,
                       by_pin: str | None = None) -> list[Event]:
        return self.run(roles.register_staff, name=name, role=role, pin=pin, salt=secrets.token_bytes(roles.SALT_BYTES),
                        by=by, by_pin=by_pin)

    open_table = _command(cycle.open_table)
    close_table = _command(cycle.close_table)
    change_limits = _command(cycle.change_limits)
    change_profile = _command(cycle.change_profile)
    change_sign = _command(sign.change_sign)
    change_context = _command(context.change_context)
    start_countdown = _command(cycle.start_countdown)
    launch = _command(cycle.launch)
    close_bets = _command(cycle.close_bets)
    enter_result = _command(cycle.enter_result)
    confirm_result = _command(cycle.confirm_result)
    sensor_result = _command(cycle.sensor_result)
    payouts_done = _command(cycle.payouts_done)
    record_payouts = _command(payouts.record_payouts)
    void_spin = _command(cycle.void_spin)
    acknowledge_void = _command(cycle.acknowledge_void)
    correct_result = _command(cycle.correct_result)
    place_bets = _command(bets.place_bets)
    withdraw_bets = _command(bets.withdraw_bets)
    rebuild_winning_bets = _command(bets.rebuild_winning_bets)
    swap_ball = _command(balls.swap_ball)
    replace_ball = _command(balls.replace_ball)
    relieve = _command(relief.relieve)
    join_waiting_list = _command(colours.join_waiting_list)
    leave_waiting_list = _command(colours.leave_waiting_list)
    assign_colour = _command(colours.assign_colour)
    issue_chips = _command(colours.issue_chips)
    cash_out = _command(colours.cash_out)
    exchange_late_chips = _command(colours.exchange_late_chips)
    settle_foreign_chips = _command(colours.settle_foreign_chips)
    check_clock = _command(timekeeping.check_clock)
    acknowledge_alarm = _command(alarms.acknowledge)
    clear_alarm = _command(alarms.clear)
    unlock_pin = _command(roles.unlock_pin)
