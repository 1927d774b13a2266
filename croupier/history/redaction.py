"""The one list of secret fields, and the record as it may be shown.

A PIN is 4 to 8 digits: whoever holds its salt and scrypt hash tries every PIN in minutes, so
neither ever leaves the journal. Every place a record is shown or exported (CSV, PDF, the report,
the review's screens) passes it through `redacted`; a new secret field is added here and nowhere else.
"""
from __future__ import annotations

SECRET_FIELDS = frozenset({"pin_hash", "salt"})
REDACTED = "redacted"


def redacted(record):
    """The record (a dict, with lists and dicts inside) with every secret field's value replaced
    by "redacted"."""
    if isinstance(record, dict):
        return {key: REDACTED if key in SECRET_FIELDS else redacted(value) for key, value in record.items()}
    if isinstance(record, (list, tuple)):
        return [redacted(value) for value in record]
    return record
