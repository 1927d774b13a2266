"""A bug in the table app is survived: it is logged with its traceback (no local variables, and
every secret field's value redacted, through the one list in croupier.history.redaction), shown in a
few words, and the table goes on from the journal. A staff record carries a salt and a PIN hash;
a command carries a PIN: none of them may reach the log or the screen."""
from __future__ import annotations

import functools
import logging
import re
import traceback

from croupier.history.redaction import REDACTED, SECRET_FIELDS

log = logging.getLogger("croupier.ui")

# `salt=...`, `'pin_hash': '...'`, and a PIN by any name a command gives it (`pin=`, `by_pin=`).
_SECRET = re.compile(
    r"\b(?P<field>" + "|".join(sorted(SECRET_FIELDS)) + r"|(?:\w+_)?pin)\b(?P<sep>['\"]?\s*[=:]\s*)"
    r"(?P<value>b?'[^']*'|b?\"[^\"]*\"|[^\s,)}\]]+)", re.IGNORECASE)


def redacted_text(text: str) -> str:
    return _SECRET.sub(lambda found: f"{found['field']}{found['sep']}{REDACTED}", text)


def log_bug(error: BaseException) -> None:
    trace = "".join(traceback.format_exception(error))
    log.error("screen error; the table goes on from the journal\n%s", redacted_text(trace))


def survived(handler):
    """A handler of the table app or of one of its screens whose bug is survived, not fatal."""

    @functools.wraps(handler)
    def guarded(self, *arguments, **keywords):
        try:
            return handler(self, *arguments, **keywords)
        except Exception as error:
            self.app.survive(error)
            return None

    return guarded
