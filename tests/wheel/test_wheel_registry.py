"""Every wheel protocol comes from one registry: its decoder, the simulator's lines and the names
the configuration and the commands accept are all read from its record."""
import random
import subprocess
import sys

import pytest
from wheel_play import play

from croupier.wheel.events import WheelResult
from croupier.wheel.games import FAULTS, SimulatedWheel, faults_shown
from croupier.wheel.protocols import make_decoder
from croupier.wheel.registry import PROTOCOL_NAMES, PROTOCOLS, UnknownProtocol, protocol


@pytest.mark.parametrize("name", PROTOCOL_NAMES)
def test_each_protocol_makes_its_own_decoder_and_the_simulator_plays_it(name):
    assert make_decoder(name).protocol == name
    games, events = play(name, [None, None])
    assert [e.number for e in events if isinstance(e, WheelResult)] == [g.number for g in games]
    counted = [g.game for g in games]
    assert all(counted) if protocol(name).game_counter else counted == [None, None]
    assert faults_shown(name) == (FAULTS if protocol(name).flags else ("garbage",))


def test_a_protocol_added_to_the_registry_is_offered_by_every_command_and_the_configuration():
    from croupier import config
    from croupier.commands import demo, reconcile, wheel_replay, wheel_sim

    assert config.WHEEL_PROTOCOLS == PROTOCOL_NAMES == tuple(PROTOCOLS)
    for command in (demo, wheel_replay, wheel_sim, reconcile):
        choices = [a.choices for a in command._parser()._actions if "--protocol" in a.option_strings]
        assert choices and tuple(choices[0]) == PROTOCOL_NAMES, command.__name__


def test_an_unknown_protocol_is_refused_naming_the_known_ones():
    with pytest.raises(UnknownProtocol, match="unknown wheel protocol 'cammegh-ss9'; use one of: cammegh-ss2"):
        make_decoder("cammegh-ss9")
    with pytest.raises(UnknownProtocol):
        SimulatedWheel("cammegh-ss9", random.Random(1))


def test_the_names_are_read_without_loading_a_decoder():
    probe = "import sys, croupier.wheel.registry\nprint(sorted(m for m in sys.modules if m.startswith('croupier.wheel')))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['croupier.wheel', 'croupier.wheel.registry']"
