"""The timeline's filter words and the shifts of a journal."""
from datetime import timedelta

import pytest
from review_shift import START, at, shift_events
from typed_at_once import type_at_once

from croupier.journal.store import Journal
from croupier.review.app import ReviewApp
from croupier.review.shifts import list_shifts, load_entries, open_read_only, shift_of
from croupier.history.timeline import parse_filter, timeline
from croupier.table import events as ev


def local(minutes: float) -> str:
    return at(minutes).astimezone().strftime("%H:%M")


def test_time_filter_keeps_the_events_between_two_clock_times(shift_journal):
    with open_read_only(shift_journal) as journal:
        rows = timeline(load_entries(journal, list_shifts(journal)[0]))
    # From 20:30 (Ana relieved by Rui) to 21:00 (the ball swap, included: its minute is named), in local time.
    chosen = parse_filter(f"from:{local(30)} to:{local(60)}")
    kept = [row for row in rows if chosen.matches(row)]
    assert kept[0].text == "croupier relief: Ana -> Rui"
    assert kept[-1].text == "ball swapped B1 -> B2 by Rui"
    assert all(START + timedelta(minutes=30) <= row.time < START + timedelta(minutes=61) for row in kept)


@pytest.mark.parametrize("words,message", [
    ("croupier", "write filters as key:value"),
    ("table:7", "unknown filter 'table'"),
    ("from:25:99", "'25:99' is not a clock time"),
    ("kind:result-recorded,lunch", "'lunch' is not an event type"),
])
def test_filter_words_it_cannot_read_are_named(words, message):
    with pytest.raises(ValueError, match=message):
        parse_filter(words)


def test_colour_and_color_both_filter_by_chip_colour():
    assert parse_filter("color:red").colour == parse_filter("colour:red").colour == "red"


@pytest.fixture
def two_shifts(shift_journal):
    day = timedelta(days=1)
    with Journal.open(shift_journal) as journal:
        first = shift_events()
        opening = next(e for e in first if isinstance(e, ev.TableOpened))
        journal.append([ev.TableOpened(time=opening.time + day, profile="pt-americana", minimum=opening.minimum,
                                       colours=opening.colours, balls=opening.balls, ball_in_play="B2",
                                       croupier="Eva", by="Marta"),
                        ev.TableClosed(time=opening.time + day + timedelta(hours=1), by="Marta")])
    return shift_journal


def test_a_journal_is_cut_at_each_opening(two_shifts):
    with open_read_only(two_shifts) as journal:
        shifts = list_shifts(journal)
    assert [(s.first_seq, s.last_seq) for s in shifts] == [(1, 38), (39, 40)]
    assert shift_of(shifts, 12).number == 1 and shift_of(shifts, 40).number == 2


async def test_the_app_opens_on_the_latest_shift_and_pages_back(two_shifts):
    app = ReviewApp(open_read_only(two_shifts))
    async with app.run_test(size=(140, 45)) as pilot:
        assert app.shift.number == 2
        assert app.query_one("#timeline-table").row_count == 2
        await pilot.press("left_square_bracket")
        assert app.shift.number == 1 and app.query_one("#timeline-table").row_count == 38
        await pilot.press("left_square_bracket")
        assert app.shift.number == 1  # nothing earlier: it stays, and says so


def test_a_croupier_s_name_with_a_space_is_one_filter_value():
    chosen = parse_filter("croupier:Croupier 1 kind:result-recorded")
    assert chosen.croupier == "Croupier 1" and chosen.kinds == {"result-recorded"}


def test_to_takes_in_the_whole_minute_it_names(shift_journal):
    with open_read_only(shift_journal) as journal:
        rows = timeline(load_entries(journal, list_shifts(journal)[0]))
    # Spin 1's result came at 20:03:30: "to:20:03" keeps it, "to:20:03:29" does not.
    result = next(row for row in rows if row.kind == "result-recorded")
    assert parse_filter(f"to:{local(3)}").matches(result)
    assert not parse_filter(f"to:{at(3).astimezone():%H:%M}:29").matches(result)
    assert parse_filter(f"from:{local(3)} to:{local(3)}").matches(result)


@pytest.mark.parametrize("keys,pane", [("[3", "procedures"), ("[4[6", "statistics"), ("3[5", "croupiers"),
                                       ("6[4]3", "procedures")])
async def test_the_last_tab_typed_while_shifts_load_is_the_tab_shown(two_shifts, keys, pane):
    # Fast hands: shifts and tabs typed back to back, all queued before the first is handled. The
    # last tab asked for is the one on screen once all is handled, not one an earlier key put back.
    app = ReviewApp(open_read_only(two_shifts))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        await type_at_once(app, pilot, keys)
        assert app.shift.number == (2 if "]" in keys else 1)
        assert app.query_one("#tabs").active == pane
