"""A sped-up simulator still shows the faults the decoder times, to a reader on its own clock.

The SS2 guide (section 4.1) times two conditions: flag 1 is a void only after more than 5 s of
state 4, flag 8 only once it lasts 3 s into state 3. A reader in another process (`croupier run`
reading `croupier wheel-sim`) cannot use the simulator's clock, so those lines must keep the
wheel's real pace whatever the speed.
"""
import random
import re
import subprocess
import sys

from croupier.rules.spin import Direction, VoidReason
from croupier.wheel.events import WheelFault, WheelResult, WheelVoid
from croupier.wheel.games import SimulatedWheel
from croupier.wheel.link import WheelLink
from croupier.wheel.protocols import make_decoder

BALL_REMOVED_S = 5.0  # guide 4.1: flag 1 ignored for 5 s of state 4
LAUNCH_GRACE_S = 3.0  # guide 4.1: flag 8 ignored for the first 3 s of state 3
STATUS = re.compile(rb"\*X;(\d);\d{3};..;([0-9A-F]);\d{3};[01]\r\n")


def fault_game(fault, seed=3):
    wheel = SimulatedWheel("cammegh-ss2", random.Random(seed))
    wheel.play()
    return wheel.play(fault=fault)


def held(game, state, flag):
    """The emissions of the status lines in `state` showing `flag`, in order."""
    return [e for e in game.emissions if (m := STATUS.fullmatch(e.data)) and int(m.group(1)) == state
            and int(m.group(2), 16) & flag]


def test_ball_removed_keeps_flag_1_in_real_time_past_the_5_seconds():
    game = fault_game("ball-removed")
    lines = held(game, 4, 0x1)
    assert lines and all(e.realtime for e in lines)
    # From the first flag-1 line to the last, at the wheel's own pace.
    assert sum(e.delay for e in lines[1:]) > BALL_REMOVED_S
    assert [e for e in game.emissions if e.realtime] == lines  # nothing else is slowed down


def test_weak_spin_keeps_flag_8_in_real_time_past_3_seconds_of_state_3():
    game = fault_game("weak-spin")
    lines = held(game, 3, 0x8)
    assert lines and all(e.realtime for e in lines)
    first_rim = next(i for i, e in enumerate(game.emissions) if (m := STATUS.fullmatch(e.data)) and m.group(1) == b"3")
    assert game.emissions[first_rim] is lines[0]  # flag 8 from the ball's first line in the rim
    assert sum(e.delay for e in lines[1:]) >= LAUNCH_GRACE_S + 0.5  # a line to spare


def test_the_uneventful_phases_are_still_compressed():
    game = fault_game("ball-removed")
    at_speed_1 = sum(e.delay for e in game.emissions)
    at_speed_10 = sum(e.delay if e.realtime else e.delay / 10 for e in game.emissions)
    assert at_speed_10 < at_speed_1 / 4


def test_at_speed_10_a_reader_on_its_own_clock_in_another_process_sees_each_void(tmp_path):
    path = tmp_path / "wheel"
    sim = subprocess.Popen(
        [sys.executable, "-m", "croupier", "wheel-sim", "--protocol", "cammegh-ss2", "--speed", "10",
         "--faults", "ball-removed,weak-spin", "--fault-every", "1", "--games", "2", "--seed", "4",
         "--link", str(path)],
        stdout=subprocess.PIPE, text=True,
    )
    events = []
    link = None
    try:
        assert sim.stdout.readline().strip() == str(path)
        # The link's own clock (time.monotonic) and its default silence limit, as `croupier run` has.
        link = WheelLink(str(path), make_decoder("cammegh-ss2"), on_event=events.append, retry_delays=(0.05,))
        link.start()
        out, _ = sim.communicate(timeout=90)
    finally:
        if link is not None:
            link.stop()
        if sim.poll() is None:
            sim.kill()
    played = [re.fullmatch(r"game (\d+): (\d+) \((\w+)\)  fault: ([\w-]+)", line).groups() for line in out.splitlines()]
    assert [fault for *_, fault in played] == ["ball-removed", "weak-spin"]
    voids = [(v.reason, v.game) for v in events if isinstance(v, WheelVoid)]
    assert voids == [(VoidReason.BALL_LEFT_WHEEL, 1), (VoidReason.TOO_FEW_REVOLUTIONS, 2)]
    results = [(r.game, r.number, r.direction) for r in events if isinstance(r, WheelResult)]
    assert results == [(int(g), int(n), Direction(d)) for g, n, d, _ in played]
    assert not [e for e in events if isinstance(e, WheelFault)]
