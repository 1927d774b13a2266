"""The report's list of spins keeps half a million spins in little memory (times as numbers, spin
and game numbers in four bytes): every spin still reads back exactly as the journal recorded it."""
import json
from dataclasses import replace
from datetime import datetime

from croupier.history.spins import SpinList
from croupier.rules.spin import Direction
from croupier.table.events import ResultCorrected, ResultRecorded, Source, to_record


def spin_record(spin: int, time: str, wheel_game: int | None = None) -> ResultRecorded:
    return ResultRecorded(spin=spin, number=17, time=datetime.fromisoformat(time), wheel_game=wheel_game,
                          source=Source.SENSOR, ball="A", croupier="Ана Петрова", direction=Direction.CLOCKWISE)


def test_every_time_reads_back_as_the_journal_wrote_it():
    times = ["2025-01-06T14:01:00.000000+00:00", "2025-01-06T14:01:00.123456+00:00",
             "1969-12-31T23:59:59.999999+00:00",  # before the epoch
             "2025-01-06T14:01:00+00:00",  # without microseconds
             "2025-01-06T15:01:00.000000+01:00"]  # another offset
    spins = SpinList()
    for seq, time in enumerate(times, 1):
        spins.add(seq, spin_record(seq, time))
    assert [entry["time"] for entry in spins] == [to_record(spin_record(1, time))["time"] for time in times]
    assert spins[0]["croupier"] == "Ана Петрова" and spins[-1]["event"] == len(times)


def test_spin_and_game_numbers_beyond_four_bytes_are_kept():
    spins = SpinList()
    spins.add(1, spin_record(1, "2025-01-06T14:01:00.000000+00:00", wheel_game=None))
    spins.add(2, spin_record(2**40, "2025-01-06T14:02:00.000000+00:00", wheel_game=7))
    spins.add(3, spin_record(2**40 + 1, "2025-01-06T14:03:00.000000+00:00", wheel_game=2**35))
    assert [(e["spin"], e["wheel_game"]) for e in spins] == [(1, None), (2**40, 7), (2**40 + 1, 2**35)]
    spins.add(4, ResultCorrected(spin=2**40, previous=17, number=4, reason="misread", by="boss"))
    assert spins[1]["number"] == 4 and spins[1]["corrected_from"] == 17


def test_the_report_writes_each_spin_as_json_would():
    spins = SpinList()
    spins.add(10, spin_record(1, "2025-01-06T14:01:00.000000+00:00"))
    spins.add(11, replace(spin_record(2, "2025-01-06T14:01:00+00:00", wheel_game=5), croupier='O "Tio" \\ Zé 100%s%%',
                          ball="%s"))
    spins.add(12, spin_record(3, "2025-01-06T15:01:00.000000+01:00", wheel_game=2**35))
    spins.add(13, spin_record(4, "1969-12-31T23:59:59.999999+00:00"))
    spins.correct(3, 5)
    written = "[" + ",".join(spins.json_chunks(2)) + "]"
    assert json.loads(written) == list(spins)
    assert written == json.dumps(list(spins), ensure_ascii=False, separators=(",", ":"))


def test_the_statistics_of_the_columns_are_those_of_the_spins_one_by_one():
    # The report summarises its spins from their columns (corrected numbers, croupier and direction
    # groups counted in bulk): exactly what the summary of the same spins, one object each, says.
    import random

    from croupier.stats import CountedSpin, summary

    rng = random.Random(7)
    spins = SpinList()
    for spin in range(1, 3001):
        spins.add(spin, replace(spin_record(spin, "2025-01-06T14:01:00.000000+00:00"), number=rng.randrange(37),
                                croupier=rng.choice(["Ana", "Rui", "Zé"]),
                                direction=rng.choice([Direction.CLOCKWISE, Direction.ANTICLOCKWISE, None])))
    for spin in rng.sample(range(1, 3001), 40):
        spins.correct(spin, rng.randrange(37))
    one_by_one = [CountedSpin(entry["number"], entry["croupier"], entry["direction"]) for entry in spins]
    for numbering in ("french", "american"):
        assert summary(spins.columns(), numbering) == summary(one_by_one, numbering)
