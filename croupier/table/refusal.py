"""The one way a table command says no: nothing is recorded and the message says why."""


class Refused(Exception):
    """A command the table will not carry out, with the reason (and the rule, where one decides)."""
