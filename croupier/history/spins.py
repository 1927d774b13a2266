"""Counted spins from the journal's events, with the number that stands after a correction: for
the statistics (`counted_spins`) and for the report's list of spins (`SpinList`, in columns, for a
year of spins). A corrected result counts with its corrected number (`ResultCorrected` holds both
values); a void spin is never a `ResultRecorded`.
"""
from __future__ import annotations

import json
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta, timezone

from croupier.history.projection import Projection, reads
from croupier.stats.spins import CountedSpin, SpinColumns, direction_name
from croupier.table.events import Event, ResultCorrected, ResultRecorded

EPOCH, MICROSECOND = datetime(1970, 1, 1, tzinfo=timezone.utc), timedelta(microseconds=1)


class CountedSpins(Projection):
    """The counted results in journal order, each with the number that stands."""

    def __init__(self, wheel: str | None = None) -> None:
        self.wheel = wheel
        self.spins: list[CountedSpin] = []
        self._index_of_spin: dict[int, int] = {}

    @reads(ResultRecorded)
    def _recorded(self, seq: int, e: ResultRecorded) -> None:
        self._index_of_spin[e.spin] = len(self.spins)
        direction = e.direction.value if e.direction is not None else None
        self.spins.append(CountedSpin(e.number, e.croupier, direction, self.wheel, e.time))

    @reads(ResultCorrected)
    def _corrected(self, seq: int, e: ResultCorrected) -> None:
        index = self._index_of_spin.get(e.spin)
        if index is None:
            raise ValueError(f"event {seq}: corrects spin {e.spin}, which has no recorded result")
        old = self.spins[index]
        self.spins[index] = CountedSpin(e.number, old.croupier, old.direction, old.wheel, old.time)


SPIN_EVENTS = CountedSpins.EVENTS


def counted_spins(events: Iterable[tuple[int, Event]], wheel: str | None = None) -> list[CountedSpin]:
    """The counted results, in journal order, from (seq, event) pairs (events of other classes are
    passed over)."""
    fold = CountedSpins(wheel)
    fold.add_all(events)
    return fold.spins


class SpinList(Projection, Sequence):
    """The counted spins, kept in columns of machine numbers (a year is half a million of them, on
    a Pi with little memory: about 32 bytes a spin); each reads as a dict with SpinList.FIELDS, and
    "corrected_from" when corrected."""

    FIELDS = ("spin", "number", "source", "time", "ball", "croupier", "direction", "wheel_game", "event")

    def __init__(self) -> None:
        self._spin, self._seq, self._game = array("i"), array("q"), array("i")  # widened if ever needed
        self._number = bytearray()
        self._times = array("q")  # microseconds since the epoch
        self._words = {"source": array("H"), "ball": array("H"), "croupier": array("H"), "direction": array("H")}
        self._names: list[str | None] = []  # the few names the word columns point into
        self._code: dict[str | None, int] = {}
        self._corrected_from: dict[int, int] = {}
        # each spin's (croupier, direction) group, kept as spins come: the statistics take it as it is
        self._groups = array("I")
        self._group_of: dict[tuple[int, int], int] = {}

    def _word(self, name: str | None) -> int:
        code = self._code.get(name)
        if code is None:
            code = self._code[name] = len(self._names)
            self._names.append(name)
        return code

    @reads(ResultRecorded)
    def _recorded(self, seq: int, e: ResultRecorded) -> None:
        try:
            self._spin.append(e.spin)
        except OverflowError:
            self._spin = array("q", self._spin)
            self._spin.append(e.spin)
        self._number.append(e.number)
        self._seq.append(seq)
        game = -1 if e.wheel_game is None else e.wheel_game
        try:
            self._game.append(game)
        except OverflowError:
            self._game = array("q", self._game)
            self._game.append(game)
        self._times.append((e.time - EPOCH) // MICROSECOND)
        codes, words = self._code, self._words
        for name, column in ((e.source.value, words["source"]), (e.ball, words["ball"]),
                             (e.croupier, words["croupier"]),
                             (None if e.direction is None else e.direction.value, words["direction"])):
            code = codes.get(name)  # a year of spins: each code looked up inline
            column.append(self._word(name) if code is None else code)
        pair = (self._words["croupier"][-1], self._words["direction"][-1])
        group = self._group_of.get(pair)
        if group is None:
            group = self._group_of[pair] = len(self._group_of)
        self._groups.append(group)

    @reads(ResultCorrected)
    def _corrected(self, seq: int, e: ResultCorrected) -> None:
        self.correct(e.spin, e.number)

    def _position(self, spin: int) -> int | None:
        at = bisect_left(self._spin, spin)  # spins are numbered in journal order
        if at < len(self._spin) and self._spin[at] == spin:
            return at
        try:
            return self._spin.index(spin)
        except ValueError:
            return None

    def correct(self, spin: int, number: int) -> None:
        at = self._position(spin)
        if at is not None:
            self._corrected_from.setdefault(at, self._number[at])
            self._number[at] = number

    def __len__(self) -> int:
        return len(self._number)

    def columns(self) -> SpinColumns:
        """The spins as the wheel statistics take them in bulk: numbers as they stand after
        corrections, grouped by croupier and direction as they came, without a pass in Python."""
        names = self._names
        keys = [(names[croupier], direction_name(names[direction])) for croupier, direction in self._group_of]
        return SpinColumns(bytes(self._number), array("I", self._groups), keys)

    def json_chunks(self, chunk: int = 10_000) -> Iterator[str]:
        """The spins as JSON objects, comma-separated, `chunk` at a time: what json.dumps writes for
        the entries (compact, not ASCII-escaped), made here without a dict per spin, for a year."""
        dump = json.dumps
        names = [dump(name, ensure_ascii=False).replace("%", "%%") for name in self._names]
        words = self._words
        sources, balls, croupiers, directions = words["source"], words["ball"], words["croupier"], words["direction"]
        spin, number, seq, game, times = self._spin, self._number, self._seq, self._game, self._times
        corrected = self._corrected_from
        # One %-template per (source, ball, croupier, direction): a year's spins take a handful
        templates: dict[tuple[int, int, int, int], str] = {}
        hour, hour_text = None, ""
        for start in range(0, len(self), chunk):
            parts = []
            for at in range(start, min(start + chunk, len(self))):
                key = (sources[at], balls[at], croupiers[at], directions[at])
                template = templates.get(key)
                if template is None:
                    template = templates[key] = (
                        '{"spin":%d,"number":%d,"source":' + names[key[0]] + ',"time":"%s%02d:%02d.%06d+00:00",'
                        '"ball":' + names[key[1]] + ',"croupier":' + names[key[2]] + ',"direction":' + names[key[3]]
                        + ',"wheel_game":%s,"event":%d')
                wheel_game = "null" if game[at] == -1 else game[at]
                # the text of a UTC time as the journal writes it, the hour's part made once an hour
                seconds, micro = divmod(times[at], 1_000_000)
                in_hour, seconds_in_hour = divmod(seconds, 3600)
                if in_hour != hour:
                    hour, hour_text = in_hour, (EPOCH + timedelta(hours=in_hour)).strftime("%Y-%m-%dT%H:")
                minute, second = divmod(seconds_in_hour, 60)
                line = template % (spin[at], number[at], hour_text, minute, second, micro, wheel_game, seq[at])
                parts.append(line + (f',"corrected_from":{corrected[at]}}}' if at in corrected else "}"))
            yield ",".join(parts)

    def __getitem__(self, at):
        if isinstance(at, slice):
            return [self._entry(i) for i in range(*at.indices(len(self)))]
        return self._entry(range(len(self))[at])  # negative indices, and IndexError past the end

    def _entry(self, at: int) -> dict:
        names, words = self._names, self._words
        time = (EPOCH + self._times[at] * MICROSECOND).isoformat(timespec="microseconds")
        entry = {"spin": self._spin[at], "number": self._number[at], "source": names[words["source"][at]],
                 "time": time, "ball": names[words["ball"][at]], "croupier": names[words["croupier"][at]],
                 "direction": names[words["direction"][at]],
                 "wheel_game": None if self._game[at] == -1 else self._game[at], "event": self._seq[at]}
        if at in self._corrected_from:
            entry["corrected_from"] = self._corrected_from[at]
        return entry


def standing_results(results: Iterable[tuple[int, ResultRecorded]], corrections: Iterable[tuple[int, ResultCorrected]]
                     ) -> Iterator[tuple[int, ResultRecorded, ResultCorrected | None]]:
    """Each recorded result with the correction that stands for its spin (the last), or None;
    `corrections` are read first (a year holds few), `results` streamed."""
    standing = {event.spin: event for _, event in corrections}
    for seq, event in results:
        yield seq, event, standing.get(event.spin)


class RecentResults:
    """The last `size` counted results as (spin, the number that stands), oldest first: a
    correction replaces its spin's number, if that spin is still among them."""

    def __init__(self, size: int | None = None, results: Iterable[tuple[int, int]] = ()) -> None:
        self.size = size
        self._numbers: dict[int, int] = {}
        for spin, number in results:
            self.record(spin, number)

    def record(self, spin: int, number: int) -> None:
        self._numbers.pop(spin, None)
        self._numbers[spin] = number
        if self.size is not None and len(self._numbers) > self.size:
            del self._numbers[next(iter(self._numbers))]

    def correct(self, spin: int, number: int) -> None:
        if spin in self._numbers:
            self._numbers[spin] = number

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._numbers.items())

    def __len__(self) -> int:
        return len(self._numbers)
