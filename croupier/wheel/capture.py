"""Reading wheel captures: the timestamped log of ../shared/captures/ or raw lines as the wheel sends
them. Pure: lines of bytes in, (time, wheel bytes) out.

Timestamped format, one line per packet, CR/LF removed:

    [2025-09-16 06:45:24.407] Receive >>> 28          bytes the wheel sent
    [2025-09-16 06:44:49.517] Send <<< *u 1           bytes the host sent (skipped)

The program that wrote those logs also wrote its own messages as `Receive >>>` lines (`start_time:
…`, `*X;2 WARNING detected! …`); they are not wheel output and are skipped. Its logger stripped the
leading space of the winning-number line, so a one-digit body is given back its space (" 5").
Raw captures carry no time: their lines are taken 500 ms apart, the status cadence.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Iterable, Iterator

RAW_LINE_INTERVAL_S = 0.5

_STAMPED = re.compile(rb"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{1,6})\] ([A-Za-z][A-Za-z -]*?) (>>>|<<<) ?(.*)")
_HOST_MESSAGE = re.compile(
    rb"[A-Za-z_]+: .*"  # start_time: 1757990688.58, finish_to_start_time: 0.0
    rb"|Summary:"
    rb"|Detected \*X.*"
    rb"|Error signal .*"
    rb"|Program termination .*"
    rb"|Received \*X.*"
    rb"|\d+-second timeout .*"
    rb"|\*X;\d (?:WARNING|MESSAGE) detected!.*"
    rb"|\*X;\d with warning_flag=.*"
)


class CaptureFormatError(ValueError):
    pass


def is_timestamped(first_line: bytes) -> bool:
    return _STAMPED.match(first_line.strip()) is not None


def timestamped_lines(lines: Iterable[bytes], name: str = "capture") -> Iterator[tuple[float, bytes]]:
    """(seconds, wheel bytes with CR LF) for every `Receive >>>` line that is wheel output."""
    for number, line in enumerate(lines, 1):
        line = line.rstrip(b"\r\n")
        if not line.strip():
            continue
        match = _STAMPED.fullmatch(line)
        if match is None:
            shown = line[:60].decode("latin-1")
            raise CaptureFormatError(
                f"{name}:{number}: not a capture line (expected '[YYYY-MM-DD HH:MM:SS.mmm] Receive >>> ...'): {shown!r}"
            )
        stamp, tag, arrow, body = match.groups()
        if tag != b"Receive" or arrow != b">>>" or _HOST_MESSAGE.fullmatch(body):
            continue
        if len(body) == 1 and body.isdigit():
            body = b" " + body
        yield _seconds(stamp, name, number), body + b"\r\n"


def raw_lines(lines: Iterable[bytes]) -> Iterator[tuple[float, bytes]]:
    """Raw wheel output, each line as it came (terminator kept), 500 ms apart."""
    for index, line in enumerate(lines):
        yield index * RAW_LINE_INTERVAL_S, line


def wheel_lines(lines: Iterable[bytes], name: str = "capture") -> Iterator[tuple[float, bytes]]:
    """Either format, told apart by the first non-empty line."""
    lines = iter(lines)
    head: list[bytes] = []
    for line in lines:
        head.append(line)
        if line.strip():
            break
    if not head or not head[-1].strip():
        return
    rest = _chain(head, lines)
    yield from timestamped_lines(rest, name) if is_timestamped(head[-1]) else raw_lines(rest)


def _chain(head: list[bytes], tail: Iterator[bytes]) -> Iterator[bytes]:
    yield from head
    yield from tail


def _seconds(stamp: bytes, name: str, number: int) -> float:
    try:
        when = datetime.strptime(stamp.decode("ascii"), "%Y-%m-%d %H:%M:%S.%f")
    except ValueError:
        raise CaptureFormatError(f"{name}:{number}: bad timestamp {stamp.decode('latin-1')!r}") from None
    # The capture does not say its time zone; reading it as UTC keeps replays the same everywhere.
    return when.replace(tzinfo=timezone.utc).timestamp()
