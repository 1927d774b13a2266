"""The one way a table command says no: nothing is recorded and the message says why."""


from enum import Enum
from typing import TypeVar

E = TypeVar("E", bound=Enum)


class Refused(Exception):
    """A command the table will not carry out, with the reason (and the rule, where one decides)."""


def choice(kind: type[E], value: object) -> E:
    """`value` as one of the enum `kind`, or a refusal listing the choices."""
    try:
        return kind(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        known = ", ".join(str(member.value) for member in kind)
        raise Refused(f"{value!r} is not a {kind.__name__}; use one of: {known}") from None
