"""Dates and times are written as CLDR has them for the table's language (Babel), in the table's
time zone; the machine forms (CSV, JSON) stay ISO 8601."""
from datetime import datetime, timezone

import pytest

from croupier.history import clock
from croupier.i18n import current, install, present

MOMENT = datetime(2025, 9, 16, 19, 3, 30, tzinfo=timezone.utc)  # 20:03:30 in Lisbon (WEST)


@pytest.fixture(autouse=True)
def lisbon():  # the shared fixture puts the machine's zone back
    present(current().in_zone("Europe/Lisbon"))


@pytest.mark.parametrize("language, stamped, short", [
    ("pt", "16/09/2025, 20:03:30", "16/09/2025, 20:03"),
    ("en", "16 Sept 2025, 20:03:30", "16 Sept 2025, 20:03"),
    ("ru", "16 сент. 2025\u202fг., 20:03:30", "16 сент. 2025\u202fг., 20:03"),  # a narrow no-break space before "г."
    ("it", "16 set 2025, 20:03:30", "16 set 2025, 20:03"),
])
def test_a_moment_is_written_as_the_tables_language_writes_it(language, stamped, short):
    install(language)
    assert clock.stamp(MOMENT) == stamped and clock.stamp(MOMENT.isoformat()) == stamped
    assert clock.stamp(MOMENT, "short") == short
    assert clock.clock(MOMENT) == "20:03:30"
    assert clock.iso(MOMENT) == "2025-09-16T20:03:30+01:00"  # the machine's form, in every language


def test_a_shift_label_names_its_days_in_the_tables_language():
    from croupier.review.shifts import Shift

    install("ru")
    shift = Shift(number=3, first_seq=1, last_seq=9, opened=MOMENT, closed=MOMENT.replace(day=17, hour=1),
                  profile="ru-american")
    assert shift.label == "смена 3: 16 сент. 2025\u202fг., 20:03 - 17 сент. 2025\u202fг., 02:03 (ru-american)"
