"""What the floor view shows, taken from the floor's copy of the journals: each table's state is the
table's own fold (croupier.table.state) over its stored events, its wheel statistics those of
croupier.stats over its counted spins. Read incrementally: a refresh reads only the new events."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from croupier.floor.status import ingester_word, table_lag
from croupier.floor.store import Alarm, FloorStore
from croupier.history.spins import SPIN_KINDS, counted_spins
from croupier.stats.summary import summary
from croupier.table.codec import CodecError
from croupier.table.events import Role, decode
from croupier.table.regulation import relief_interval
from croupier.table.state import INITIAL, Phase, TableState, apply

ONLINE_S = 15.0  # a table heard within this long is online (its publisher beats every 5 s)
LAST_NUMBERS = 12


@dataclass(frozen=True)
class Tile:
    table_id: str
    open: bool
    profile: str | None
    minimum: str | None
    croupier: str | None
    relief_in_min: int | None  # minutes to the croupier's relief; negative when overdue
    last_numbers: tuple[int, ...]
    games_per_hour: int
    online: bool
    offline_for_s: float | None  # None when online or never heard
    broken_at: int | None  # the first event whose chain does not check (the table is quarantined); None: intact
    last_seq: int
    behind: int = 0  # events the stream delivered that the store does not hold
    behind_for_s: float | None = 0.0  # how long (None: unknown, the ingester is silent)


@dataclass(frozen=True)
class FloorPicture:
    tiles: tuple[Tile, ...]
    alarms: tuple[Alarm, ...]
    wheels: dict[str, dict]  # table id -> croupier.stats summary of its wheel's counted spins
    ingester_problem: str | None = None  # the ingester stalled, or not storing: why


class FloorProjection:
    def __init__(self, store: FloorStore) -> None:
        self.store = store
        self._states: dict[str, TableState] = {}
        self._seqs: dict[str, int] = {}
        self._spin_records: dict[str, list[tuple[int, dict]]] = {}
        self._problems: dict[str, str] = {}
        self._counted: dict[str, tuple[int, list, dict]] = {}  # per table: spin records seen, counted spins, statistics

    def _read(self, table_id: str, head_seq: int) -> TableState:
        state, seq = self._states.get(table_id, INITIAL), self._seqs.get(table_id, 0)
        records = self._spin_records.setdefault(table_id, [])
        if table_id in self._problems or head_seq <= seq:
            return state
        for link in self.store.links(table_id, after=seq):
            try:
                state = apply(state, decode(link.body))
            except (CodecError, KeyError, ValueError, TypeError) as exc:
                self._problems[table_id] = f"event {link.seq} cannot be folded ({exc})"
                break
            if link.kind in SPIN_KINDS:
                records.append((link.seq, json.loads(link.body)))
            seq = link.seq
        self._states[table_id], self._seqs[table_id] = state, seq
        return state

    def picture(self, now: datetime | None = None) -> FloorPicture:
        now = now or datetime.now(timezone.utc)
        word = ingester_word(self.store.ingester(), now)
        tiles, wheels = [], {}
        for record in self.store.tables():
            lag = table_lag(record, now, word)
            state = self._read(record.table_id, record.head_seq)
            records = self._spin_records[record.table_id]
            counted = self._counted.get(record.table_id)
            if counted is None or counted[0] != len(records):  # the statistics again only for a new spin
                spins = counted_spins(records, wheel=record.table_id)
                counted = self._counted[record.table_id] = (len(records), spins, summary(spins))
            _, spins, wheels[record.table_id] = counted
            heard = datetime.fromisoformat(record.last_heard) if record.last_heard else None
            online = heard is not None and (now - heard).total_seconds() <= ONLINE_S
            croupier = state.staff_on(Role.CROUPIER) if state.phase is not Phase.CLOSED else None
            tiles.append(Tile(
                table_id=record.table_id,
                open=state.phase is not Phase.CLOSED,
                profile=state.profile,
                minimum=None if state.minimum is None else str(state.minimum),
                croupier=croupier,
                relief_in_min=_relief_in(state, now),
                last_numbers=tuple(s.number for s in spins[-LAST_NUMBERS:])[::-1],
                games_per_hour=_games_in_the_last_hour(spins, now),
                online=online,
                offline_for_s=None if online or heard is None else (now - heard).total_seconds(),
                broken_at=record.broken_at,
                last_seq=record.head_seq,
                behind=lag.behind,
                behind_for_s=lag.lag_s,
            ))
        return FloorPicture(tuple(tiles), tuple(self.store.alarms()), wheels, word.problem)


def _games_in_the_last_hour(spins, now: datetime) -> int:
    """Counted from the last spin back (the journal's order): a refresh never walks a year of spins."""
    count = 0
    for spin in reversed(spins):
        if spin.time is None:
            continue
        if now - spin.time > timedelta(hours=1):
            break
        count += 1
    return count


def _relief_in(state: TableState, now: datetime) -> int | None:
    duty = state.on_duty.get(Role.CROUPIER)
    if state.phase is Phase.CLOSED or duty is None or state.profile is None:
        return None
    interval = relief_interval(state, Role.CROUPIER)
    if interval is None:
        return None
    return int((duty.since + interval - now).total_seconds() // 60)
