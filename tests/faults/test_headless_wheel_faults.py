"""The wheel's side of the fault suite: a pseudo-terminal wheel drives a real `croupier run
--headless`, and the journal it leaves is read plainly. Whatever the line does (noise, corrupted
number lines, floods, a stop or a kill mid-game), no wrong number is counted without an alarm,
memory stays bounded, and nothing decoded is lost."""
from __future__ import annotations

import random
import signal
import time

import pytest
from headless_wheel import HeadlessTable, game, ss2

@pytest.fixture
def table(tmp_path):
    running = HeadlessTable(tmp_path)
    yield running
    running.close()


def play(table, results, first_spin=1, faults=None):
    """One game per result; `faults` maps a spin to how its number lines go wrong."""
    last = None
    for spin, result in enumerate(results, first_spin):
        table.write(game(spin, last, result, **(faults or {}).get(spin, {})))
        last = result


def test_sigterm_records_every_result_already_read(table):
    table.start()
    results = [random.Random(spin).randrange(37) for spin in range(200)]
    play(table, results)
    table.wait_read()  # every byte is in the runner: decoded, maybe not yet recorded
    assert table.stop() == 0
    assert table.results() == list(zip(range(1, 201), results))
    assert "wheel events read before the stop were recorded" in table.log_text()


def test_a_killed_runner_restarted_records_every_game_once(table):
    table.start()
    play(table, [5, 17, 32])
    table.wait_for_log("recorded result-recorded", count=3)
    table.stop(signal.SIGKILL)
    table.start()
    table.write(game(3, 17, 32)[-len(ss2(5, 3, 32)) * 2:])  # the wheel still shows game 3 in state 5
    play(table, [8, 0], first_spin=4)
    table.wait_read()
    assert table.stop() == 0
    assert table.results() == [(1, 5), (2, 17), (3, 32), (4, 8), (5, 0)]


def test_corrupted_number_lines_count_nothing_wrong_and_raise_the_disagreement(table):
    table.start()
    # game 2: the number line says 28, state 5 says 17; game 3: a stray 23 with the ball in the rim;
    # game 4: the number line was lost.
    play(table, [4, 17, 9, 30, 11], faults={2: {"number_line": 28}, 3: {"stray": 23}, 4: {"number_line": None}})
    table.wait_read()
    assert table.stop() == 0
    assert table.results() == [(1, 4), (3, 9), (4, 30), (5, 11)]
    # Nobody at a headless table types the number: spin 2 stays uncounted, and says so twice.
    both, uncounted = table.rows("alarm-raised")
    assert both["alarm_kind"] == "wheel-fault" and "28" in both["detail"] and "17" in both["detail"]
    assert uncounted["subject"] == both["subject"] == "spin 2" and "no result was recorded" in uncounted["detail"]


def test_status_lines_only_with_damaged_first_state_5_lines_count_nothing_wrong(table):
    # A Slingshot sending status lines only, the first state-5 line of every game damaged into
    # another pocket: no game is counted on one line, each raises the two numbers it saw.
    table.start()
    results = [4, 17, 9, 30, 11]
    play(table, results, faults={spin: {"number_line": None, "first_five": (result + 5) % 37}
                                 for spin, result in enumerate(results, 1)})
    table.write(game(6, 11, 22))  # a whole game after them counts
    table.wait_read()
    assert table.stop() == 0
    assert table.results() == [(6, 22)]
    differ = [row for row in table.rows("alarm-raised") if "two numbers" in row["detail"]]
    assert [row["alarm_kind"] for row in differ] == ["wheel-fault"] * 5
    assert [f"(game {game}): {(result + 5) % 37} then {result} on its state-5 lines" in row["detail"]
            for row, (game, result) in zip(differ, enumerate(results, 1))] == [True] * 5


def test_random_bytes_raise_the_wheel_alarm_and_the_games_after_them_count(table):
    table.start()
    rng = random.Random(3)
    deadline = time.monotonic() + 4.5  # past the 3 s a status wheel may be unheard
    while time.monotonic() < deadline:
        table.write(bytes(rng.randrange(256) for _ in range(96)))  # a wrong baud rate
        time.sleep(0.01)
    table.wait_for_log("wheel link down")
    play(table, [12, 0])
    table.wait_read()
    assert table.stop() == 0
    assert table.results() == [(1, 12), (2, 0)]
    [alarm] = table.rows("alarm-raised")
    assert alarm["alarm_kind"] == "wheel-fault" and "only noise" in alarm["detail"]


def test_a_flood_of_malformed_lines_keeps_memory_and_log_flat(table):
    table.start()
    flood = b"*X;9;garbage;line\r\n" * 400 + ss2(2, 1, None)
    table.write(flood * 20)
    table.wait_read()
    before, log_before = table.rss_kib(), len(table.log_text())
    for _ in range(15):  # about 4 MB of malformed lines
        table.write(flood * 25)
    table.wait_read()
    play(table, [21])
    table.wait_read()
    grown, logged = table.rss_kib() - before, len(table.log_text()) - log_before
    assert table.stop() == 0
    assert table.results() == [(1, 21)]
    assert grown < 8 * 1024, f"memory grew {grown} KiB"
    assert logged < 20_000, f"the log grew {logged} bytes"


@pytest.mark.parametrize("seed", [11, 12])
def test_a_line_corrupted_at_random_never_counts_a_wrong_number_without_an_alarm(table, seed):
    rng = random.Random(seed)
    table.start()
    truth, faults, stream = {}, {}, b""
    for spin in range(1, 31):
        truth[spin] = rng.randrange(37)
        fault = rng.choice(["none", "none", "wrong", "lost", "stray", "noise"])
        options = {"wrong": {"number_line": (truth[spin] + rng.randrange(1, 37)) % 37},
                   "lost": {"number_line": None}, "stray": {"stray": rng.randrange(37)}}.get(fault, {})
        faults[spin] = fault
        one = game(spin, truth.get(spin - 1), truth[spin], **options)
        if fault == "noise":
            cut = one.index(b"\r\n", rng.randrange(len(one) - 2)) + 2
            one = one[:cut] + bytes(rng.randrange(0x80, 0x100) for _ in range(20)) + b"\r\n" + one[cut:]
        stream += one
    while stream:  # split anywhere, as a USB adapter delivers it
        size = rng.randint(1, 300)
        table.write(stream[:size])
        stream = stream[size:]
    table.wait_read()
    assert table.stop() == 0
    counted = dict(table.results())
    for spin, number in counted.items():
        assert number == truth[spin], f"game {spin} ({faults[spin]}): counted {number}, the ball was in {truth[spin]}"
    wrong = [spin for spin, fault in faults.items() if fault == "wrong"]
    assert sorted(counted) == [spin for spin in faults if spin not in wrong]
    # Each game whose two numbers differed is uncounted, with an alarm showing both.
    both = [alarm["detail"] for alarm in table.rows("alarm-raised") if "two numbers" in alarm["detail"]]
    assert [int(detail.split("(game ")[1].split(")")[0]) for detail in both] == wrong, both
