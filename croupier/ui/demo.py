"""The demo table: the packaged default configuration, staff with known PINs, two players seated, a
simulated wheel on a pseudo-terminal and the display board on mock GPIO pins (shown on screen).

The simulated wheel plays at a brisk pace but waits, after each result, until the croupier has
recorded the payouts: a croupier launches the next ball only then (`PT-A 19`), and a wheel that ran
on would have the sensor mark the payouts done in the croupier's place. Bets then stay open for the
betting window (15 s unless `--betting-window` says otherwise), time to key an announced bet.
"""
from __future__ import annotations

import threading
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from croupier.config import Config, default_config
from croupier.i18n import _
from croupier.session import TableSession
from croupier.table.events import Ball, Role
from croupier.table.state import Phase

FAULTS = ("garbage", "same-direction", "ball-removed")  # the wheel's faults, played in turn
FAULT_EVERY = 4  # games
# Demo PINs by role, in the order the configuration lists the staff.
PINS = {"pit-boss": ("9000",), "croupier": ("1111", "2222", "4444"), "inspector": ("3333", "5555")}
SEATED = (("red", 1, Decimal(5), 100), ("blue", 4, Decimal(10), 50))  # colour, seat, chip value, chips
POSTED = (Decimal(10), Decimal(20), Decimal(25), Decimal(50))  # colour values posted besides the minimum (PT-A 9)
GATE_POLL_S = 0.2


def demo_config(folder: Path, language: str | None = None, protocol: str | None = None) -> Config:
    config = default_config()
    assert config.wheel is not None, "the packaged defaults name the wheel the demo simulates"
    table = replace(config.table, posted_values=POSTED, language=language or config.table.language)
    wheel = replace(config.wheel, protocol=protocol) if protocol else config.wheel
    return replace(config, table=table, wheel=wheel, journal_path=folder / "demo-journal.db",
                   logging=replace(config.logging, destination="file", file=folder / "croupier.log"))


def demo_pins(config: Config) -> dict[str, str]:
    """Each member of the configuration's staff and the PIN the demo gives them."""
    pins, used = {}, {role: 0 for role in PINS}
    for member in config.staff:
        pins[member.name] = PINS[member.role][used[member.role] % len(PINS[member.role])]
        used[member.role] += 1
    return pins


def prepare(session: TableSession, config: Config) -> dict[str, str]:
    """Register the staff, open the table and seat two players; returns the PINs."""
    pins = demo_pins(config)
    if session.state.staff:
        return pins  # a kept demo journal, prepared before
    boss = next(m.name for m in config.staff if m.role == "pit-boss")
    session.register_staff(name=boss, role=Role.PIT_BOSS, pin=pins[boss])
    for member in config.staff:
        if member.name != boss:
            session.register_staff(name=member.name, role=Role(member.role), pin=pins[member.name], by=boss,
                                   by_pin=pins[boss])
    croupier = next(m.name for m in config.staff if m.role == "croupier")
    inspector = next((m.name for m in config.staff if m.role == "inspector"), None)
    session.open_table(profile=config.table.profile, minimum=config.table.minimum, colours=config.colours,
                       balls=tuple(Ball(id=b.id, diameter_mm=b.diameter_mm) for b in config.balls),
                       croupier=croupier,
                       pin=pins[croupier], inspector=inspector, posted_values=config.table.posted_values, by=boss,
                       table_id=config.table.id, house=config.table.house, sign=config.table.sign,
                       value_only=config.table.value_only, marked_values=config.table.marked_values,
                       currency=config.table.currency, time_zone=config.table.time_zone, casino=config.table.casino)
    for colour, seat, value, chips in SEATED:
        if colour in config.colours and not config.table.value_only:  # PT-B 15b: no colour chips
            session.assign_colour(colour=colour, player=_("seat {number}").format(number=seat), chip_value=value,
                                  chips=chips, by=croupier)
    return pins


class PayoutGate:
    """The simulator's `on_game`: after each game, wait (in the simulator's thread) until bets are
    open again, checking every 0.2 s so that stopping is never held up."""

    def __init__(self, session: TableSession, betting_window: float) -> None:
        self.session = session
        self.betting_window = betting_window
        self.stopping = threading.Event()

    def __call__(self, game) -> None:
        while self.session.state.phase is not Phase.BETTING and not self.stopping.wait(GATE_POLL_S):
            pass
        self.stopping.wait(self.betting_window)  # bets open: time to place them before the launch


def banner(pins: dict[str, str], config: Config) -> str:
    names = ", ".join(f"{name} {pin}" for name, pin in pins.items())
    return _("Demo: a simulated wheel plays; PINs {pins}").format(pins=names)
