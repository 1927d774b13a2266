"""The floor view shows what the floor holds: a tile per table with its state and last numbers,
the alarms with who acknowledged them, and each wheel's statistics; it never writes the store."""
from __future__ import annotations

import sys
from datetime import timedelta, timezone
from pathlib import Path

from hypothesis import given, strategies as st

from croupier.floor.ingester import Ingester
from croupier.floor.store import open_store
from croupier.floor.view import FloorView

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import NUMBERS, raw, write_shift  # noqa: E402
from test_floor_store import enrolled, messages, storing  # noqa: E402


def stored_shift(tmp_path, **opening) -> str:
    """A floor store holding one table's shift, T1, as the ingester stored it: its URL."""
    write_shift(tmp_path / "T1.db", **opening).close()
    url = str(tmp_path / "floor.db")
    with open_store(url) as store:
        Ingester(enrolled(store, tmp_path / "T1.db"), []).ingest(messages(tmp_path / "T1.db", "T1"))
        storing(store)
    return url


async def shown(url: str, *tables: str, presentation=None) -> dict[str, str]:
    """What the floor view, on the store read-only, shows: each table's tile, the alarms, the wheels."""
    with open_store(url, read_only=True) as store:
        app = FloorView(store, refresh_s=60, presentation=presentation)
        async with app.run_test(size=(160, 48)) as pilot:
            await app.workers.wait_for_complete()  # the store is read off the screen's thread
            await pilot.pause()
            return {name: str(app.query_one(f"#{name}").render())
                    for name in (*(f"tile-{table}" for table in tables), "alarms", "wheels")}


async def test_tiles_alarms_and_wheels_from_the_store(tmp_path):
    for table in ("T1", "T2"):
        write_shift(tmp_path / f"{table}.db").close()
    with raw(tmp_path / "T2.db") as conn:  # T2's last event altered: the floor raises an alarm
        conn.execute("UPDATE events SET body = replace(body, 'Ana', 'Rui') WHERE seq = (SELECT max(seq) FROM events)")
    url = str(tmp_path / "floor.db")
    with open_store(url) as store:
        ingester = Ingester(store, [])
        for table in ("T1", "T2"):
            enrolled(store, tmp_path / f"{table}.db", table)
            ingester.ingest(messages(tmp_path / f"{table}.db", table))
        storing(store)
        (alarm,) = store.alarms()
        store.acknowledge_alarm(alarm.table_id, alarm.event_seq, "Pit boss")
    before = (tmp_path / "floor.db").read_bytes()
    screen = await shown(url, "T1", "T2")
    t1, t2, alarms, wheels = screen["tile-T1"], screen["tile-T2"], screen["alarms"], screen["wheels"]
    assert "T1" in t1 and "OPEN" in t1 and "croupier Ana" in t1
    assert "last: " + " ".join(str(n) for n in reversed(NUMBERS)) in t1
    assert "chain broken at event" in t2
    assert f"T2 chain broken: at event {alarm.event_seq}" in alarms and "acknowledged on the floor by Pit boss at " in alarms
    assert f"T1: {len(NUMBERS)} spins" in wheels and "5% of wheel-years, however often it is looked at" in wheels
    assert (tmp_path / "floor.db").read_bytes() == before  # read-only


async def test_the_floor_view_in_portuguese(tmp_path):
    from croupier.i18n import install

    url = stored_shift(tmp_path)
    install("pt")
    screen = await shown(url, "T1")
    t1, alarms, wheels = screen["tile-T1"], screen["alarms"], screen["wheels"]
    assert "ABERTO" in t1 and "mínimo 5" in t1 and "últimos: 23 8 11" in t1 and "jogadas na última hora" in t1
    assert alarms == "Alarmes: nenhum"
    assert f"T1: {len(NUMBERS)} jogadas" in wheels and "Cilindros" in wheels
    assert not any(english in t1 + wheels for english in ("games in the last hour", "minimum", "last:", "spins"))


async def test_a_view_given_its_own_language_words_what_its_threads_read_in_it(tmp_path):
    # The tiles are worded in the thread that reads the store: in the view's language, not the process's.
    from croupier.i18n import Presentation

    url = stored_shift(tmp_path)
    screen = await shown(url, "T1", presentation=Presentation.of("pt"))
    assert "ABERTO" in screen["tile-T1"] and "últimos: 23 8 11" in screen["tile-T1"]
    assert screen["alarms"] == "Alarmes: nenhum" and "Cilindros" in screen["wheels"]


async def test_a_tile_shows_the_minimum_in_the_journals_currency(tmp_path):
    from croupier.i18n import install

    url = stored_shift(tmp_path, currency="CHF", time_zone="Europe/Zurich")
    install("it")
    screen = await shown(url, "T1")
    assert "minimo 5,00 CHF" in screen["tile-T1"]


async def test_the_store_is_read_off_the_screens_thread_and_a_failed_read_shows(tmp_path):
    import threading

    url = stored_shift(tmp_path)
    with open_store(url, read_only=True) as store:
        app = FloorView(store, refresh_s=60)
        readers = []
        picture = app.projection.picture

        def read_then_fail():
            readers.append(threading.current_thread())
            if len(readers) > 1:
                raise OSError("disk I/O error")
            return picture()

        app.projection.picture = read_then_fail
        async with app.run_test(size=(160, 48)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "T1" in str(app.query_one("#tile-T1").render())
            app.refresh_floor()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "STALLED: store unavailable (disk I/O error)" in str(app.query_one("#alarms").render())
            assert "T1" in str(app.query_one("#tile-T1").render())  # the last picture stays
        assert readers and all(thread is not threading.main_thread() for thread in readers)


@given(st.lists(st.tuples(st.datetimes(timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=-3)),
                                                                    timezone(timedelta(hours=5, minutes=45))])),
                          st.integers(0, 36)), max_size=40),
       st.datetimes(timezones=st.just(timezone(timedelta(hours=1)))), st.integers(0, 50))
def test_a_tiles_games_and_last_numbers_are_those_of_its_stored_results(results, since, count):
    """Counted as a tile shows them, from its results as stored (in any time zone, and out of order
    when the table's clock jumped back): the results after `since` from the newest back, and the
    newest numbers first."""
    import json

    from croupier.floor.summaries import TileFacts

    recent = [[spin, number, when.isoformat()] for spin, (when, number) in enumerate(results, 1)]
    tile = json.dumps({"open": True, "profile": None, "minimum": None, "croupier": None, "relief_due": None,
                       "recent": recent, "watch": {"spins": 0}, "problem": None})
    facts = TileFacts.read(len(recent), tile)
    games = 0
    for when, _number in reversed(results):
        if when <= since:
            break
        games += 1
    assert facts.games_since(since) == games
    assert facts.last_numbers(count) == tuple(number for _when, number in reversed(results))[:count]
