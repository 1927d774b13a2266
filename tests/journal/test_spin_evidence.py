"""A sensor spin's evidence: the journal keeps the wheel's lines that decided each game (within the
chain), and the spin page shows the result's time, the wheel's game number, the sensor's reading
and the typed number, who confirmed and corrected and when, and those lines; a timeline row of a
corrected result says so even when the correction is filtered out."""
from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.journal.store import Journal
from croupier.history.spin_story import spin_story
from croupier.history.timeline import parse_filter, timeline
from croupier.sensor_table import SensorTable
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import AlarmKind, Role, Stake
from croupier.wheel.ss2 import Ss2Decoder

from journal_kit import BALLS


def ss2(state: int, spin: int, last: int | None, direction: int) -> bytes:
    pocket = "  " if last is None else f"{last:>2}"
    return f"*X;{state};{spin:03d};{pocket};0;170;{direction}\r\n".encode()


def game(spin: int, last: int | None, result: int) -> list[bytes]:
    """One Slingshot game, a status line every 500 ms: states 2, 3, 4, the number line, state 5."""
    d = spin % 2
    return ([ss2(2, spin, last, d)] * 3 + [ss2(3, spin, last, d)] * 4 + [ss2(4, spin, last, d)] * 6
            + [f"{result:>2}\r\n".encode()] + [ss2(5, spin, result, d)] * 3)


def play(sensor: SensorTable, decoder: Ss2Decoder, lines: list[bytes], start: float) -> float:
    for i, line in enumerate(lines):
        for event in decoder.feed(line, start + i * 0.5):
            sensor.handle(event)
    return start + len(lines) * 0.5


@pytest.fixture
def table(tmp_path):
    clock = FakeClock()
    session = TableSession.open(tmp_path / "j.db", clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
    session.assign_colour(colour="red", player="seat 1", chip_value=Decimal(5), chips=100, by="Ana")
    yield session, clock
    session.close()


def test_the_journal_keeps_the_lines_that_decided_a_sensor_result(table):
    session, _clock = table
    sensor, decoder = SensorTable(session), Ss2Decoder()
    play(sensor, decoder, game(7, 31, 28), 100.0)
    result = next(e.event for e in session.journal.entries() if e.event.kind == "result-recorded")
    assert (result.number, result.wheel_game) == (28, 7)
    # compact: each change of state once, the number line and the state-5 line that agreed with it
    assert result.wheel_lines == ("-6.5 *X;2;007;31;0;170;1", "-5.0 *X;3;007;31;0;170;1",
                                  "-3.0 *X;4;007;31;0;170;1", "+0.0 28", "+0.5 *X;5;007;28;0;170;1")
    with Journal.open(session.journal.path, read_only=True) as reader:  # it reads back from the chain
        assert [e.event for e in reader.entries() if e.event.kind == "result-recorded"] == [result]


def test_a_disputed_spin_shows_typed_and_sensor_numbers_who_corrected_when_and_the_lines(table):
    session, clock = table
    sensor, decoder = SensorTable(session), Ss2Decoder()
    session.place_bets(colour="red", stakes=(Stake(bet="17", chips=1),))
    t = play(sensor, decoder, game(7, 31, 28)[:13], 100.0)  # launched; the ball is in the rim
    session.enter_result(number=17, by="Ana")  # the croupier types 17 before the wheel reports
    session.confirm_result(by="Ana")
    play(sensor, decoder, game(7, 31, 28)[13:], t)  # the wheel reads 28
    alarm = next(a for a in session.state.alarms.values() if a.kind is AlarmKind.RESULT_MISMATCH)
    session.acknowledge_alarm(alarm=alarm.id, by="Ana")
    session.correct_result(spin=1, number=28, reason="the sensor is right: ball in 28", by="Boss", pin="9000")
    entries = list(session.journal.entries())
    page = "\n".join(spin_story(entries, 1).lines())
    for expected in ("result: 28 black", "wheel game 7", "typed at the keypad: 17", "by Ana",
                     "confirmed ", "sensor reading: 28 (alarm", "acknowledged ", "by Ana",
                     "cleared ", "by Boss: the sensor is right: ball in 28",
                     "corrected ", ": 17 -> 28 by Boss: the sensor is right: ball in 28",
                     "the wheel's lines (seconds from the result):", "  +0.0 28", "  +0.5 *X;5;007;28;0;170;1"):
        assert expected in page, (expected, page)
    assert "result recorded " in page
    # The timeline filtered to results alone still says the typed 17 did not stand.
    only_results = parse_filter("kind:result-recorded")
    rows = [row.text for row in timeline(entries) if only_results.matches(row)]
    assert rows == ["spin 1: result 17 black (keypad, confirmed by Ana) - CORRECTED to 28 black by Boss"]
