"""Building wheel lines by hand for the decoder tests (formats from the vendor guides)."""
from __future__ import annotations


def pocket(number: int | None, empty: str = "  ") -> str:
    return empty if number is None else f"{number:>2}"


def ss2(state: int, spin: int, last: int | None, flags: int = 0, rpm: int = 170, direction: int = 0) -> bytes:
    return f"*X;{state};{spin:03d};{pocket(last)};{flags:X};{rpm:03d};{direction}\r\n".encode()


def m360(state: int, games: int, last: int | None, flags: int = 0, rpm: int = 250, direction: int = 0) -> bytes:
    return f"*X;{state};{games:03d};{pocket(last)};{flags:X};{rpm:03d};{direction}\r\n".encode()


def m360x(
    state: int,
    games: int,
    last: int | None,
    flags: int = 0,
    rpm: int = 250,
    direction: int = 0,
    ext: int = 0x012,
    revolutions: int = 0,
    ball: str = "?",
    period: str = "?????",
    ball_pocket: int | None = None,
) -> bytes:
    base = f"*X;{state};{games:03d};{pocket(last)};{flags:X};{rpm:03d};{direction}"
    return f"{base};{ext:04X};{revolutions:02X};{ball};{period};{pocket(ball_pocket, '??')}\r\n".encode()


def number(n: int) -> bytes:
    return pocket(n).encode() + b"\r\n"


def feed_all(decoder, chunks, start: float = 0.0, step: float = 0.5):
    """Feed each chunk at its own time, `step` seconds apart; all events in order."""
    events = []
    for i, chunk in enumerate(chunks):
        events += decoder.feed(chunk, start + i * step)
    return events


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]
