"""Journals and events for the billboard tests, each expected figure worked out by hand."""
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from croupier.rules.spin import Direction, VoidReason
from croupier.table import events as ev

START = datetime(2025, 5, 2, 20, 0, tzinfo=timezone.utc)
BALLS = (ev.Ball(id="A", diameter_mm=Decimal("21")), ev.Ball(id="B", diameter_mm=Decimal("21")))


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def opened() -> ev.TableOpened:
    return ev.TableOpened(time=at(0), profile="pt-americana", minimum=Decimal("5"), colours=("red", "blue", "green"),
                          balls=BALLS, ball_in_play="A", croupier="Ana", posted_values=(Decimal(20), Decimal(10)),
                          by="Ana")


def spin(number: int, spin_no: int, minutes: float) -> list[ev.Event]:
    """A whole spin read by the sensor: launch, no more bets, result, payouts."""
    direction = Direction.CLOCKWISE if spin_no % 2 else Direction.ANTICLOCKWISE
    return [
        ev.BallLaunched(time=at(minutes), spin=spin_no, direction=direction, ball="A", croupier="Ana",
                        source=ev.Source.SENSOR),
        ev.BetsClosed(time=at(minutes + 0.2), spin=spin_no, source=ev.Source.SENSOR),
        ev.ResultRecorded(time=at(minutes + 0.5), spin=spin_no, number=number, source=ev.Source.SENSOR, ball="A",
                          croupier="Ana", direction=direction),
        ev.PayoutsCompleted(time=at(minutes + 0.8), spin=spin_no, by="Ana"),
    ]


def spins(numbers, first_spin: int = 1, minutes: float = 1) -> list[ev.Event]:
    found = []
    for i, number in enumerate(numbers):
        found += spin(number, first_spin + i, minutes + i)
    return found


def voided(spin_no: int, minutes: float, put_back: int | None) -> list[ev.Event]:
    return [
        ev.BallLaunched(time=at(minutes), spin=spin_no, direction=Direction.CLOCKWISE, ball="A", croupier="Ana",
                        source=ev.Source.SENSOR),
        ev.SpinVoided(time=at(minutes + 0.1), spin=spin_no, reason=VoidReason.CHIP_FELL, put_back=put_back,
                      source=ev.Source.KEYPAD, by="Ana"),
    ]
