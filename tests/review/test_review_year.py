"""The review of a table the wheel drives alone, which never closes: its journal is paged by day,
a spin is found wherever it is, a date or a shift is reached in one step, and what the table
records while the review is open comes on screen."""
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from textual.widgets import Input, Static

from croupier.journal.store import Journal
from croupier.review.app import ReviewApp
from croupier.review.shifts import find_spin, list_shifts, load_entries, open_read_only
from croupier.rules.spin import Direction
from croupier.table import events as ev

START = datetime(2025, 3, 1, 20, 0, tzinfo=timezone.utc)
SPINS = 100  # one every 30 minutes: from the 1st at 20:00 UTC to the 3rd at 21:30 UTC


def spin_events(spin: int) -> list[ev.Event]:
    t = START + timedelta(minutes=30 * spin)
    direction = Direction.CLOCKWISE if spin % 2 else Direction.ANTICLOCKWISE
    return [ev.BallLaunched(time=t, spin=spin, direction=direction, ball="B1", croupier="Wheel",
                            source=ev.Source.SENSOR),
            ev.ResultRecorded(time=t + timedelta(seconds=40), spin=spin, number=spin * 7 % 37,
                              source=ev.Source.SENSOR, ball="B1", croupier="Wheel", direction=direction)]


@pytest.fixture
def sensor_journal(tmp_path):
    path = tmp_path / "sensor.db"
    balls = (ev.Ball(id="B1", diameter_mm=Decimal("20")), ev.Ball(id="B2", diameter_mm=Decimal("20")))
    with Journal.open(path) as journal:
        journal.append([ev.TableOpened(time=START, profile="pt-americana", minimum=Decimal("5"), colours=("red",),
                                       balls=balls, ball_in_play="B1", croupier="Wheel", sensor_only=True,
                                       by="Wheel", table_id="T3")])
        for spin in range(1, SPINS + 1):
            journal.append(spin_events(spin))
    return path


def local_dates(entries) -> set:
    return {entry.event.time.astimezone().date() for entry in entries}


def test_a_table_that_never_closes_is_paged_at_each_midnight(sensor_journal):
    with open_read_only(sensor_journal) as journal:
        shifts = list_shifts(journal)
        days = [local_dates(load_entries(journal, shift)) for shift in shifts]
    first, last = START.astimezone().date(), (START + timedelta(minutes=30 * SPINS)).astimezone().date()
    assert len(shifts) == (last - first).days + 1
    assert all(len(day) == 1 for day in days)  # each page one day of the table's clock
    assert [shift.first_seq for shift in shifts[1:]] == [shift.last_seq + 1 for shift in shifts[:-1]]


def test_a_spin_is_found_by_key_anywhere_in_the_journal(sensor_journal):
    with open_read_only(sensor_journal) as journal:
        # Spin n's result is event 1 + 2n: the opening, then a launch and a result per spin.
        assert [find_spin(journal, spin) for spin in (1, 2, 50, SPINS)] == [3, 5, 101, 1 + 2 * SPINS]
        assert find_spin(journal, SPINS + 1) is None and find_spin(journal, 0) is None


async def test_a_spin_of_another_day_opens_its_day(sensor_journal):
    app = ReviewApp(open_read_only(sensor_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        assert app.shift == app.shifts[-1]
        await pilot.press("2", *"3", "enter")  # spin 3, on the first day
        await pilot.pause()
        detail = str(app.query_one("#spin-detail", Static).render())
        assert detail.startswith("spin 3\nresult: 21 red")
        assert app.shift == app.shifts[0]


async def test_a_date_or_a_shift_is_reached_in_one_step(sensor_journal):
    app = ReviewApp(open_read_only(sensor_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        second_day = (START + timedelta(days=1)).astimezone().date()
        await pilot.press("g", *f"{second_day} 12:00", "enter")
        await pilot.pause()
        assert local_dates(app.entries) == {second_day}
        await pilot.press("g", *"shift 1", "enter")
        await pilot.pause()
        assert app.shift == app.shifts[0]
        assert not app.query_one("#goto", Input).has_class("asked")


async def test_what_the_table_records_comes_on_screen_while_the_review_is_open(sensor_journal):
    app = ReviewApp(open_read_only(sensor_journal))
    async with app.run_test(size=(140, 45)) as pilot:
        before = len(app.entries)
        with Journal.open(sensor_journal) as table:
            table.append(spin_events(SPINS + 1))
        await app.follow()
        await pilot.pause()
        assert len(app.entries) == before + 2
        assert any(row.text.startswith(f"spin {SPINS + 1}: result") for row in app.query_one("TimelinePane").rows)
        assert f"head: event {3 + 2 * SPINS}" in str(app.query_one("#journal-line", Static).render())
