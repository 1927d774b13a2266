"""A journal with a real shift in it, written through the session with a fake clock."""
from __future__ import annotations

from contextlib import contextmanager
from decimal import Decimal
import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from croupier import session as session_module
from croupier.journal import witness as witness_module
from croupier.rules.spin import Direction, VoidReason
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Ball, Role, Stake

BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))
NUMBERS = (17, 0, 32, 5, 26, 11, 8, 23)


def write_shift(path: Path, clock: FakeClock | None = None, numbers=NUMBERS, **opening) -> TableSession:
    """An attended pt-americana shift: staff, a colour, one void, a spin per number. Left open.
    `opening`: more of the opening's arguments (its currency, time zone)."""
    clock = clock or FakeClock()
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red", "blue"), balls=BALLS, croupier="Ana",
                       pin="1111", **opening)
    session.assign_colour(colour="red", player="seat 1", chip_value=Decimal("5"), chips=200, by="Ana")
    direction = Direction.CLOCKWISE
    for i, number in enumerate(numbers):
        session.place_bets(colour="red", stakes=(Stake(bet="17", chips=1), Stake(bet="red", chips=2)))
        clock.advance(seconds=40)
        session.launch(direction=direction)
        if i == 2:
            session.void_spin(reason=VoidReason.CHIP_FELL)
            direction = direction.opposite()  # PT-A 21: the relaunch alternates with the void launch
            session.launch(direction=direction)
        session.close_bets()
        clock.advance(seconds=20)
        session.enter_result(number=number)
        session.confirm_result()
        session.payouts_done()
        direction = direction.opposite()
    return session


def write_closed_shift_with_raised_minimum(path: Path) -> Path:
    """`write_shift`'s shift, the minimum raised from 5 to 10 at its end by the pit boss, closed."""
    from croupier.table import cycle

    session = write_shift(path)
    session.run(cycle.change_limits, minimum=10, reason="busy night", by="Boss", pin="9000")
    session.close()
    return path


@contextmanager
def snapshots_every(events: int):
    """Sessions opened inside take a signed snapshot every `events` events, not every few hundred."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "SNAPSHOT_EVERY", events)
        yield


def raw(path: Path) -> sqlite3.Connection:
    """A connection without the append-only triggers, as a tamperer's would be."""
    conn = sqlite3.connect(path, isolation_level=None)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    return conn


def stored_head(path: Path) -> tuple[int, str]:
    """The last event's number and hash as the file holds them, read without croupier's code."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        conn.close()


def copy_journal(source: Path, to: Path) -> Path:
    """The journal at `source` with its head witness and the table's keys, as a backup holds them."""
    shutil.copy(source, to)
    shutil.copy(source.with_name(source.name + ".head"), to.with_name(to.name + ".head"))
    for name in ("table.key", "table-signing.key", "table-signing.pub"):
        shutil.copy(source.with_name(name), to.with_name(name))
    return to


def rehash(prev: str, seq: int, time: str, kind: str, body: str) -> str:
    """An event's plain SHA-256 link, recomputed by hand as a tamperer without the key would."""
    return hashlib.sha256(f"{prev}\n{seq}\n{time}\n{kind}\n{body}".encode()).hexdigest()


def recompute_chain(conn: sqlite3.Connection, path, start: int) -> None:
    """What someone with write access but no key does after an edit: recompute every hash from
    event `start` on, drop the snapshots after it, and rewrite the head witness (whose signature
    they cannot make)."""
    (prev,) = conn.execute("SELECT prev_hash FROM events WHERE seq=?", (start,)).fetchone()
    for seq, time, kind, body in conn.execute(
            "SELECT seq, time, kind, body FROM events WHERE seq >= ? ORDER BY seq", (start,)).fetchall():
        digest = rehash(prev, seq, time, kind, body)
        conn.execute("UPDATE events SET prev_hash=?, hash=? WHERE seq=?", (prev, digest, seq))
        prev = digest
    conn.execute("DELETE FROM snapshots WHERE seq >= ?", (start,))  # they would differ from the new fold
    seq, digest = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    forged = witness_module.WitnessWriter(witness_module.witness_path(path), b"not the table's key" * 2)
    forged.record(seq, digest)
    forged.record(seq, digest)
    forged.close()
