"""What every projection is: a fold over the journal's typed events, each handler naming the event
classes it reads. A projection's EVENTS are those classes, taken from its handlers, so the events a
reader asks the journal for and the events it folds can never differ."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from types import MethodType
from typing import Any, ClassVar, TypeVar

from croupier.table.events import Event

F = TypeVar("F", bound=Callable[..., None])


def reads(*classes: type[Event]) -> Callable[[F], F]:
    """Marks a projection's method as the handler of these event classes: `handler(self, seq, event)`."""
    def mark(handler: F) -> F:
        handler.reads = classes  # type: ignore[attr-defined]
        return handler
    return mark


class Projection:
    """A fold keyed by event class. `add(seq, event)` hands an event to its class's handler; an
    event of a class no handler reads is not this projection's and is passed over."""

    EVENTS: ClassVar[tuple[type[Event], ...]] = ()
    HANDLERS: ClassVar[dict[type[Event], Callable[[Any, int, Any], None]]] = {}

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        handlers: dict[type[Event], Callable[[Any, int, Any], None]] = {}
        for base in reversed(cls.__mro__):
            for member in vars(base).values():
                for event_class in getattr(member, "reads", ()):
                    handlers[event_class] = member
        cls.HANDLERS = handlers
        cls.EVENTS = tuple(handlers)

    def add(self, seq: int, event: Event) -> None:
        handler = self.HANDLERS.get(type(event))
        if handler is not None:
            handler(self, seq, event)

    def handler(self, event_class: type[Event]) -> Callable[[int, Any], None]:
        """What `add` does with an event of `event_class` (one of EVENTS), found once: for a fold
        that hands one event to several projections."""
        return MethodType(self.HANDLERS[event_class], self)

    def add_all(self, events: Iterable[tuple[int, Event]]) -> None:
        handlers = self.HANDLERS
        for seq, event in events:
            handler = handlers.get(type(event))
            if handler is not None:
                handler(self, seq, event)


def events_of(*projections: type[Projection]) -> tuple[type[Event], ...]:
    """The event classes any of these projections reads, each once, in a fixed order."""
    return tuple(dict.fromkeys(event for projection in projections for event in projection.EVENTS))
