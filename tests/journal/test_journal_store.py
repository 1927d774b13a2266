"""The journal file: append-only in the database itself, durable transactions, refusals that
leave a file that is not a journal untouched."""
import hashlib
import sqlite3
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from croupier.journal.store import GENESIS, Journal, JournalBusy, JournalError, UnreadableEvent
from croupier.table.events import PlayerWaiting, TableClosed, decode

T0 = datetime(2025, 3, 1, 20, 0, tzinfo=timezone.utc)


def waiting(n: int) -> PlayerWaiting:
    return PlayerWaiting(time=T0, player=f"player {n}")


def test_appended_events_read_back_in_order_with_a_chain_computed_by_hand(tmp_path):
    with Journal.open(tmp_path / "j.db") as journal:
        journal.append([waiting(1), waiting(2)])
        journal.append([TableClosed(time=T0, by="Ana")])
        rows = list(journal.rows())
    assert [r.seq for r in rows] == [1, 2, 3]
    prev = GENESIS
    for row in rows:
        # SHA-256 over the previous hash and every column: sequence number, time, kind, canonical body.
        expected = hashlib.sha256(f"{prev}\n{row.seq}\n{row.time}\n{row.kind}\n{row.body}".encode()).hexdigest()
        assert (row.prev_hash, row.hash) == (prev, expected)
        prev = row.hash
    assert decode(rows[2].body) == TableClosed(time=T0, by="Ana")
    assert rows[0].body == ('{"kind":"player-waiting","player":"player 1",'
                            '"time":"2025-03-01T20:00:00.000000+00:00"}')


def test_the_file_itself_refuses_update_and_delete(tmp_path):
    path = tmp_path / "j.db"
    with Journal.open(path) as journal:
        journal.append([waiting(1)])
        journal.write_snapshot(1, 1, b"{}")
    raw = sqlite3.connect(path)
    for sql in ("UPDATE events SET body = '{}'", "DELETE FROM events", "UPDATE snapshots SET state = 'x'",
                "DELETE FROM snapshots", "UPDATE meta SET value = 'x'", "DELETE FROM meta"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute(sql)
    raw.close()


def test_journal_is_in_wal_mode_with_full_sync(tmp_path):
    with Journal.open(tmp_path / "j.db") as journal:
        assert journal._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_read_only_journal_refuses_every_write(tmp_path):
    path = tmp_path / "j.db"
    with Journal.open(path) as journal:
        journal.append([waiting(1)])
    with Journal.open(path, read_only=True) as journal:
        with pytest.raises(JournalError, match="read-only"):
            journal.append([waiting(2)])
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            journal._conn.execute("INSERT INTO meta VALUES ('x', 'y')")
        assert [r.seq for r in journal.rows()] == [1]


def test_a_file_that_is_not_a_journal_is_refused_and_left_byte_for_byte(tmp_path):
    for name, content in (("text.db", b"shift notes\n" * 300), ("empty.db", b"")):
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(JournalError, match="Nothing was written") as refused:
            Journal.open(path)
        assert str(path) in str(refused.value)
        assert path.read_bytes() == content
        assert not (tmp_path / f"{name}-wal").exists()


def test_another_sqlite_database_is_not_taken_for_a_journal(tmp_path):
    path = tmp_path / "other.db"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE notes (text)")
    other.commit()
    other.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="not a croupier journal"):
        Journal.open(path)
    assert path.read_bytes() == before


def test_missing_journal_is_an_error_when_reading_and_created_when_writing(tmp_path):
    with pytest.raises(JournalError, match="no such journal"):
        Journal.open(tmp_path / "none.db", read_only=True)
    with pytest.raises(JournalError, match="does not exist"):
        Journal.open(tmp_path / "no-folder" / "j.db")
    with Journal.open(tmp_path / "new.db") as journal:
        assert journal.head == (0, GENESIS)


def test_two_writers_cannot_interleave_their_chains(tmp_path):
    path = tmp_path / "j.db"
    first = Journal.open(path)
    with pytest.raises(JournalBusy, match="being written by another program"):
        Journal.open(path)  # croupier's second writer never gets the file
    first.append([waiting(1)])
    other = sqlite3.connect(path, isolation_level=None)  # a program that ignores the lock
    other.execute("INSERT INTO events (seq, time, kind, body, prev_hash, hash, mac) VALUES (2, '', '', '', '', '', '')")
    other.close()
    with pytest.raises(JournalError, match="another program"):
        first.append([waiting(2)])
    first.close()


def test_a_failed_append_records_none_of_its_events(tmp_path):
    with Journal.open(tmp_path / "j.db") as journal:
        journal.append([waiting(1)])
        with pytest.raises(UnreadableEvent, match="table-closed event would not read back .*no time zone"):
            journal.append([waiting(2), TableClosed(time=datetime(2025, 3, 1), by="x")])
        assert [r.seq for r in journal.rows()] == [1]
        journal.append([waiting(3)])
        assert [r.seq for r in journal.rows()] == [1, 2]


def test_records_reads_plain_bodies_of_the_chosen_kinds(tmp_path):
    with Journal.open(tmp_path / "j.db") as journal:
        journal.append([waiting(1), TableClosed(time=T0, by="Ana"), waiting(2)])
        assert [(seq, r["player"]) for seq, r in journal.records(["player-waiting"])] == [(1, "player 1"),
                                                                                           (3, "player 2")]


def test_an_event_that_would_not_read_back_is_refused_and_nothing_is_written(tmp_path):
    from croupier.table.events import SignChanged

    with Journal.open(tmp_path / "j.db") as journal:
        journal.append([waiting(1)])
        head = journal.head
        bad = SignChanged(time=Decimal("150"), sign={}, previous={}, reason="busy", by="Marta")  # the old sign.py bug
        with pytest.raises(UnreadableEvent, match=r"^[^\n]*a sign-changed event would not read back [^\n]*nothing "
                                                  r"was recorded$"):
            journal.append([waiting(2), bad])
        assert journal.head == head and [r.seq for r in journal.rows()] == [1]
        assert journal.witness().seq == 1


def test_an_event_no_clock_stamped_is_never_recorded(tmp_path):
    with Journal.open(tmp_path / "j.db") as journal:
        with pytest.raises(UnreadableEvent, match="player-waiting has no time: an event is stamped by the table's clock"):
            journal.append([PlayerWaiting(player="seat 1")])
        assert list(journal.rows()) == []


def test_records_of_a_time_range_follow_the_recorded_order_across_a_clock_set_back(tmp_path):
    from datetime import timedelta

    from croupier.commands.report import in_range, time_range
    from croupier.i18n import current, present
    from croupier.table.events import stamped

    present(current().in_zone("UTC"))
    day = datetime(2025, 1, 7, tzinfo=timezone.utc)
    times = [day - timedelta(minutes=10), day + timedelta(minutes=10),
             day - timedelta(hours=1, minutes=50),  # the clock set back 2 h after midnight
             day + timedelta(minutes=30)]
    with Journal.open(tmp_path / "j.db") as journal:
        for n, moment in enumerate(times, 1):
            journal.append(stamped([PlayerWaiting(player=f"player {n}")], moment))
        on_the_7th = time_range(day.date(), day.date())
        on_the_6th = time_range((day - timedelta(days=1)).date(), (day - timedelta(days=1)).date())
        assert [seq for seq, _ in journal.events([PlayerWaiting], times=on_the_7th)] == [2, 3, 4]
        assert [seq for seq, _ in journal.events([PlayerWaiting], times=on_the_6th)] == [1]
        every = list(journal.events([PlayerWaiting]))
        assert [seq for seq, _ in in_range(every, day.date(), day.date())] == [2, 3, 4]
        assert [seq for seq, _ in in_range(every, (day - timedelta(days=1)).date(), None)] == [1, 2, 3, 4]
