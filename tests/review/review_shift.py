"""A small shift written event by event, whose every figure the review tests derive by hand."""
import hashlib
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction

from croupier.rules.spin import Direction, VoidReason
from croupier.table import events as ev

START = datetime(2025, 9, 16, 20, 0, tzinfo=timezone.utc)
CW, ACW = Direction.CLOCKWISE, Direction.ANTICLOCKWISE
SENSOR, KEYPAD = ev.Source.SENSOR, ev.Source.KEYPAD


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def outcome(colour, staked, won=0, returned=0, lost=0):
    return ev.ColourOutcome(colour=colour, staked=staked, won=Fraction(won), returned=Fraction(returned),
                            lost=Fraction(lost))


def stake(bet, chips):
    return ev.Stake(bet=bet, chips=chips)


def staff(name, role, by):
    """A registration whose salt and PIN hash look like the real ones (hex, 16 and 32 bytes), and
    differ for each name, so a test can look for them in whatever the review shows."""
    return ev.StaffRegistered(time=at(0), name=name, role=role, salt=secret("salt", name, 16),
                              pin_hash=secret("pin", name, 32), by=by)


def secret(what: str, name: str, size: int) -> str:
    return hashlib.sha256(f"{what} {name}".encode()).hexdigest()[:2 * size]


SECRETS = [secret(what, name, size) for name in ("Marta", "Ana", "Rui") for what, size in (("salt", 16), ("pin", 32))]


def shift_events() -> list[ev.Event]:
    """Spin 1 (Ana): red plein 17 x2 wins 70, blue "red" x5 loses on 17 black.
    Spin 2 (Ana): a golpe nulo (chip fell), relaunched; 32 typed and confirmed; red loses 1.
    Relief Ana -> Rui at 20:30. Spin 3 (Rui): same direction as spin 2 (alarm 1); sensor says 5 and
    red's plein 5 is paid 35, then the pit boss corrects it to 24 and red loses its chip.
    Ball B1 -> B2 at 21:00. Spin 4 (Rui): 0, no bets. Rui relieved late by Ana at 21:45.
    Red cashes out at 21:50; the table closes at 22:00."""
    boss, ana, rui = "Marta", "Ana", "Rui"
    balls = (ev.Ball(id="B1", diameter_mm=Decimal("20")), ev.Ball(id="B2", diameter_mm=Decimal("20")))
    return [
        staff(boss, ev.Role.PIT_BOSS, None),
        staff(ana, ev.Role.CROUPIER, boss),
        staff(rui, ev.Role.CROUPIER, boss),
        ev.TableOpened(time=at(0), profile="pt-americana", minimum=Decimal("5"), colours=("red", "green", "blue"),
                       balls=balls, ball_in_play="B1", croupier=ana, by=boss),
        ev.ColourAssigned(time=at(1), colour="red", player="player-1", chip_value=Decimal("5"), chips=100, by=ana),
        ev.ColourAssigned(time=at(1), colour="blue", player="player-2", chip_value=Decimal("10"), chips=50, by=ana),
        # spin 1
        ev.BetsPlaced(time=at(2), spin=1, colour="red", stakes=(stake("plein 17", 2),)),
        ev.BetsPlaced(time=at(2), spin=1, colour="blue", stakes=(stake("red", 5),)),
        ev.BallLaunched(time=at(3), spin=1, direction=CW, ball="B1", croupier=ana, source=SENSOR),
        ev.BetsClosed(time=at(3.2), spin=1, source=SENSOR),
        ev.ResultRecorded(time=at(3.5), spin=1, number=17, source=SENSOR, ball="B1", croupier=ana, direction=CW,
                          outcomes=(outcome("red", 2, won=70, returned=2), outcome("blue", 5, lost=5))),
        ev.PayoutsCompleted(time=at(5), spin=1, by=ana),
        # spin 2: void, then a typed result
        ev.BetsPlaced(time=at(6), spin=2, colour="red", stakes=(stake("plein 17", 1),)),
        ev.BallLaunched(time=at(7), spin=2, direction=ACW, ball="B1", croupier=ana, source=SENSOR),
        ev.SpinVoided(time=at(7.3), spin=2, reason=VoidReason.CHIP_FELL, put_back=17, source=KEYPAD, by=ana),
        ev.BallLaunched(time=at(8), spin=2, direction=ACW, ball="B1", croupier=ana, source=SENSOR),
        ev.BetsClosed(time=at(8.2), spin=2, source=SENSOR),
        ev.ResultEntered(time=at(8.5), spin=2, number=32, by=ana),
        ev.ResultRecorded(time=at(8.6), spin=2, number=32, source=KEYPAD, ball="B1", croupier=ana, direction=ACW,
                          confirmed_by=ana, outcomes=(outcome("red", 1, lost=1),)),
        ev.PayoutsCompleted(time=at(9), spin=2, by=ana),
        ev.StaffRelieved(time=at(30), role=ev.Role.CROUPIER, outgoing=ana, incoming=rui, overdue=False),
        # spin 3: direction repeated, result corrected
        ev.BetsPlaced(time=at(31), spin=3, colour="red", stakes=(stake("plein 5", 1),)),
        ev.BallLaunched(time=at(32), spin=3, direction=ACW, ball="B1", croupier=rui, source=SENSOR),
        ev.AlarmRaised(time=at(32), alarm=1, alarm_kind=ev.AlarmKind.DIRECTION_REPEATED, subject=rui,
                       detail="ball launched anticlockwise twice in a row: the launch alternates (PT-A 21)"),
        ev.AlarmAcknowledged(time=at(32.5), alarm=1, by=rui),
        ev.BetsClosed(time=at(32.2), spin=3, source=SENSOR),
        ev.ResultRecorded(time=at(33), spin=3, number=5, source=SENSOR, ball="B1", croupier=rui, direction=ACW,
                          outcomes=(outcome("red", 1, won=35, returned=1),)),
        ev.ResultCorrected(time=at(34), spin=3, previous=5, number=24, reason="sensor misread; ball seen in 24",
                           by=boss, outcomes=(outcome("red", 1, lost=1),)),
        ev.AlarmCleared(time=at(35), alarm=1, note="spoken to", by=boss),
        ev.PayoutsCompleted(time=at(36), spin=3, by=rui),
        ev.BallSwapped(time=at(60), ball="B2", previous="B1", late=False, by=rui),
        # spin 4
        ev.BallLaunched(time=at(61), spin=4, direction=CW, ball="B2", croupier=rui, source=SENSOR),
        ev.BetsClosed(time=at(61.2), spin=4, source=SENSOR),
        ev.ResultRecorded(time=at(62), spin=4, number=0, source=SENSOR, ball="B2", croupier=rui, direction=CW),
        ev.PayoutsCompleted(time=at(63), spin=4, by=rui),
        ev.StaffRelieved(time=at(105), role=ev.Role.CROUPIER, outgoing=rui, incoming=ana, overdue=True,
                         reason="no relief available"),
        ev.ColourCashedOut(time=at(110), colour="red", player="player-1", chips=166, expected_chips=Fraction(166),
                           chip_value=Decimal("5"), amount=Decimal("830"), reason=ev.CashOutReason.LEFT, by=ana),
        ev.TableClosed(time=at(120), by=boss),
    ]
