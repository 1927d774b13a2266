"""The wheel's own record of its results, and how it compares with the journal's.

The Slingshot 2 keeps a winning-number log in flash (SS2 developers' guide v2.07, 2.7): `*s t`
gives the pages used, `*s r <page>` one page of 256 bytes, each a winning number (0-37, 0x21-0x46)
or a misfire (38-75, 0x47-0x6C) plus 0x21, `~` for an unused byte, then the modulo-256 sum of the
data bytes as two hex digits; `*W` the games played and each pocket's count (states 5 and 6 only).
Decision: the guide does not number the pages; they are read from 0, oldest first. The Mercury 360
documents no result-log reply format, so its record is the wheel's own lines as exported (a
capture of its serial output), decoded with its protocol's decoder.

`compare` lines up the journal's results with the wheel's, in order (and by the wheel's game
counter where both have it), and names every difference: a result the wheel has another number
for, a result the journal has and the wheel does not, and the other way round.
"""
from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

PAGE_BYTES = 256
FIRST, MISFIRE, UNUSED = 0x21, 38, ord("~")
POCKET_CODES = 38  # 0-36 and 37 (the guide's 0-37: a double zero, never on this table's wheels)


@dataclass(frozen=True)
class Logged:
    """One byte of the wheel's log: a winning number, or where a misfired ball landed."""

    number: int
    misfire: bool = False


class LogError(ValueError):
    """A reply that is not a log page: the message says why."""


def encode_page(entries: Sequence[Logged]) -> bytes:
    """A page as the wheel sends it after `*s r <page> `: 256 data bytes and the checksum."""
    if len(entries) > PAGE_BYTES:
        raise ValueError(f"a page holds {PAGE_BYTES} entries, not {len(entries)}")
    data = bytes(FIRST + entry.number + (MISFIRE if entry.misfire else 0) for entry in entries)
    data += bytes([UNUSED]) * (PAGE_BYTES - len(data))
    return data + f" {sum(data) % 256:02X}".encode("ascii")


def decode_page(reply: str, page: int) -> list[Logged]:
    """The entries of a `*s r <page> <data> <checksum>` reply; LogError if it is not that page,
    is cut short or its checksum is wrong."""
    prefix = f"*s r {page} "
    if not reply.startswith(prefix):
        raise LogError(f"not the reply to '*s r {page}': {reply[:20]!r}")
    body = reply[len(prefix):]
    data, checksum = body[:PAGE_BYTES], body[PAGE_BYTES:].strip()
    if len(data) != PAGE_BYTES or len(checksum) != 2:
        raise LogError(f"page {page}: {len(data)} data bytes and checksum {checksum!r} (256 and two hex digits)")
    raw = data.encode("latin-1")
    if f"{sum(raw) % 256:02X}" != checksum.upper():
        raise LogError(f"page {page}: checksum {checksum} does not match its data ({sum(raw) % 256:02X})")
    entries = []
    for offset, byte in enumerate(raw):
        if byte == UNUSED:
            continue
        code = byte - FIRST
        if not 0 <= code < 2 * MISFIRE:
            raise LogError(f"page {page}, byte {offset}: {byte:#04x} is neither a number nor a misfire")
        entries.append(Logged(code % MISFIRE, code >= MISFIRE))
    return entries


@dataclass(frozen=True)
class JournalResult:
    """A counted result as the journal holds it: the number that stands, and what it was recorded as."""

    spin: int
    number: int
    recorded: int  # as recorded, before any correction
    source: str
    wheel_game: int | None
    time: str


@dataclass(frozen=True)
class WheelRecord:
    """One result as the wheel itself keeps it: `game` and `time` where its record has them."""

    number: int
    game: int | None = None
    time: str | None = None


@dataclass(frozen=True)
class Difference:
    """`kind`: "number" (both have the game, with other numbers), "journal-only", "wheel-only"."""

    kind: str
    journal: JournalResult | None
    wheel: WheelRecord | None
    position: int | None  # the wheel record's place in its log, from 1


def compare(journal: Sequence[JournalResult], wheel: Sequence[WheelRecord]) -> list[Difference]:
    """Every difference between the two records, in order. The wheel's records before the
    journal's first result and after its last are outside the journal's time and not listed."""
    by_game = all(r.wheel_game is not None for r in journal) and all(w.game is not None for w in wheel)
    left = [(r.wheel_game, r.number) if by_game else r.number for r in journal]
    right = [(w.game, w.number) if by_game else w.number for w in wheel]
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    if not blocks:
        return [Difference("journal-only", r, None, None) for r in journal]
    first_wheel, last_wheel = blocks[0].b - blocks[0].a, blocks[-1].b + blocks[-1].size + (
        len(journal) - blocks[-1].a - blocks[-1].size)
    found: list[Difference] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = min(a1 - a0, b1 - b0) if tag == "replace" else 0
        # Before the first match the records that differ lie next to it: paired from the end; elsewhere
        # from the start, after the match before them.
        skip_a, skip_b = (a1 - a0 - pairs, b1 - b0 - pairs) if a0 == 0 and b0 == 0 else (0, 0)
        for i in range(pairs):
            found.append(Difference("number", journal[a0 + skip_a + i], wheel[b0 + skip_b + i], b0 + skip_b + i + 1))
        paired_a, paired_b = range(a0 + skip_a, a0 + skip_a + pairs), range(b0 + skip_b, b0 + skip_b + pairs)
        found += [Difference("journal-only", journal[i], None, None) for i in range(a0, a1) if i not in paired_a]
        found += [Difference("wheel-only", None, wheel[i], i + 1) for i in range(b0, b1)
                  if i not in paired_b and first_wheel <= i < last_wheel]
    return found
