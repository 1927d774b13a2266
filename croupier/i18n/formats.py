"""Numbers, money, percentages and dates as a language writes them, from CLDR's data through Babel:
"1 234,50 EUR" in Portuguese and Russian, "1.234,50 EUR" in Italian, "1,234.50 EUR" in English,
in the language of the presentation shown (presentation.py).

Amounts keep the ISO code after them (a casino's papers name the currency, and every console font
has its letters); the number itself, its separators and digits are the locale's. The machine forms
(CSV, JSON) never come through here.
"""
from __future__ import annotations

from datetime import date as Date, datetime
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

# The country a language's tables are in, where CLDR's default for the bare language is another's
# (Babel's "pt" is Brazil's); English dates are written as in Europe, day first.
_REGIONS = {"pt": "pt_PT", "en": "en_GB"}


@lru_cache(maxsize=None)
def locale_of(language: str):
    """The CLDR locale a table in `language` writes its numbers and dates in; English's for a
    house language CLDR does not know."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(_REGIONS.get(language, language))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(_REGIONS["en"])


def _locale():
    from croupier.i18n.presentation import current

    return current().locale


def number(value: int | Decimal | float | Fraction) -> str:
    """A count or a quantity, grouped as the language groups thousands: 1 482,5."""
    from babel.numbers import format_decimal

    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / value.denominator
    return format_decimal(value, locale=_locale(), decimal_quantization=False)


def fixed(value: int | Decimal | float, digits: int = 1) -> str:
    """A measure with exactly `digits` decimals: 69,0 spins an hour."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=_locale())


def money(amount: int | Decimal | str, currency: str | None = None) -> str:
    """An amount with its currency's decimals (two without one), and its ISO code after it."""
    from babel.numbers import format_currency, format_decimal

    value = Decimal(amount)
    if not currency:
        return format_decimal(value, format="#,##0.00", locale=_locale())
    text = format_currency(value, currency, format="#,##0.00", locale=_locale(), currency_digits=True)
    return f"{text} {currency}"


def signed_money(amount: int | Decimal | str, currency: str | None = None) -> str:
    """An amount that is a result: its sign always written (+120,00 or -45,00)."""
    value = Decimal(amount)
    return ("+" if value >= 0 else "-") + money(abs(value), currency)


def percent(share: float | Decimal | Fraction, digits: int = 0) -> str:
    """A share of a whole (0.486) as the language writes a percentage: 49 %, 49%."""
    from babel.numbers import format_percent

    locale = _locale()
    pattern = locale.percent_formats[None].pattern
    if digits:
        pattern = pattern.replace("0%", "0." + "0" * digits + "%")
    if isinstance(share, Fraction):
        share = float(share)
    return format_percent(share, format=pattern, locale=locale)


def day(moment: Date | datetime) -> str:
    """A date with the month named: 26 nov 2026, 26/11/2026."""
    from babel.dates import format_date

    return format_date(moment, format="medium", locale=_locale())


def chips(amount: Fraction | int | Decimal | str) -> str:
    """A chip count; halves happen (zero on simple chances, two-dozen bets): ½, 2½, 1 250."""
    amount = Fraction(str(amount)) if isinstance(amount, (str, Decimal)) else Fraction(amount)
    if amount < 0:
        return "-" + chips(-amount)
    whole, part = divmod(amount, 1)
    if part == 0:
        return number(int(whole))
    if part == Fraction(1, 2):
        return f"{number(int(whole))}½" if whole else "½"  # half a chip, not "0½"
    return number(amount)


def significant(value: float, digits: int = 2) -> str:
    """A small measure to `digits` significant figures (a p-value: 0,043), in scientific notation
    below a thousandth (1,2E-5)."""
    from babel.numbers import format_decimal, format_scientific

    if not value:
        return number(0)
    if abs(value) < 0.001:
        return format_scientific(value, format="0." + "0" * (digits - 1) + "E0", locale=_locale())
    return format_decimal(value, format="@" + "#" * (digits - 1), locale=_locale())


# Times come from CLDR's patterns. A report writes one per spin, so the date is written once per day
# and a time of day whose pattern strftime can write (HH:mm:ss, HH:mm) is written by it.
_STRFTIME = {"HH:mm:ss": "%H:%M:%S", "HH:mm": "%H:%M"}


@lru_cache(maxsize=4096)
def _date(day: Date, language: str) -> str:
    from babel.dates import format_date

    return format_date(day, format="medium", locale=locale_of(language))


@lru_cache(maxsize=None)
def _time_form(language: str, length: str) -> tuple[str, str, str | None]:
    """The CLDR glue of a date and a time ("{1}, {0}"), the time pattern, and its strftime form."""
    found = locale_of(language)
    pattern = found.time_formats[length].pattern
    return str(found.datetime_formats[length]), pattern, _STRFTIME.get(pattern)


def time_of_day(moment: datetime, length: str = "medium") -> str:
    """A time as the language writes it: 14:00:05 (`length` "short": 14:00). `moment` is already in
    the zone it is shown in."""
    from croupier.i18n import language

    _glue, pattern, fast = _time_form(language(), length)
    if fast:
        return moment.strftime(fast)
    from babel.dates import format_time

    return format_time(moment, format=pattern, tzinfo=moment.tzinfo, locale=_locale())


def moment(value: datetime, length: str = "medium") -> str:
    """A date and time as the language writes them: 06/01/2025, 14:00:05; 6 янв. 2025 г., 14:00:05
    (`length` "short": to the minute). `value` is already in the zone it is shown in."""
    from croupier.i18n import language

    glue, _pattern, _fast = _time_form(language(), length)
    return glue.replace("{1}", _date(value.date(), language())).replace("{0}", time_of_day(value, length))
