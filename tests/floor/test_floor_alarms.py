"""The tables' alarms are the floor's alarms: each alarm a table raises is a floor alarm as soon as
its event is stored, worded in the view's language with its table and kind; the table's own
acknowledgement reaches it, and a pit boss acknowledges it from the view or `floor acknowledge`
under a checked name."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from croupier.cli import main
from croupier.floor.alarms import name_problem, shown
from croupier.floor.ingester import Ingester
from croupier.floor.store import open_store
from croupier.floor.view import FloorView
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.alarms import acknowledge, wheel_fault

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import raw, write_shift  # noqa: E402
from test_floor_store import enrolled, messages, store_url  # noqa: E402,F401 (store_url: a fixture)


@pytest.fixture
def floor_with_a_wheel_fault(tmp_path):
    """T1 raised a wheel-fault alarm; the floor stored its events."""
    db = tmp_path / "T1.db"
    with write_shift(db) as session:
        session.run(wheel_fault, detail="the wheel sensor went silent for 3 s")
    url = str(tmp_path / "floor.db")
    with open_store(url) as store:
        Ingester(enrolled(store, db), []).ingest(messages(db, "T1"))
    return db, url


def test_a_tables_alarm_is_a_floor_alarm_with_its_kind_and_not_a_broken_chain(floor_with_a_wheel_fault):
    db, url = floor_with_a_wheel_fault
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
        assert (alarm.table_id, alarm.kind, alarm.acknowledged) == ("T1", "wheel-fault", None)
        assert "went silent" in alarm.problem
        assert store.table("T1").broken_at is None  # the chain is whole
        (item,) = shown(store)
        assert (item.table, item.kind, item.open) == ("T1", "wheel-fault", True)  # as every English reader words it


def test_the_tables_own_acknowledgement_reaches_the_floor(floor_with_a_wheel_fault):
    db, url = floor_with_a_wheel_fault
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    with TableSession.open(db, FakeClock()) as session:
        session.run(acknowledge, alarm=alarm.table_alarm, by="Ana")
    with open_store(url) as store:
        Ingester(store, []).ingest(messages(db, "T1", after=alarm.event_seq))
        (alarm,) = store.alarms()
    assert (alarm.acknowledged_by, alarm.acknowledged_at_table) == ("Ana", True)


async def test_the_view_words_it_in_its_language_and_a_pit_boss_acknowledges_it_there(floor_with_a_wheel_fault):
    from croupier.i18n import install

    _db, url = floor_with_a_wheel_fault
    install("pt")
    try:
        with open_store(url, read_only=True) as store:
            app = FloorView(store, refresh_s=60, writer_url=url)
            async with app.run_test(size=(160, 48)) as pilot:
                await pilot.pause()
                alarms = str(app.query_one("#alarms").render())
                assert "T1 Avaria do sensor do cilindro" in alarms and "aberto" in alarms
                await pilot.press("a")
                await until(pilot, lambda: app.screen.query("#number"))
                await pilot.press("1", "enter", *"[b]Rui", "enter")  # markup in a name: refused
                await until(pilot, lambda: "marcação" in str(app.screen.query_one("#problem").render()))
                app.screen.query_one("#name").value = ""
                await pilot.press(*"Rui Costa", "enter")
                await until(pilot, lambda: "Rui Costa" in str(app.query_one("#alarms").render()))
                # where, by whom and when, as Portuguese writes a date: 27/11/2026, 21:05
                assert re.search(r"\(visto na sala de jogo por Rui Costa em \d\d/\d\d/\d{4}, \d\d:\d\d\)",
                                 str(app.query_one("#alarms").render()))
    finally:
        install("en")
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    assert alarm.acknowledged_by == "Rui Costa"


async def test_a_view_that_only_reads_offers_no_acknowledgement_and_says_where_to_give_it(floor_with_a_wheel_fault):
    _db, url = floor_with_a_wheel_fault
    with open_store(url, read_only=True) as store:
        app = FloorView(store, refresh_s=60)  # as the browser's view runs: --read-only
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: "T1" in str(app.query_one("#alarms").render()))
            alarms = str(app.query_one("#alarms").render())
            assert "a: acknowledge" not in alarms and "croupier floor acknowledge" in alarms
            assert app.check_action("acknowledge", ()) is False  # not in the footer
            await pilot.press("a")
            await pilot.pause()
            assert not app.screen.query("#number")  # no dialog that could record nothing
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    assert alarm.acknowledged_by is None


async def test_an_acknowledgement_typed_all_at_once_lands_in_its_dialog(floor_with_a_wheel_fault):
    """Fast hands, or a browser's keys in one burst: `a 1 Enter maria Enter` all queued before the
    dialog is on screen reach it in order; none is lost, none quits the view (q) or opens another (a)."""
    from textual import events

    _db, url = floor_with_a_wheel_fault
    with open_store(url, read_only=True) as store:
        app = FloorView(store, refresh_s=60, writer_url=url)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: "T1" in str(app.query_one("#alarms").render()))
            for key in ("a", "1", "enter", *"Raquel", "enter"):
                event = events.Key(key, key if len(key) == 1 else None)
                event.set_sender(app)
                app._driver.send_message(event)
            await until(pilot, lambda: "Raquel" in str(app.query_one("#alarms").render()))
            assert app.is_running and "Raquel" in str(app.query_one("#alarms").render())
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    assert alarm.acknowledged_by == "Raquel"


@pytest.mark.parametrize("before", [("tab",), ("shift+tab",), ("enter",), ("tab", "enter", "shift+tab")])
async def test_keys_typed_on_the_view_just_before_a_are_none_of_the_dialogs(floor_with_a_wheel_fault, before):
    """Tab or Enter typed on the view, then at once `a 1 Enter name Enter`: the keys before `a` were
    the view's, and come back from it after the dialog opened; they must not move its boxes (the
    number typed into the name box) nor submit it."""
    from textual import events

    _db, url = floor_with_a_wheel_fault
    with open_store(url, read_only=True) as store:
        app = FloorView(store, refresh_s=60, writer_url=url)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: "T1" in str(app.query_one("#alarms").render()))
            for key in (*before, "a"):  # in one burst
                event = events.Key(key, key if len(key) == 1 else None)
                event.set_sender(app)
                app._driver.send_message(event)
            await until(pilot, lambda: app.screen.query("#number"))
            await pilot.pause()  # the keys before `a` back from the view
            await pilot.press("1", "enter", *"Raquel", "enter")
            await until(pilot, lambda: "Raquel" in str(app.query_one("#alarms").render()))
            assert app.is_running and len(app.screen_stack) == 1
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    assert alarm.acknowledged_by == "Raquel"


async def test_a_opens_the_dialog_as_it_is_read_before_the_next_key_is(floor_with_a_wheel_fault):
    """A browser's burst split across the moment the dialog opened (seen in Chromium on a loaded
    machine): `a` went to the view and back before it acted, the `1` read meanwhile went the same way
    and came back into the name box after an Enter read once the dialog was up."""
    from textual import events

    _db, url = floor_with_a_wheel_fault
    seen: list[str] = []

    class Watched(FloorView):
        async def on_event(self, event: events.Event) -> None:
            await super().on_event(event)
            if isinstance(event, events.Key) and not event.is_forwarded:  # as read, before the next key is
                seen.append(f"{event.key}: {type(self.screen).__name__}")

    with open_store(url, read_only=True) as store:
        app = Watched(store, refresh_s=60, writer_url=url)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: "T1" in str(app.query_one("#alarms").render()))
            await pilot.press("a")
            await until(pilot, lambda: seen)
    assert seen[0] == "a: AcknowledgeScreen"


@pytest.mark.parametrize("keys,after", [
    ("a\x1bq", "ended"),  # Escape before the dialog is on screen: q quits the view, not the dialog's letter
    ("1\x1bq", "ended"),  # in the dialog: q after Escape quits the view, not "1q" in the number box
    ("1\x1ba", "asked again"),  # a after Escape opens the dialog anew, its box empty
    ("1\x1b2", "view"),  # Escape and 2, read as "™": the dialog closes, 2 is the view's (no key)
    ("\x1bq", "ended"),  # on the view, no dialog: Escape, then q
    ("\x1ba", "asked again"),  # on the view: the Escape, back from the view, no longer closes the dialog a opened
    ("1a", "asked again"),  # a digit typed on the view before a is not the dialog's number
])
async def test_escape_typed_at_once_with_a_key_closes_the_dialog_before_the_key_acts(
        floor_with_a_wheel_fault, keys, after):
    """A browser's burst, or fast hands on a terminal: Escape and the key after it arrive together,
    read as one key (alt+q, or "™" for Escape and 2). Escape closes the dialog, nothing
    acknowledged, and the key acts on the view as if typed after it."""
    from typed_at_once import type_at_once

    from croupier.floor.view import AcknowledgeScreen

    _db, url = floor_with_a_wheel_fault
    with open_store(url, read_only=True) as store:
        app = FloorView(store, refresh_s=60, writer_url=url)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: "T1" in str(app.query_one("#alarms").render()))
            if keys.startswith("1\x1b"):
                await pilot.press("a")
                await until(pilot, lambda: app.screen.query("#number"))
            await type_at_once(app, pilot, keys)
            await until(pilot, lambda: not app.is_running or app.screen.query("#number") or after == "view")
            if after == "asked again":
                assert isinstance(app.screen, AcknowledgeScreen) and len(app.screen_stack) == 2
                assert app.screen.query_one("#number").value == ""
            elif after == "view":
                assert len(app.screen_stack) == 1 and app.is_running
            else:
                assert not app.is_running
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    assert alarm.acknowledged_by is None


async def test_the_view_ends_without_closing_a_store_under_a_read(floor_with_a_wheel_fault):
    """Textual does not wait for a thread's worker: the view closed the alarms' store while a read
    still used it, and SQLite ended the whole process (a segmentation fault in the suite)."""
    import threading
    import time

    _db, url = floor_with_a_wheel_fault
    said: list[str] = []
    reading = threading.Event()

    class SlowBoard:
        def read(self, store):
            said.append("read")
            store.close = lambda: said.append("closed")  # the store this read uses
            reading.set()
            time.sleep(0.5)
            said.append("read done")
            return []

    with open_store(url, read_only=True) as store:
        app = FloorView(store, refresh_s=60, writer_url=url)
        app._alarm_board = SlowBoard()
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, reading.is_set)
    assert said[:3] == ["read", "read done", "closed"]


async def until(pilot, condition, timeout: float = 10.0) -> None:
    """Let the app run until `condition()` holds (a loaded machine draws late), at most `timeout`."""
    for _ in range(int(timeout / 0.1)):
        if condition():
            return
        await pilot.pause(0.1)


@pytest.mark.parametrize("name", ["", " ", "x" * 61, "Rui\x1b[2J", "[red]Rui", "<b>Rui</b>", "Rui\u202e"])
def test_floor_acknowledge_checks_the_name_as_the_table_does(floor_with_a_wheel_fault, name, capsys):
    _db, url = floor_with_a_wheel_fault
    assert name_problem(name) is not None
    with pytest.raises(SystemExit) as exit:
        main(["floor", "acknowledge", "--table", "T1", "--event", "1", "--by", name, "--store", url])
    assert exit.value.code == 2
    with open_store(url, read_only=True) as store:
        assert all(alarm.acknowledged is None for alarm in store.alarms())


def test_floor_acknowledge_takes_a_tables_alarm(floor_with_a_wheel_fault, capsys):
    _db, url = floor_with_a_wheel_fault
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    assert main(["floor", "acknowledge", "--table", "T1", "--event", str(alarm.event_seq), "--by", "Marta",
                 "--store", url]) == 0
    with open_store(url, read_only=True) as store:
        (alarm,) = store.alarms()
    assert alarm.acknowledged_by == "Marta"


def test_a_wheel_unplugged_at_a_live_table_is_an_alarm_on_the_floor(tmp_path, broker):
    """A real nats-server, a headless table and the ingester: the wheel-fault alarm the table raises
    when its wheel goes away is a floor alarm as soon as it is stored (the view reads alarms every
    0.5 s). Prints how long after the table's commit the floor held it."""
    import time

    from croupier.journal.store import Journal
    from test_floor_attacks import a_floor

    with a_floor(tmp_path, broker) as floor:
        wheel = floor.wheel
        wheel.unplug()

        def committed():
            with Journal.open(floor.db, read_only=True) as journal:
                return [seq for seq, r in journal.records(["alarm-raised"]) if r["alarm_kind"] == "wheel-fault"]

        def on_floor():
            with open_store(floor.store, read_only=True) as store:
                return [a for a in store.alarms() if a.kind == "wheel-fault"]

        deadline = time.monotonic() + 30
        while not committed() and time.monotonic() < deadline:
            time.sleep(0.02)
        seen_at = time.monotonic()
        assert committed(), "the table raised no wheel-fault alarm"
        while not on_floor() and time.monotonic() < deadline:
            time.sleep(0.02)
        print(f"wheel-fault alarm on the floor {time.monotonic() - seen_at:.2f} s after the table committed it")
        (alarm,) = on_floor()
        assert alarm.event_seq == committed()[0] and alarm.table_id == "T9"


class CountingStore:
    """The store as the view's alarm reader sees it, counting the alarm and refusal rows it reads."""

    def __init__(self, store) -> None:
        self.store, self.rows = store, 0

    def alarm_changes(self, since: int = -1):
        changes = self.store.alarm_changes(since)
        self.rows += len(changes.alarms) + len(changes.refusals)
        return changes

    def event_body(self, table_id: str, seq: int):
        return self.store.event_body(table_id, seq)


def test_the_views_alarm_reads_take_only_what_changed_and_still_show_acknowledgements(store_url):
    from croupier.floor.alarms import AlarmBoard
    from croupier.floor.store import RefusedMessages

    url = store_url
    with open_store(url) as store:
        for seq in range(1, 31):
            store.raise_alarm("T1", seq, f"alarm {seq}", kind="wheel-fault", table_alarm=seq)
        store.append_many([], "2026-01-01T00:00:00+00:00",
                          refused=[RefusedMessages("croupier.table.T66.events", "unknown table", "no key", 3)])
    board = AlarmBoard()
    with open_store(url, read_only=True) as reader:
        counted = CountingStore(reader)
        assert len(board.read(counted)) == 31 and counted.rows == 31
        assert len(board.read(counted)) == 31 and counted.rows == 31  # nothing new: no row read
        with open_store(url) as store:
            store.raise_alarm("T1", 31, "alarm 31", kind="wheel-fault", table_alarm=31)
            assert store.acknowledge_alarm("T1", 5, "Ana")
            assert store.acknowledge_refusals("croupier.table.T66.events", "Rui") == 1
        items = board.read(counted)
        assert counted.rows == 31 + 3  # the new alarm, the one acknowledged, the refusal acknowledged
        assert len(items) == 32
        by = {(item.table, item.detail): item for item in items}
        assert by["T1", "alarm 5"].acknowledged_by == "Ana" and not by["T1", "alarm 5"].open
        refused = next(item for item in items if item.refusal is not None)
        assert (refused.acknowledged_by, refused.open) == ("Rui", False)
        with open_store(url) as store:  # more messages refused: a new alarm beside the acknowledged one
            store.append_many([], "2026-01-01T00:00:01+00:00",
                              refused=[RefusedMessages("croupier.table.T66.events", "unknown table", "no key", 2)])
        items = board.read(counted)
        assert counted.rows == 35 and len(items) == 33
        assert [i.refusal.messages for i in items if i.refusal is not None and i.open] == [2]
        assert [item.detail for item in items if item.open][:1] == ["alarm 1"]  # open ones first, oldest first


def relief_and_swap_ended_at_the_table(db: Path, store, then=lambda session: None) -> None:
    """T1's relief and ball swap overdue after 61 min; the ball's taken up on the floor by Marta, then
    Rui relieves Ana and swaps the ball (and `then`), all stored."""
    from croupier.table.events import Role

    clock = FakeClock()
    session = write_shift(db, clock)
    session.register_staff(name="Rui", role=Role.CROUPIER, pin="2222", by="Boss", by_pin="9000")
    clock.advance(minutes=61)
    session.tick()
    ingester = Ingester(enrolled(store, db), [])
    ingester.ingest(messages(db, "T1"))
    alarms = {alarm.kind: alarm for alarm in store.alarms(open_only=True)}
    assert set(alarms) == {"relief-overdue", "ball-swap-overdue"}
    assert store.acknowledge_alarm("T1", alarms["ball-swap-overdue"].event_seq, "Marta")
    clock.advance(minutes=2)
    session.relieve(role=Role.CROUPIER, incoming="Rui", pin="2222")
    session.swap_ball(by="Rui")
    then(session)
    session.close()
    ingester.ingest(messages(db, "T1", after=store.head("T1")[0]))


def test_an_alarm_the_tables_own_procedure_ends_ends_on_the_floor_saying_why(tmp_path, store_url, machine_zone):
    """Overdue relief and ball swap alarms on the floor; the table's relief and swap end them there
    (no one acknowledges them on the floor), each saying why and when in the view's language, the
    times in the view's zone. The ball's was taken up on the floor first: the view says both."""
    from croupier.i18n import install

    machine_zone("Europe/Rome")  # the view's machine: UTC+01:00 in January, when the table played
    with open_store(store_url) as store:
        relief_and_swap_ended_at_the_table(tmp_path / "T1.db", store)
        assert store.alarms(open_only=True) == []
        by = {alarm.kind: (alarm.acknowledged_by, alarm.acknowledged_at_table) for alarm in store.alarms()}
        assert by == {"relief-overdue": ("Rui", True), "ball-swap-overdue": ("Marta", False)}
        words = {item.kind: (item.open, item.answer) for item in shown(store)}
        assert words == {"relief-overdue": (False, "ended at the table: relief done by Rui"),
                         "ball-swap-overdue": (False, "ended at the table: ball swapped by Rui")}
        from croupier.floor.view import alarms_text
        text = alarms_text(shown(store))
        # Marta took it up now, on the floor's clock; the table's swap and relief at 16:11 in Rome
        # (15:11 UTC by the table's clock).
        marta = next(a.acknowledged for a in store.alarms() if a.acknowledged_by == "Marta")
        assert (f"(acknowledged on the floor by Marta at {in_rome(marta)}; "
                "ended at the table: ball swapped by Rui, at 6 Jan 2025, 16:11)") in text
        assert "(ended at the table: relief done by Rui, at 6 Jan 2025, 16:11)" in text
        install("pt")
        try:
            worded = {item.answer for item in shown(store)}
            text = alarms_text(shown(store))
        finally:
            install("en")
    assert worded == {"terminado na mesa: rendição feita por Rui", "terminado na mesa: bola trocada por Rui"}
    assert "(terminado na mesa: rendição feita por Rui, em 06/01/2025, 16:11)" in text


def test_the_view_says_when_a_broken_chain_was_taken_up_and_its_table_resumed(tmp_path, store_url, machine_zone):
    from croupier.floor.view import alarms_text

    machine_zone("Europe/Rome")
    db = tmp_path / "T2.db"
    write_shift(db).close()
    with raw(db) as conn:  # T2's last event altered: its chain breaks on the floor
        conn.execute("UPDATE events SET body = replace(body, 'Ana', 'Rui') WHERE seq = (SELECT max(seq) FROM events)")
    with open_store(store_url) as store:
        Ingester(enrolled(store, db, "T2"), []).ingest(messages(db, "T2"))
        (alarm,) = store.alarms()
        assert store.acknowledge_alarm("T2", alarm.event_seq, "Marta")
        assert store.resume("T2", "Boss") == alarm.event_seq
        (alarm,) = store.alarms()
        text = alarms_text(shown(store))
    assert (f"(acknowledged on the floor by Marta at {in_rome(alarm.acknowledged)}; "
            f"table resumed by Boss at {in_rome(alarm.resumed)})") in text


def test_a_clock_jump_says_its_times_as_the_view_says_its_others(tmp_path, store_url, machine_zone):
    """The table's record says when its system clock jumped in UTC, as ISO 8601 writes it; the view
    says those times in its language and time zone, English too, as it says every other time."""
    from datetime import datetime, timezone

    from croupier.floor.view import alarms_text
    from croupier.i18n import install
    from croupier.table.timekeeping import clock_jumped

    machine_zone("Europe/Rome")  # the view's machine: UTC+01:00 in January
    db = tmp_path / "T1.db"
    with write_shift(db) as session:
        session.run(clock_jumped, wall=datetime(2025, 1, 6, 7, 1, 40, tzinfo=timezone.utc),
                    table=datetime(2025, 1, 6, 9, 1, 40, tzinfo=timezone.utc))
    with open_store(store_url) as store:
        Ingester(enrolled(store, db), []).ingest(messages(db, "T1"))
        english = alarms_text(shown(store))
        install("pt")
        try:
            portuguese = alarms_text(shown(store))
        finally:
            install("en")
    assert ("clock-jumped: system clock: The system clock jumped back: it read 6 Jan 2025, 08:01:40 when the "
            "table's clock read 6 Jan 2025, 10:01:40; the table keeps its own time") in english
    assert ("O relógio do sistema saltou para trás: marcava 06/01/2025, 08:01:40 quando o relógio da mesa marcava "
            "06/01/2025, 10:01:40;") in portuguese
    assert "UTC" not in english + portuguese and "2025-01-06T" not in english


def test_floor_status_and_the_alarm_log_say_how_and_when_each_alarm_ended(tmp_path, store_url):
    """An overdue relief ended at the table by the relief; an overdue ball swap taken up on the floor
    by Marta, then ended at the table by the swap; a wheel fault still open: `floor status` (and its
    JSON) and, in PostgreSQL, the view floor_alarm_log say where each was taken up, by whom, by which
    of the table's events and when, in the view's language where worded."""
    from datetime import datetime

    from croupier.floor.status import floor_status, format_status
    from croupier.i18n import install

    with open_store(store_url) as store:
        relief_and_swap_ended_at_the_table(tmp_path / "T1.db", store, lambda session: session.run(
            wheel_fault, detail="the wheel sensor went silent for 3 s"))
        ended_at = {kind: store.links("T1", alarm.answer_seq - 1, alarm.answer_seq) for kind, alarm in
                    ((a.kind, a) for a in store.alarms() if a.answer_seq is not None)}
        ended_at = {kind: datetime.fromisoformat(next(iter(links)).time)  # the events' own times
                    for kind, links in ended_at.items()}
        status = floor_status(store)
        by_kind = {alarm["kind"]: alarm for alarm in status["alarms"]}
        relief, swap, fault = by_kind["relief-overdue"], by_kind["ball-swap-overdue"], by_kind["wheel-fault"]
        assert (relief["acknowledged_where"], relief["answer"]["kind"], relief["answer"]["by"]) == ("table", "relief", "Rui")
        assert datetime.fromisoformat(relief["answer"]["time"]) == ended_at["relief-overdue"]
        assert relief["ended"] == "ended at the table: relief done by Rui, at " + seconds(ended_at["relief-overdue"])
        assert (swap["acknowledged_where"], swap["acknowledged_by"], swap["answer"]["kind"]) == ("floor", "Marta", "ball-swap")
        assert swap["ended"].startswith("acknowledged on the floor by Marta at ")
        assert swap["ended"].endswith("; ended at the table: ball swapped by Rui, at "
                                      + seconds(ended_at["ball-swap-overdue"]))
        assert (fault["acknowledged_where"], fault["answer"], fault["ended"]) == (None, None, "open")
        text = format_status(status)
        assert f"relief-overdue: {relief['problem']} ({relief['ended']})" in text
        assert f"({swap['ended']})" in text and "wheel sensor went silent for 3 s (open)" in text
        install("pt")
        try:
            worded = {alarm["kind"]: alarm["ended"] for alarm in floor_status(store)["alarms"]}
        finally:
            install("en")
        assert worded["relief-overdue"].startswith("terminado na mesa: rendição feita por Rui, em ")
        assert worded["ball-swap-overdue"].startswith("visto na sala de jogo por Marta em ")
        assert worded["wheel-fault"] == "aberto"
    if not store_url.startswith("postgresql://"):
        return
    import psycopg

    with psycopg.connect(store_url, autocommit=True) as conn:
        log = {row[0]: row[1:] for row in conn.execute(
            "SELECT kind, acknowledged_where, acknowledged_by, answer, answered_by, answered, answer_note "
            "FROM floor_alarm_log WHERE table_id = 'T1'").fetchall()}
    assert log["relief-overdue"][:4] == ("table", "Rui", "relief", "Rui")
    assert log["relief-overdue"][4] == ended_at["relief-overdue"]
    assert log["ball-swap-overdue"][:4] == ("floor", "Marta", "ball-swap", "Rui")
    assert log["wheel-fault"] == (None, None, None, None, None, None)


def in_rome(stored: str) -> str:
    """A time the store keeps, as the English view on a machine in Rome writes it: 6 Jan 2025, 16:11."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    return f"{datetime.fromisoformat(stored).astimezone(ZoneInfo('Europe/Rome')):%-d %b %Y, %H:%M}"


def seconds(when) -> str:
    return when.isoformat(timespec="seconds")


def test_refusals_over_many_subjects_are_counted_on_a_bounded_number_of_alarms(store_url):
    """A few subjects get an alarm each; beyond them, one alarm per reason counts the others and
    names the first few; once a pit boss took it up, the next ones start another."""
    from croupier.floor.store import EXAMPLES, OTHER_SUBJECTS, SUBJECTS_APART, RefusedMessages

    def flood(first: int, count: int) -> list[RefusedMessages]:
        return [RefusedMessages(f"croupier.table.X{n}.events", "unknown table", f"no key is enrolled for X{n}", 2)
                for n in range(first, first + count)]

    with open_store(store_url) as store:
        store.append_many([], "2026-01-01T00:00:00+00:00", refused=flood(0, 30))
        store.append_many([], "2026-01-01T00:00:01+00:00", refused=flood(30, 70))
        store.append_many([], "2026-01-01T00:00:02+00:00", refused=flood(0, 3))  # subjects with their own alarm
        refusals = store.refusals()
        assert len(refusals) == SUBJECTS_APART + 1
        (others,) = [r for r in refusals if r.subject == OTHER_SUBJECTS]
        assert others.messages == 2 * (100 - SUBJECTS_APART)
        assert sum(r.messages for r in refusals) == 2 * 103
        examples = [f"croupier.table.X{n}.events" for n in range(SUBJECTS_APART, SUBJECTS_APART + EXAMPLES)]
        (item,) = [item for item in shown(store) if item.refusal is not None and item.refusal.subject == OTHER_SUBJECTS]
        assert (item.table, item.open) == ("other subjects", True)
        assert item.detail == ("unknown table: 180 message(s) on subjects beyond those listed, among them: "
                               + ", ".join(examples))
        assert store.acknowledge_refusals(OTHER_SUBJECTS, "Rui") == 1
        store.append_many([], "2026-01-01T00:00:03+00:00", refused=flood(200, 2))
        assert [(r.messages, r.acknowledged_by) for r in store.refusals() if r.subject == OTHER_SUBJECTS] == [
            (180, "Rui"), (4, None)]
