"""Simulated games fed to a decoder at the wheel's own pace, for the simulator tests."""
from __future__ import annotations

import random

from croupier.wheel.games import SimulatedWheel
from croupier.wheel.protocols import make_decoder


def play(protocol, faults, seed=5, numbers=None):
    """Decode the planned games with their own timing; (planned games, events)."""
    wheel = SimulatedWheel(protocol, random.Random(seed))
    decoder = make_decoder(protocol)
    events, time = [], 0.0
    for emission in wheel.opening():
        time += emission.delay
        events += decoder.feed(emission.data, time)
    games = []
    for i, fault in enumerate(faults):
        game = wheel.play(None if numbers is None else numbers[i], fault)
        games.append(game)
        for emission in game.emissions:
            time += emission.delay
            events += decoder.feed(emission.data, time)
    return games, events
