"""Replaying a capture through a decoder, and showing the events as text or JSON lines."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from croupier.wheel.capture import is_timestamped, wheel_lines
from croupier.wheel.events import (
    BallPosition,
    CommandReply,
    LinkStatus,
    NumberConflict,
    VoidSpinNumber,
    WheelEvent,
    WheelFault,
    WheelResult,
    WheelState,
    WheelVoid,
    as_dict,
)
from croupier.wheel.protocols import make_decoder


def replay_file(path: str | Path, protocol: str, min_ball_revolutions: int | None = None) -> Iterator[WheelEvent]:
    """Every event the decoder makes of the capture, the capture's timestamps as its clock.
    Raises OSError for a file that cannot be read and CaptureFormatError for a bad capture line."""
    decoder = make_decoder(protocol, min_ball_revolutions)
    with open(path, "rb") as capture:
        for time, data in wheel_lines(capture, name=str(path)):
            yield from decoder.feed(data, time)


def has_timestamps(path: str | Path) -> bool:
    """Whether the capture is the timestamped format (else raw lines, timed from 0)."""
    with open(path, "rb") as capture:
        for line in capture:
            if line.strip():
                return is_timestamped(line)
    return False


def as_json(event: WheelEvent) -> str:
    return json.dumps(as_dict(event), ensure_ascii=True)


def as_text(event: WheelEvent, absolute_times: bool = True) -> str:
    """One line for a person: when, what, and the details."""
    if absolute_times:
        when = datetime.fromtimestamp(event.time, timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    else:
        when = f"{event.time:10.3f}s"
    return f"{when}  {_describe(event)}"


_SOURCES = {"number-line": "winning-number line", "state-5": "state-5 line", "basic": "*W packet", "line": "number line"}


def _game(game: int | None) -> str:
    return "" if game is None else f"  game {game}"


def _describe(event: WheelEvent) -> str:
    if isinstance(event, WheelResult):
        direction = f"  {event.direction.value}" if event.direction else ""
        source = _SOURCES.get(event.source, event.source)
        return f"result {event.number:>2}{_game(event.game)}{direction}  from the {source}"
    if isinstance(event, VoidSpinNumber):
        return f"void-number {event.number:>2}{_game(event.game)}  not a result: the launch is void ({event.reason.value})"
    if isinstance(event, NumberConflict):
        five = "--" if event.state_five is None else event.state_five
        if event.number_line is None:
            return f"conflict{_game(event.game)}  state 5 {event.first_state_five}, then {five}: neither is a result"
        return (f"conflict{_game(event.game)}  number line {event.number_line:>2}, state 5 {five}: "
                "neither is a result")
    if isinstance(event, WheelVoid):
        return f"void   {event.reason.value}{_game(event.game)}  {event.detail}"
    if isinstance(event, WheelState):
        last = "--" if event.last_number is None else f"{event.last_number:>2}"
        rpm = "" if event.rotor_rpm is None else f"  {event.rotor_rpm:.1f} rpm"
        direction = f" {event.direction.value}" if event.direction else ""
        return (
            f"state  {int(event.state)} {event.state.name.lower().replace('_', ' ')}{_game(event.game)}"
            f"  last {last}  flags {event.flags:X}{rpm}{direction}"
        )
    if isinstance(event, WheelFault):
        return f"fault  {event.message}  {event.raw!r}"
    if isinstance(event, CommandReply):
        return f"reply  *{event.command} {event.text}".rstrip()
    if isinstance(event, BallPosition):
        verdict = "the previous result's pocket" if event.in_previous_pocket else f"NOT the previous result ({event.expected})"
        return f"ball   in pocket {event.pocket}{_game(event.game)}: {verdict}"
    if isinstance(event, LinkStatus):
        return f"link   {'online' if event.online else 'OFFLINE'}  {event.detail}"
    raise TypeError(f"not a wheel event: {event!r}")
