"""On a machine with several cores, `verify --key` checks a long chain in ranges, one process each,
up to the signed snapshot its fold starts from: it must say exactly what one pass says, intact or
naming the same first bad event, wherever the damage is (inside a range, at the event a range
starts from, at the first event of a range, an event deleted there)."""
from __future__ import annotations

import pytest

from croupier.journal import verify as verify_module
from croupier.journal.key import read_key
from croupier.journal.store import GENESIS, Journal

from journal_kit import copy_journal, raw, snapshots_every, write_shift


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """The shift of journal_kit (some 50 events) with a signed snapshot every 5 events."""
    path = tmp_path_factory.mktemp("pristine") / "journal.db"
    with snapshots_every(5):
        write_shift(path).close()
    return path


@pytest.fixture
def journal(pristine, tmp_path):
    return copy_journal(pristine, tmp_path / "journal.db")


def verdict(path, *, ranges: bool):
    key = read_key(path.with_name("table.key"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify_module, "PARALLEL_FROM", 4 if ranges else 10**9)
        patch.setattr(verify_module, "_cores", lambda: 4)
        with Journal.open(path, read_only=True, key=key) as opened:
            return verify_module.verify(opened, key)


def range_starts(path) -> list[int]:
    """The events the four ranges start after, as verify cuts the chain up to the fold's snapshot."""
    key = read_key(path.with_name("table.key"))
    with Journal.open(path, read_only=True, key=key) as opened:
        start = verify_module._checkpoint(opened, key)
    return [start.seq * part // 4 for part in range(4)]


def test_an_intact_journal_checked_in_ranges_gets_one_pass_verdict(journal):
    key = read_key(journal.with_name("table.key"))
    with Journal.open(journal, read_only=True, key=key) as opened, pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify_module, "PARALLEL_FROM", 4)
        patch.setattr(verify_module, "_cores", lambda: 4)
        start = verify_module._checkpoint(opened, key)
        ranges = verify_module._checked_in_ranges(opened, key, (0, GENESIS), start.seq)
    assert ranges is not None and ranges.intact  # the ranges did run
    assert ranges.events == start.seq and ranges.head == (start.seq, start.event_hash)
    whole = verdict(journal, ranges=False)
    assert whole.intact and whole.snapshots >= 10 and verdict(journal, ranges=True) == whole


@pytest.mark.parametrize("where", ["first event", "range start", "after a range start", "before a range start",
                                   "last before the fold"])
def test_an_altered_event_is_named_as_one_pass_names_it(journal, where):
    starts = range_starts(journal)
    seq = {"first event": 1, "range start": starts[2], "after a range start": starts[2] + 1,
           "before a range start": starts[2] - 1, "last before the fold": starts[-1] + (starts[1] - 1)}[where]
    with raw(journal) as conn:
        conn.execute("UPDATE events SET body = replace(body, '\"time\"', '\"time\" ') WHERE seq = ?", (seq,))
    whole = verdict(journal, ranges=False)
    assert not whole.intact and whole.bad_event == seq
    assert verdict(journal, ranges=True) == whole


def test_an_event_deleted_where_a_range_starts_is_named_as_one_pass_names_it(journal):
    seq = range_starts(journal)[1]
    with raw(journal) as conn:
        conn.execute("DELETE FROM events WHERE seq = ?", (seq,))
    whole = verdict(journal, ranges=False)
    assert not whole.intact and whole.bad_event == seq
    assert verdict(journal, ranges=True) == whole


def chain_verdict(path, *, on_cores: bool):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify_module, "PARALLEL_FROM", 4)
        patch.setattr(verify_module, "_cores", lambda: 4)
        with Journal.open(path, read_only=True) as opened:
            return verify_module.check_chain(opened, on_cores=on_cores)


@pytest.mark.parametrize("seq", [None, 1, 20, 53, 54])
def test_the_reviews_chain_check_on_every_core_says_what_one_pass_says(journal, seq):
    # The review checks the whole chain (no key, no fold) beside its screen; 54 is the last event.
    if seq is not None:
        with raw(journal) as conn:
            conn.execute("UPDATE events SET body = replace(body, '\"time\"', '\"time\" ') WHERE seq = ?", (seq,))
    one_pass = chain_verdict(journal, on_cores=False)
    assert one_pass.intact == (seq is None) and one_pass.bad_event == seq
    assert chain_verdict(journal, on_cores=True) == one_pass
