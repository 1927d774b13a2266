"""Tables for the display-board tests, built from events so each expected light is read off by hand.

(A module of its own, not conftest: `from conftest import` would find another directory's conftest
when the whole suite runs.)"""
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from croupier.rules.spin import Direction
from croupier.table import events as ev

START = datetime(2025, 3, 1, 21, 0, tzinfo=timezone.utc)
BALLS = (ev.Ball(id="A", diameter_mm=Decimal("21")), ev.Ball(id="B", diameter_mm=Decimal("21")))


def opened(profile: str = "pt-americana") -> ev.TableOpened:
    return ev.TableOpened(time=START, profile=profile, minimum=Decimal("5"), colours=("red", "blue"), balls=BALLS,
                          ball_in_play="A", croupier="Ana", by="Ana")


def launched(spin: int, minutes: float) -> ev.BallLaunched:
    return ev.BallLaunched(time=START + timedelta(minutes=minutes), spin=spin, direction=Direction.CLOCKWISE,
                           ball="A", croupier="Ana", source=ev.Source.SENSOR)


def closed_bets(spin: int, minutes: float) -> ev.BetsClosed:
    return ev.BetsClosed(time=START + timedelta(minutes=minutes), spin=spin, source=ev.Source.SENSOR)


def result(spin: int, number: int, minutes: float) -> ev.ResultRecorded:
    return ev.ResultRecorded(time=START + timedelta(minutes=minutes), spin=spin, number=number,
                             source=ev.Source.SENSOR, ball="A", croupier="Ana", direction=Direction.CLOCKWISE)


def paid(spin: int, minutes: float) -> ev.PayoutsCompleted:
    return ev.PayoutsCompleted(time=START + timedelta(minutes=minutes), spin=spin, by="Ana")


def voided(spin: int, minutes: float, put_back: int | None) -> ev.SpinVoided:
    from croupier.rules.spin import VoidReason

    return ev.SpinVoided(time=START + timedelta(minutes=minutes), spin=spin, reason=VoidReason.CHIP_FELL,
                         put_back=put_back, source=ev.Source.KEYPAD, by="Ana")
