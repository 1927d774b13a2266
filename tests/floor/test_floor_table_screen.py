"""The attended table (the croupier's screen) on the floor: its journal reaches the floor's store
while the croupier works, and the floor's anchors come back into the journal, recorded by the
screen's own loop."""
from __future__ import annotations

import asyncio
import dataclasses
import sys
import time
from pathlib import Path

from croupier.config import FloorConfig
from croupier.floor.store import open_store
from croupier.sdnotify import Notifier
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import FloorAnchored
from croupier.ui.app import TableApp
from croupier.ui.runtime import Devices, floor_link

sys.path.insert(0, str(Path(__file__).parents[1] / "ui"))
from floor_kit import enrol_journal, floor_key, start_ingester, stop  # noqa: E402
from ui_kit import config_for, open_table, play_spins, register_staff  # noqa: E402


async def until(condition, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while not (value := condition()) and time.monotonic() < deadline:
        await asyncio.sleep(0.25)
    return value


async def test_the_table_screen_publishes_its_journal_and_records_the_floors_anchors(tmp_path, broker):
    config = config_for(tmp_path)
    store = str(tmp_path / "floor.db")
    config = dataclasses.replace(config, floor=FloorConfig(url=broker.url, floor_key=floor_key(tmp_path).with_suffix(".pub")),
                                 table=dataclasses.replace(config.table, id="T9"))
    with TableSession.open(config.journal_path, FakeClock()) as session:
        register_staff(session)
        open_table(session)
        play_spins(session, 17, 0)
    enrol_journal(store, config.journal_path, "T9")
    with open(tmp_path / "ingester.log", "w") as log:
        ingester = start_ingester(broker.url, store, log)
        try:
            with TableSession.open(config.journal_path, FakeClock()) as session:
                devices = Devices()
                devices.add(floor_link(config))
                app = TableApp(session, config, devices=devices)
                async with app.run_test(size=(80, 24)):
                    def stored_head():
                        try:
                            with open_store(store, read_only=True) as floor:
                                return floor.head("T9")
                        except Exception:  # the ingester has not made the store yet
                            return None

                    assert await until(lambda: stored_head() == session.journal.head), \
                        f"the floor holds {stored_head()}, the table {session.journal.head}"
                    anchored = await until(lambda: any(isinstance(entry.event, FloorAnchored)
                                                       for entry in session.journal.entries()))
                    assert anchored, "no anchor of the floor was recorded in the table's journal"
        finally:
            stop(ingester)


class RecordingNotifier(Notifier):
    def __init__(self):
        super().__init__(environ={})
        self.sent: list[str] = []

    def notify(self, *assignments: str) -> bool:
        self.sent += assignments
        return True


async def test_a_floor_link_that_cannot_start_leaves_the_table_playing_and_ready(tmp_path):
    """A floor key the table's user cannot read: the table says so and plays on, and systemd still
    hears READY (without it the unit is killed at its start timeout, again and again)."""
    config = config_for(tmp_path)
    config = dataclasses.replace(config, floor=FloorConfig(url="nats://192.0.2.7:4222", floor_key=tmp_path / "absent.pub"),
                                 table=dataclasses.replace(config.table, id="T9"))
    with TableSession.open(config.journal_path, FakeClock()) as session:
        register_staff(session)
        open_table(session)
        devices = Devices()
        devices.add(floor_link(config))
        notifier = RecordingNotifier()
        app = TableApp(session, config, devices=devices, notifier=notifier)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert await until(lambda: "READY=1" in notifier.sent, timeout=10)
            assert "The floor link did not start" in app._said[0] and app._said[1]
            play_spins(session, 17)
            assert session.state.last_result.number == 17, "the table records as usual"
