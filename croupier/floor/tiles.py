"""What the floor view shows, taken from the floor's copy of the journals: each table's stored
summary (croupier.floor.summaries: the table's own fold of the events a tile shows, and its wheel's
continuous watch, croupier.stats), which the ingester writes with the events. The view never folds
a year of events: it starts from 300 small rows, and a refresh reads the summaries of the tables
that moved."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from croupier.floor.status import ingester_word, table_lag
from croupier.floor.store import FloorStore, TableRecord
from croupier.floor.summaries import TileFacts, fold
from croupier.stats.summary import watch_section

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
    currency: str | None = None  # the table's journal's, in force now


@dataclass(frozen=True)
class FloorPicture:
    tiles: tuple[Tile, ...]
    wheels: dict[str, dict]  # table id -> croupier.stats summary of its wheel's counted spins
    ingester_problem: str | None = None  # the ingester stalled, or not storing: why


class FloorProjection:
    """The floor as the view shows it, from each table's stored summary (croupier.floor.summaries):
    a refresh reads the tables' heads and only the summaries of the tables that moved."""

    def __init__(self, store: FloorStore) -> None:
        self.store = store
        self._facts: dict[str, TileFacts] = {}
        self._wheels: dict[str, tuple[int, dict]] = {}  # per table: the spins its watch words were made for

    def _read(self, records: list[TableRecord]) -> None:
        moved = [r.table_id for r in records
                 if r.table_id not in self._facts or self._facts[r.table_id].seq != r.head_seq]
        for table_id, (seq, tile) in self.store.tiles(moved if len(moved) < len(records) else None).items():
            self._facts[table_id] = TileFacts.read(seq, tile)
        for record in records:  # a store from before the summaries: the table's events folded here, once
            if record.table_id not in self._facts:
                summary = fold([(link.seq, link.kind, link.body) for link in self.store.links(record.table_id)])
                self._facts[record.table_id] = TileFacts.read(summary.seq, summary.tile_text())

    def picture(self, now: datetime | None = None) -> FloorPicture:
        now = now or self.store.now()
        word = ingester_word(self.store.ingester(), now)
        records = self.store.tables()
        self._read(records)
        tiles, wheels = [], {}
        for record in records:
            lag = table_lag(record, now, word)
            facts = self._facts[record.table_id]
            wheel = self._wheels.get(record.table_id)
            if wheel is None or wheel[0] != facts.spins:  # the watch's words again only after a new spin
                wheel = self._wheels[record.table_id] = (facts.spins, {
                    "spins": facts.watch.spins, "watch": watch_section(facts.watch.charts())})
            wheels[record.table_id] = wheel[1]
            heard = datetime.fromisoformat(record.last_heard) if record.last_heard else None
            online = heard is not None and (now - heard).total_seconds() <= ONLINE_S
            tiles.append(Tile(
                table_id=record.table_id,
                open=facts.open,
                profile=facts.profile,
                minimum=facts.minimum,
                currency=facts.currency,
                croupier=facts.croupier,
                relief_in_min=facts.relief_in_min(now),
                last_numbers=facts.last_numbers(LAST_NUMBERS),
                games_per_hour=facts.games_since(now - timedelta(hours=1)),
                online=online,
                offline_for_s=None if online or heard is None else (now - heard).total_seconds(),
                broken_at=record.broken_at,
                last_seq=record.head_seq,
                behind=lag.behind,
                behind_for_s=lag.lag_s,
            ))
        return FloorPicture(tuple(tiles), wheels, word.problem)
