"""The one way a table command says no: nothing is recorded and the message says why."""


from enum import Enum
from typing import TypeVar

E = TypeVar("E", bound=Enum)


class Refused(Exception):
    """A command the table will not carry out, with the reason (and the rule, where one decides).

    The message is the record's English. The most common refusals also carry a `code` and the
    `facts` it is about, for the screens to word them in the table's language (like a Notice)."""

    def __init__(self, message: str, *, code: str | None = None, **facts: object) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


def choice(kind: type[E], value: object) -> E:
    """`value` as one of the enum `kind`, or a refusal listing the choices."""
    try:
        return kind(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        known = ", ".join(str(member.value) for member in kind)
        raise Refused(f"{value!r} is not a {kind.__name__}; use one of: {known}") from None
