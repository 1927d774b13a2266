"""A table driven through its commands with a fake clock, without a journal: the pure core."""
from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.table.clock import FakeClock
from croupier.table.commands import execute
from croupier.table.events import Ball, Role
from croupier.table.refusal import Refused
from croupier.table.roles import register_staff
from croupier.table.state import INITIAL, fold

PROFILES = ("pt-americana", "pt-americana-2002", "pt-srij-french", "ru-american", "mt-fair")
BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))
PINS = {"Boss": "9000", "Ana": "1111", "Rui": "2222", "Ines": "3333", "Olga": "4444"}
ROLES = {"Boss": Role.PIT_BOSS, "Ana": Role.CROUPIER, "Rui": Role.CROUPIER, "Ines": Role.INSPECTOR,
         "Olga": Role.INSPECTOR}


class Table:
    """The state, the clock and every event recorded so far."""

    def __init__(self, clock: FakeClock):
        self.clock = clock
        self.state = INITIAL
        self.events = []

    def do(self, command, **arguments):
        new = execute(command, self.state, self.clock.now(), **arguments)
        self.state = fold(new, self.state)
        self.events += new
        return new

    def refused(self, command, match: str, **arguments) -> Refused:
        """The command is refused with a message matching `match`, and nothing changes."""
        before, recorded = self.state, len(self.events)
        with pytest.raises(Refused, match=match) as refusal:
            self.do(command, **arguments)
        assert self.state is before and len(self.events) == recorded
        return refusal.value

    def kinds(self, events=None) -> list[str]:
        return [e.kind for e in (self.events if events is None else events)]


_STAFFED: dict = {}  # scrypt is slow on purpose: register the same staff once per start time


def staffed(clock: FakeClock) -> Table:
    table = Table(clock)
    cached = _STAFFED.get(clock.now())
    if cached:
        table.state, table.events = cached[0], list(cached[1])
        return table
    for name, role in ROLES.items():
        boss = {} if name == "Boss" else {"by": "Boss", "by_pin": PINS["Boss"]}
        table.do(register_staff, name=name, role=role, pin=PINS[name], salt=name.encode().ljust(16, b"."), **boss)
    _STAFFED[clock.now()] = (table.state, tuple(table.events))
    return table


def opened(profile: str = "pt-americana", clock: FakeClock | None = None, **options) -> Table:
    from croupier.table.cycle import open_table

    table = staffed(clock or FakeClock())
    arguments = dict(profile=profile, minimum=Decimal("5"), colours=("red", "green", "blue"), balls=BALLS,
                     croupier="Ana", pin=PINS["Ana"], inspector="Ines")
    table.do(open_table, **{**arguments, **options})
    return table


def spin_to(table: Table, number: int) -> None:
    """Half a minute of betting, a launch the other way from the last, and `number` typed and
    confirmed: the payouts are under way."""
    from croupier.rules.spin import Direction
    from croupier.table import cycle

    table.clock.advance(seconds=30)
    last = table.state.last_direction
    table.do(cycle.launch, direction=last.opposite() if last else Direction.CLOCKWISE)
    table.do(cycle.enter_result, number=number)
    table.do(cycle.confirm_result)


def seat(table: Table, colour: str = "red", chips: int = 100, value: str = "5") -> None:
    """Give `colour` to a player with `chips` chips worth `value` each."""
    from croupier.table.colours import assign_colour

    table.do(assign_colour, colour=colour, player=f"player {colour}", chip_value=Decimal(value), chips=chips, by="Ana")
