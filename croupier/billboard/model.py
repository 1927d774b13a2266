"""What the players' monitor shows, as a pure fold over the table's events: the last numbers, hot
and cold numbers, the share of red and black, odd and even, the dozens, the table limits, the colour
value board (`PT-A 9`), and the announcements (ball change `PT-A 17`, golpe nulo `PT-A 22`).

Only counted results count: a golpe nulo is not a result, and a corrected result counts as its
correction.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar
from datetime import datetime
from decimal import Decimal

from croupier.history.spins import RecentResults
from croupier.rules.wheel import BLACK, RED
from croupier.table import events as ev
from croupier.table.regulation import limits_of
from croupier.table.state import TableState, apply

WINDOW = 100  # spins the statistics cover
LAST = 20  # numbers shown in a row
HOT_COLD = 5  # numbers shown as hot, and as cold


@dataclass(frozen=True)
class Announcement:
    """What the board announces, one class per kind; `brief`: shown for a while, not until the game moves on."""
    time: datetime
    brief: ClassVar[bool] = False


@dataclass(frozen=True)
class BallChange(Announcement):  # PT-A 17
    ball: str
    brief: ClassVar[bool] = True


@dataclass(frozen=True)
class GolpeNulo(Announcement):  # PT-A 22
    put_back: int | None  # the pocket the ball goes back to, None for a journal's first spin


@dataclass(frozen=True)
class NewLimits(Announcement):
    brief: ClassVar[bool] = True


@dataclass(frozen=True)
class NoMoreBets(Announcement):
    pass


@dataclass(frozen=True)
class Shares:
    """Percentages of the spins in the window (zero is neither red nor black, odd nor even)."""

    spins: int
    red: float
    black: float
    zero: float
    odd: float
    even: float
    dozens: tuple[float, float, float]


class Billboard:
    def __init__(self, state: TableState, results: Iterable[tuple[int, int]] = (), window: int = WINDOW) -> None:
        """`results`: (spin, number) of the counted results before `state`'s last event, oldest first."""
        self.state = state
        self.results = RecentResults(window, results)
        self.announcement: Announcement | None = None

    def apply(self, event: ev.Event) -> None:
        self.state = apply(self.state, event)
        if isinstance(event, ev.ResultRecorded):
            self.results.record(event.spin, event.number)
            self.announcement = None
        elif isinstance(event, ev.ResultCorrected):
            self.results.correct(event.spin, event.number)
        elif isinstance(event, ev.BallSwapped):
            self.announcement = BallChange(event.time, event.ball)
        elif isinstance(event, ev.SpinVoided):
            self.announcement = GolpeNulo(event.time, event.put_back)
        elif isinstance(event, ev.LimitsChanged):
            self.announcement = NewLimits(event.time)
        elif isinstance(event, ev.BetsClosed):
            self.announcement = NoMoreBets(event.time)
        elif isinstance(event, ev.BallLaunched) and isinstance(self.announcement, GolpeNulo):
            self.announcement = None  # the ball is running again

    # --- what the monitor shows -----------------------------------------------------------------

    @property
    def last(self) -> int | None:
        return list(self.results)[-1][1] if self.results else None

    def last_numbers(self, count: int = LAST) -> list[int]:
        """The last `count` results, newest first."""
        return [number for _, number in list(self.results)[-count:]][::-1]

    def counts(self) -> Counter:
        return Counter(number for _, number in self.results)

    def hot(self, count: int = HOT_COLD) -> list[tuple[int, int]]:
        """The numbers out most often in the window, with how often; ties by the most recent."""
        seen = self.counts()
        latest = {number: at for at, (_, number) in enumerate(self.results)}
        ranked = sorted(seen, key=lambda n: (-seen[n], -latest[n]))
        return [(n, seen[n]) for n in ranked[:count]]

    def cold(self, count: int = HOT_COLD) -> list[tuple[int, int]]:
        """The numbers out least often (never is least), with how often; ties by the longest absent."""
        seen = self.counts()
        latest = {number: at for at, (_, number) in enumerate(self.results)}
        ranked = sorted(range(37), key=lambda n: (seen[n], latest.get(n, -1), n))
        return [(n, seen[n]) for n in ranked[:count]]

    def shares(self) -> Shares | None:
        numbers = [number for _, number in self.results]
        if not numbers:
            return None
        total = len(numbers)

        def share(test) -> float:
            return 100 * sum(1 for n in numbers if test(n)) / total

        return Shares(
            spins=total, red=share(lambda n: n in RED), black=share(lambda n: n in BLACK),
            zero=share(lambda n: n == 0), odd=share(lambda n: n % 2 == 1), even=share(lambda n: n and n % 2 == 0),
            dozens=(share(lambda n: 0 < n <= 12), share(lambda n: 12 < n <= 24), share(lambda n: 24 < n <= 36)),
        )

    def limits(self) -> dict[str, tuple[Decimal, Decimal]] | None:
        """Each position kind's minimum and maximum stake at this table (§6), None when closed."""
        if self.state.profile is None or self.state.minimum is None:
            return None
        limits = limits_of(self.state)
        return {kind: (limits.least(kind), maximum) for kind, maximum in limits.maxima.items()}

    def posted_values(self) -> list[Decimal]:
        """The values a colour may be given here (`PT-A 9`): the minimum and those posted."""
        if self.state.minimum is None:
            return []
        return sorted({self.state.minimum, *self.state.posted_values})

    def colour_values(self) -> list[tuple[str, Decimal]]:
        """The value board (`PT-A 9`): each colour in play and what one of its chips is worth."""
        return [(colour, account.chip_value) for colour, account in self.state.accounts.items()]
