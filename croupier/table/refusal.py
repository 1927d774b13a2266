"""The one way a table command says no: nothing is recorded and the message says why."""


from enum import Enum
from typing import TypeVar

E = TypeVar("E", bound=Enum)


class Refused(Exception):
    """A command the table will not carry out, with the reason (and the rule, where one decides).

    Every refusal can be worded in the table's language: either `message` is a template (English,
    a text of the catalogs) and the `facts` fill it (`Refused("ball {ball} is in play", ball="A")`),
    or a `code` names the refusal and the screens word its facts themselves. str() is the English."""

    def __init__(self, message: str, *, code: str | None = None, **facts: object) -> None:
        self.template = message if code is None else None
        super().__init__(message.format(**facts) if self.template is not None and facts else message)
        self.code = code
        self.facts = facts


def choice(kind: type[E], value: object) -> E:
    """`value` as one of the enum `kind`, or a refusal listing the choices."""
    try:
        return kind(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        known = ", ".join(str(member.value) for member in kind)
        raise Refused("{value} is not a {kind}; use one of: {known}", value=repr(value), kind=kind.__name__,
                      known=known) from None
