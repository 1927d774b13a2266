"""The simulated wheel: realistic cadence, faults that end in the right voids, usable as a library."""
import random
import re
import statistics

import pytest
from wheel_capture_scan import captures_dir, receive_lines
from wheel_play import play

from croupier.rules.spin import VoidReason
from croupier.wheel.events import BallPosition, WheelFault, WheelResult, WheelVoid
from croupier.wheel.games import FAULTS, SimulatedWheel
from croupier.wheel.link import WheelLink
from croupier.wheel.protocols import make_decoder
from croupier.wheel.simulator import WheelSimulator

# The void each fault must end in (issue 4: "Voids from the sensor"); the M360 basic protocol and the
# plain line carry no flags, so no fault of theirs can be seen.
EXPECTED_VOID = {
    "same-direction": VoidReason.SAME_DIRECTION,
    "ball-removed": VoidReason.BALL_LEFT_WHEEL,
    "sensor-fault": VoidReason.SENSOR_FAULT,
    "weak-spin": VoidReason.TOO_FEW_REVOLUTIONS,
    "garbage": None,
}
FLAGGED = ("cammegh-ss2", "cammegh-m360-advanced", "cammegh-m360-extended")
UNFLAGGED = ("cammegh-m360-basic", "line")


@pytest.mark.parametrize("protocol", FLAGGED)
@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_ends_in_its_void_and_the_game_still_gives_its_number(protocol, fault):
    games, events = play(protocol, [None, fault, None])
    voids = [e for e in events if isinstance(e, WheelVoid)]
    expected = EXPECTED_VOID[fault]
    assert [v.reason for v in voids] == ([] if expected is None else [expected])
    if voids:
        assert voids[0].game == games[1].game
    results = [e for e in events if isinstance(e, WheelResult)]
    assert [(r.number, r.game) for r in results] == [(g.number, g.game) for g in games]


@pytest.mark.parametrize("protocol", UNFLAGGED)
@pytest.mark.parametrize("fault", FAULTS)
def test_protocols_without_flags_show_no_void_and_every_number(protocol, fault):
    games, events = play(protocol, [None, fault, None])
    assert not [e for e in events if isinstance(e, WheelVoid)]
    assert [e.number for e in events if isinstance(e, WheelResult)] == [g.number for g in games]


@pytest.mark.parametrize("protocol", PROTOCOLS := FLAGGED + UNFLAGGED)
def test_garbage_is_seen_as_faults(protocol):
    _, events = play(protocol, ["garbage"])
    assert [e for e in events if isinstance(e, WheelFault)]


def test_mercury_re_spin_puts_the_ball_back_in_the_previous_pocket():
    games, events = play("cammegh-m360-extended", [None, "same-direction"], numbers=[23, 8])
    [position] = [e for e in events if isinstance(e, BallPosition)]
    assert (position.pocket, position.in_previous_pocket) == (23, True)


def test_rotor_direction_alternates_from_game_to_game():
    for protocol in FLAGGED:
        games, events = play(protocol, [None] * 4)
        directions = [e.direction for e in events if isinstance(e, WheelResult)]
        assert directions == [g.direction for g in games]
        assert all(a is not b for a, b in zip(directions, directions[1:]))  # PT-A 21


def test_same_seed_same_games_and_forced_numbers():
    first = [g.number for g in play("cammegh-ss2", [None] * 5, seed=9)[0]]
    assert first == [g.number for g in play("cammegh-ss2", [None] * 5, seed=9)[0]]
    assert [g.number for g in play("cammegh-ss2", [None] * 3, numbers=[0, 36, 7])[0]] == [0, 36, 7]


def state_durations(lines):
    """(state, seconds from its first status line to the next state's first line) per run."""
    runs, current, since = [], None, None
    for time, text in lines:
        m = re.fullmatch(r"\*X;(\d);(\d{3});.*", text)
        if not m:
            continue
        key = (m.group(1), m.group(2))
        if key != current:
            if current is not None and time - since < 120:  # a gap in a log is not a state
                runs.append((current[0], time - since))
            current, since = key, time
    return runs


def medians(runs):
    return {s: statistics.median(d for k, d in runs if k == s) for s in "2345"}


def test_ss2_state_durations_are_those_of_the_production_capture():
    from datetime import datetime

    capture = captures_dir() / "ss2-production-185-games.log"
    real = [
        (datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f").timestamp(), text)
        for stamp, text in receive_lines(capture)
    ]
    wheel, time, simulated = SimulatedWheel("cammegh-ss2", random.Random(2)), 0.0, []
    for _ in range(40):
        for emission in wheel.play().emissions:
            time += emission.delay
            simulated.append((time, emission.data.decode().strip()))
    real_medians, sim_medians = medians(state_durations(real)), medians(state_durations(simulated))
    for state in "2345":
        assert sim_medians[state] == pytest.approx(real_medians[state], rel=0.3), state


def test_status_lines_every_500_ms():
    game = SimulatedWheel("cammegh-ss2", random.Random(1)).play()
    status_delays = {e.delay for e in game.emissions if e.data.startswith(b"*X;")}
    # Only the first state-5 line comes sooner: the number line took part of its 500 ms.
    assert max(status_delays) == 0.5 and len(status_delays - {0.5}) == 1


def test_bad_simulator_options_are_refused():
    with pytest.raises(ValueError, match="unknown fault"):
        WheelSimulator("cammegh-ss2", faults=["tilt"])
    with pytest.raises(ValueError, match="speed"):
        WheelSimulator("cammegh-ss2", speed=0)
    with pytest.raises(ValueError, match="not a pocket"):
        WheelSimulator("cammegh-ss2").force_next_result(37)


# -- on a pseudo-terminal, through the serial link ------------------------------------------------


def run_through_link(sim, protocol, games, timeout):
    events = []
    device = sim.start()
    # No silence limit: at 20-40 times speed a scheduling hiccup would look like a silent wheel.
    link = WheelLink(device, make_decoder(protocol), on_event=events.append, clock=sim.clock, silence_timeout=None)
    link.start()
    try:
        assert sim.wait_for_games(games, timeout)
        time_end = sim.clock() + 2.0  # let the link read the last lines
        while sim.clock() < time_end and len([e for e in events if isinstance(e, WheelResult)]) < games:
            sim.wait_for_games(games + 1, 0.05)
    finally:
        link.stop()
        sim.stop()
    return events


def test_simulator_faults_on_a_pty_end_in_the_right_voids():
    sim = WheelSimulator("cammegh-ss2", faults=["ball-removed", "weak-spin"], fault_every=1, speed=20, seed=4, games=2)
    events = run_through_link(sim, "cammegh-ss2", 2, timeout=30)
    assert [v.reason for v in events if isinstance(v, WheelVoid)] == [VoidReason.BALL_LEFT_WHEEL, VoidReason.TOO_FEW_REVOLUTIONS]
    assert [(r.number, r.game) for r in events if isinstance(r, WheelResult)] == [(g.number, g.game) for g in sim.played]


def test_simulator_forced_result_and_garbage_on_a_pty():
    sim = WheelSimulator("cammegh-m360-extended", faults=["garbage"], fault_every=1, speed=40, seed=1, games=2)
    sim.force_next_result(17)
    events = run_through_link(sim, "cammegh-m360-extended", 2, timeout=30)
    assert [r.number for r in events if isinstance(r, WheelResult)][0] == 17
    assert [r.number for r in events if isinstance(r, WheelResult)] == [g.number for g in sim.played]
    assert [e for e in events if isinstance(e, WheelFault)]


def test_simulator_unplug_and_replug_behind_its_link_path(tmp_path):
    path = tmp_path / "croupier-wheel"
    sim = WheelSimulator("cammegh-ss2", speed=40, seed=3, link_path=path)
    events = []
    assert sim.start() == str(path) and path.is_symlink()
    link = WheelLink(str(path), make_decoder("cammegh-ss2"), on_event=events.append, clock=sim.clock,
                     retry_delays=(0.05,), silence_timeout=None)
    link.start()
    try:
        assert sim.wait_for_games(1, 20)
        sim.unplug()
        assert not path.exists()
        sim.wait_for_games(2, 20)  # the wheel plays on while nobody listens
        sim.replug()
        assert sim.wait_for_games(4, 30)
    finally:
        link.stop()
        sim.stop()
    links = [e.online for e in events if type(e).__name__ == "LinkStatus"]
    assert links[:3] == [True, False, True]
    results = [(r.game, r.number) for r in events if isinstance(r, WheelResult)]
    assert len(results) == len(set(results))  # nothing twice
    played = [(g.game, g.number) for g in sim.played]
    assert results[0] == played[0] and results[-1] == played[3]


def test_simulator_plays_on_after_a_line_split_right_after_its_state_field():
    """Noise may split `*X;5;...` after `*X;`: the simulator reads the state from whole fields only
    (it stopped the demo's wheel after about 45 games with an IndexError)."""
    wheel = SimulatedWheel("cammegh-ss2", random.Random(37))
    list(wheel.opening())
    assert b"*X;" in [e.data for e in wheel.play(None, "garbage").emissions]  # seed 37's first game has that split
    sim = WheelSimulator("cammegh-ss2", faults=["garbage"], fault_every=1, speed=50, seed=37, games=2)
    with sim:
        assert sim.wait_for_games(2, 60)
