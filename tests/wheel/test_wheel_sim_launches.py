"""Which way the simulated rotor turns at each launch, void launches and re-spins included.

What the real Slingshot does, from the production capture (../shared/captures): it reverses the
rotor before every firing of the ball, so a failed launch retried by the wheel, or a re-spin after a
void, turns the other way from the launch it replaces, and the counted spin then turns the same way
as the counted spin before it (games 42-43, 51-52, 113-114). After a power cycle it idles clockwise
and its first launch is anticlockwise, whatever came before (games 178 and 179).
"""
import re

import pytest
from wheel_play import play

from croupier.rules.spin import Direction, VoidReason
from croupier.wheel.events import WheelFault, WheelResult, WheelVoid
from croupier.wheel.games import FAULTS

STATUS = re.compile(r"\*X;(\d);\d{3};..;([0-9A-F]);\d{3};([01])(;.*)?")
ROTOR = {"0": Direction.CLOCKWISE, "1": Direction.ANTICLOCKWISE}  # SS2 guide 2.5, M360 guide 4.5.6
FLAGGED = ("cammegh-ss2", "cammegh-m360-advanced", "cammegh-m360-extended")
SPIN_FAULTS = [f for f in FAULTS if f != "garbage"]


def status_lines(emissions):
    for e in emissions:
        if m := STATUS.fullmatch(e.data.decode("ascii").strip()):
            yield int(m.group(1)), int(m.group(2), 16), ROTOR[m.group(3)]


def launches(emissions, previous=None):
    """(rotor direction, after a power-down) of each launch: the first ball-in-rim line after the
    ball was out of the rim, or after a line with warning flags when this one has none (the Mercury
    re-spins in play and its flags go back to 0)."""
    found, powered_down = [], False
    for state, flags, rotor in status_lines(emissions):
        if state == 6:
            powered_down = True
        if state == 3 and (previous is None or previous[0] != 3 or (previous[1] and not flags)):
            found.append((rotor, powered_down))
            powered_down = False
        previous = (state, flags)
    return found


@pytest.mark.parametrize("protocol", FLAGGED)
def test_every_launch_turns_the_other_way_void_launches_included(protocol):
    faults = [None, *SPIN_FAULTS, None, *reversed(SPIN_FAULTS), None]
    games, _ = play(protocol, faults)
    seen = launches(e for g in games for e in g.emissions)
    assert [rotor for rotor, _ in seen] == [d for g in games for d in g.launches]
    for (before, _), (after, powered_down) in zip(seen, seen[1:]):
        if powered_down:
            assert after is Direction.ANTICLOCKWISE  # the SS2 starts again from its clockwise idle
        else:
            assert after is before.opposite()  # PT-A 21


@pytest.mark.parametrize("protocol", FLAGGED)
@pytest.mark.parametrize("fault", SPIN_FAULTS)
def test_a_void_launch_and_its_re_spin_make_two_launches_and_the_result_has_the_re_spins_direction(protocol, fault):
    games, events = play(protocol, [None, fault, None])
    per_game = [launches(g.emissions, previous=(5, 0)) for g in games]
    assert [len(found) for found in per_game] == [1, 2, 1]
    results = [r.direction for r in events if isinstance(r, WheelResult)]
    assert results == [found[-1][0] for found in per_game]


def test_on_the_ss2_a_failed_launch_makes_the_counted_spin_repeat_the_previous_direction():
    # As games 42 and 43 of the production capture: the retry reverses the rotor once more.
    games, events = play("cammegh-ss2", [None, "weak-spin", None])
    first, weak, after = [r.direction for r in events if isinstance(r, WheelResult)]
    assert weak is first and after is weak.opposite()


def test_ss2_weak_spin_is_a_void_then_the_wheel_fires_again_with_flag_8_until_the_ball_is_in_the_rim():
    games, events = play("cammegh-ss2", [None, "weak-spin"])
    lines = list(status_lines(games[1].emissions))
    states = [state for state, _, _ in lines]
    back_to_2 = states.index(2, states.index(3))  # the wheel fires again (guide 4.1)
    relaunch = states.index(3, back_to_2)
    assert all(flags == 0x8 for _, flags, _ in lines[back_to_2:relaunch])
    assert lines[relaunch][1] == 0  # the flag clears as the ball reaches the rim
    assert [(v.reason, v.game) for v in events if isinstance(v, WheelVoid)] == [
        (VoidReason.TOO_FEW_REVOLUTIONS, games[1].game)
    ]
    assert not [e for e in events if isinstance(e, WheelFault)]
