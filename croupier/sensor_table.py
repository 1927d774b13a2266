"""The table driven by its wheel sensor: each wheel event (croupier.wheel.events) becomes a command
of the table session, as `croupier run --headless` records it and the table screen shows it.

Remembers just enough of the wheel to record one launch per launch: a launch is the wheel entering
a ball-in-play state, not every status line that shows one, and after a void only the wheel's next
launch counts: the SS2 starts again from state 2, the Mercury re-spins in play, its flags going back
to 0 (guide 5.3). The number the wheel gives for a launch declared void is not a result (`PT-A 22`):
the decoder gives it as a `VoidSpinNumber` when its sensor proposed the void; a launch voided at
the keypad loses the wheel's next number. When the wheel's two readings of a number differ
(`NumberConflict`: the number line and state 5, or two state-5 lines) neither is recorded: an alarm shows both, and the croupier types the result.
"""
from __future__ import annotations

import logging
from typing import Callable

from croupier.session import TableSession
from croupier.table import alarms
from croupier.table.cycle import IN_SPIN
from croupier.table.events import Event, Source
from croupier.table.state import Phase
from croupier.wheel.events import (
    LinkStatus,
    NumberConflict,
    VoidSpinNumber,
    WheelFault,
    WheelPhase,
    WheelResult,
    WheelState,
    WheelVoid,
)
from croupier.wheel.status import BALL_IN_PLAY

log = logging.getLogger(__name__)


class SensorTable:
    def __init__(self, session: TableSession, on_void_result: Callable[[WheelResult | VoidSpinNumber], None] | None = None, *,
                 respins_in_play: bool = False) -> None:
        """`on_void_result` hears of each number the wheel gave for a launch declared void.
        `respins_in_play`: the wheel re-spins a voided game without leaving play, its flags going
        back to 0 (the decoder's `respin_clears_voids`: the Mercury 360)."""
        self.session = session
        self.on_void_result = on_void_result
        self.respins_in_play = respins_in_play
        self._in_play: bool | None = None  # what the last status line said; None before the first
        self._flags = 0  # the warning flags of the last status line
        self._voided_game: int | None = None  # the game the sensor voided, until the wheel starts again
        self._dropped_void: int | None = None  # the void (by count) whose number was already dropped
        self._restarted = False  # the wheel powered down (state 6) since the last launch
        self._compared_spin: int | None = None  # the typed spin the wheel's reading was compared with

    def handle(self, event) -> list[Event]:
        """Record what `event` means for the table; the events recorded (none for most status lines).
        Raises Refused when the table will not take it, and JournalError when it cannot record."""
        session, phase = self.session, self.session.state.phase
        if isinstance(event, WheelState):
            in_play = event.state in BALL_IN_PLAY
            seen_before, self._in_play = self._in_play, in_play
            flags_before, self._flags = self._flags, event.flags
            if event.state in (WheelPhase.BEFORE_GAME, WheelPhase.PLACE_BETS):
                self._voided_game = None
            if event.state == WheelPhase.TABLE_CLOSED:
                self._restarted = True  # the SS2 powers down through state 6 and restarts its rotor one way
            if in_play and seen_before is True and self._respin(phase, flags_before, event):
                self._voided_game = None
                return self._launch(event)
            if in_play and seen_before is not True and self._new_launch(phase, seen_before, event.game):
                return self._launch(event)
            if event.state == WheelPhase.NO_MORE_BETS and phase is Phase.SPINNING:
                return session.close_bets(source=Source.SENSOR)
        elif isinstance(event, WheelVoid):
            if phase in IN_SPIN:
                self._voided_game = event.game
                log.info("void from the wheel: %s (%s)", event.reason.value, event.detail)
                return session.void_spin(reason=event.reason, source=Source.SENSOR)
        elif isinstance(event, VoidSpinNumber):
            log.info("game %s: %d is the number of a void spin (%s), not a result", event.game, event.number,
                     event.reason.value)
            if self.on_void_result is not None:
                self.on_void_result(event)
        elif isinstance(event, WheelResult):
            if self._of_void_launch(event):
                log.info("game %s: %d is the number of a void spin, not a result", event.game, event.number)
                if self.on_void_result is not None:
                    self.on_void_result(event)
                return []
            void = self.session.state.voided
            if phase not in IN_SPIN and void is not None and void.source is Source.SENSOR:
                # A re-spin whose launch no status line showed: never a result without its launch.
                launched = session.launch(direction=event.direction, source=Source.SENSOR, wheel_game=event.game)
                return launched + session.sensor_result(number=event.number, wheel_game=event.game,
                                                        direction=event.direction, wheel_lines=event.lines)
            return session.sensor_result(number=event.number, wheel_game=event.game, direction=event.direction,
                                         typed_spin=self._typed_spin(phase, event), wheel_lines=event.lines)
        elif isinstance(event, NumberConflict):
            log.warning("game %s: the winning-number line says %s, state 5 says %s (first %s): neither recorded",
                        event.game, event.number_line, event.state_five, event.first_state_five)
            if phase in IN_SPIN:
                return session.run(alarms.wheel_numbers_differ, number_line=event.number_line,
                                   state_five=event.state_five, game=event.game,
                                   first_state_five=event.first_state_five, wheel_lines=event.lines)
        elif isinstance(event, LinkStatus):
            log.warning("wheel link %s: %s", "up" if event.online else "down", event.detail)
            if not event.online:
                return session.run(alarms.wheel_fault, detail=event.detail, link=event.reason or None,
                                   seconds=None if event.seconds is None else round(event.seconds))
        elif isinstance(event, WheelFault):
            log.warning("from the wheel: %s %r", event.message, event.raw)
        return []

    def _typed_spin(self, phase: Phase, result: WheelResult) -> int | None:
        """The spin this reading belongs to when the croupier typed its result first: no launch
        since, and the same game where both know it. Compared once: a wheel without game numbers
        gives its next number for the next launch."""
        last = self.session.state.last_result
        if phase in IN_SPIN or last is None or last.source is not Source.KEYPAD or self._compared_spin == last.spin:
            return None
        if None not in (last.wheel_game, result.game) and last.wheel_game != result.game:
            return None
        self._compared_spin = last.spin
        return last.spin

    def _launch(self, event: WheelState) -> list[Event]:
        restarted, self._restarted = self._restarted, False
        return self.session.launch(direction=event.direction, source=Source.SENSOR, wheel_game=event.game,
                                   wheel_restarted=restarted)

    def _respin(self, phase: Phase, flags_before: int, event: WheelState) -> bool:
        """The Mercury re-spins the game the sensor voided without leaving play: the flags that
        voided it go back to 0 (guide 5.3)."""
        return (self.respins_in_play and phase not in IN_SPIN and self.session.state.voided is not None
                and self._voided_game is not None and event.game == self._voided_game
                and flags_before != 0 and event.flags == 0)

    def _new_launch(self, phase: Phase, seen_before: bool | None, game: int | None) -> bool:
        """The wheel shows a ball in play: is it a launch the journal does not hold yet?"""
        if self._voided_game is not None:
            return False  # the ball the sensor voided still rides, until the wheel starts a game
        void = self.session.state.voided
        if seen_before is None and void is not None and None not in (game, void.wheel_game) and game == void.wheel_game:
            return False  # a restarted reader meets the voided ball still riding
        if phase not in IN_SPIN:
            return True
        # The journal holds a launch without its result. The wheel left play and came back (a
        # result was missed), or a restarted reader meets another game: a new launch. The first
        # status a restarted reader sees of the same game is the launch already recorded.
        launch = self.session.state.launch  # a spin under way has its launch
        recorded = launch.wheel_game if launch is not None else None
        return seen_before is False or (None not in (recorded, game) and recorded != game)

    def _of_void_launch(self, result: WheelResult) -> bool:
        """The wheel's number for the launch a golpe nulo voided (PT-A 22): the ball stopped
        somewhere, but the spin does not count. The decoder gives the number of a launch its sensor
        voided apart (VoidSpinNumber); a launch voided at the keypad loses the wheel's next number of
        that game, once per void (a wheel without game numbers gives its next number for a new launch)."""
        state = self.session.state
        void = state.voided
        if void is None:
            return False
        if void.source is Source.SENSOR or self._dropped_void == state.voids:
            return False  # a number the wheel did not mark belongs to a new launch: a re-spin
        if None not in (void.wheel_game, result.game) and void.wheel_game != result.game:
            return False
        self._dropped_void = state.voids
        return True
