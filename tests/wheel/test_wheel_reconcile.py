"""The wheel's own record against the journal: the Slingshot's log pages as the guide gives them,
a simulated Slingshot answering `*s t`, `*s r` and `*W`, a headless table on it whose link misread
one result and lost another, and `croupier reconcile` naming both; then the captures."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from croupier.cli import main as cli
from croupier.wheel.history import JournalResult, Logged, LogError, WheelRecord, compare, decode_page, encode_page
from croupier.wheel.simulator import WheelSimulator

CAPTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "captures"


def test_a_log_page_reads_back_and_a_damaged_one_is_refused():
    entries = [Logged(0), Logged(36), Logged(9), Logged(17, misfire=True)]
    page = "*s r 0 " + encode_page(entries).decode("latin-1")
    assert page[7:11] == "!E*X"  # 0 -> 0x21, 36 -> 0x45, 9 -> '*', misfire 17 -> 0x21 + 38 + 17
    assert page[11:7 + 256] == "~" * 252
    assert decode_page(page, 0) == entries
    with pytest.raises(LogError, match="checksum"):
        decode_page(page[:8] + "\"" + page[9:], 0)
    with pytest.raises(LogError, match="not the reply"):
        decode_page(page, 1)


def result(spin, number, game=None, recorded=None):
    return JournalResult(spin, number, number if recorded is None else recorded, "sensor", game, f"t{spin}")


def test_every_difference_is_named_in_order():
    journal = [result(1, 5), result(2, 17, recorded=11), result(3, 22), result(5, 30)]
    wheel = [WheelRecord(n) for n in (8, 5, 11, 22, 4, 30)]  # 8: before the journal began
    found = [(d.kind, d.journal and d.journal.spin, d.wheel and d.wheel.number) for d in compare(journal, wheel)]
    assert found == [("number", 2, 11), ("wheel-only", None, 4)]


def test_game_numbers_line_up_where_both_have_them():
    journal = [result(1, 5, 7), result(2, 6, 9)]
    wheel = [WheelRecord(5, 7), WheelRecord(6, 8), WheelRecord(6, 9)]
    assert [(d.kind, d.wheel.game) for d in compare(journal, wheel)] == [("wheel-only", 8)]


def numbers_in(db: Path) -> list[int]:
    from croupier.journal.store import Journal, JournalError

    try:
        with Journal.open(db, read_only=True, create=False) as journal:
            return [record["number"] for _seq, record in journal.records(["result-recorded"])]
    except JournalError:
        return []


def test_reconcile_names_what_the_table_misheard_and_missed(tmp_path, capsys):
    # Game 0 is played while the table starts: it may hear it or not, and reconcile does not list a
    # wheel result from before the journal's first.
    sim = WheelSimulator("cammegh-ss2", speed=40, seed=3, games=7, results=[9, 1, 2, 3, 4, 5, 6], rest=True)
    sim.misread(9)
    sim.misread(1)  # game 1 as 1: heard right
    sim.misread(36)  # game 2: the table hears 36, the wheel logs 2
    sim.misread(3)
    sim.miss(1)  # game 4: the table hears no result
    device = sim.start()
    db, log = tmp_path / "journal.db", tmp_path / "run.log"
    with open(log, "wb") as out:
        table = subprocess.Popen([sys.executable, "-m", "croupier", "run", "--headless", "--db", str(db),
                                  "--profile", "pt-americana", "--wheel", f"cammegh-ss2:{device}"],
                                 stdout=out, stderr=out)
    try:
        assert sim.wait_for_games(7, 120), log.read_text()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                r == 6 for r in numbers_in(db)):  # the table records the last one
            time.sleep(0.1)
    finally:
        table.send_signal(signal.SIGTERM)
        table.wait(30)
    try:
        assert [entry.number for entry in sim.log] == [9, 1, 2, 3, 4, 5, 6]
        assert cli(["reconcile", "--db", str(db), "--wheel", f"cammegh-ss2:{device}", "--json"]) == 1
        found = json.loads(capsys.readouterr().out)
        assert cli(["reconcile", "--db", str(db), "--wheel", f"cammegh-ss2:{device}", "--language", "pt"]) == 1
        said = capsys.readouterr().out.splitlines()
    finally:
        sim.stop()
    heard_game_0 = found["journal_results"] == 6
    assert (found["journal_results"], found["wheel_results"]) in ((5, 7), (6, 7))
    assert [(d["kind"], d["journal_number"], d["wheel_number"], d["wheel_position"])
            for d in found["differences"]] == [("number", 36, 2, 3), ("wheel-only", None, 4, 5)]
    spin = 3 if heard_game_0 else 2
    assert found["differences"][0]["spin"] == spin and found["differences"][0]["text"].startswith(f"spin {spin} (")
    assert said[0].startswith(f"jogada {spin} (") and ": o diário conta 36 (cilindro); o resultado 3 do cilindro é 2" \
        in said[0]
    assert said[-1] == f"{found['journal_results']} resultados no diário, 7 no registo do cilindro: 2 diferenças"


def test_a_journal_played_from_a_capture_reconciles_with_it_and_keeps_its_lines(tmp_path, capsys):
    capture = CAPTURES / "ss2-production-185-games.log"
    if not capture.exists():
        pytest.skip(f"the shared captures are not beside the repository ({capture})")
    from croupier.commands.reconcile import logged_results
    from croupier.session import TableSession
    from croupier.sensor_table import SensorTable
    from croupier.table.clock import FakeClock
    from croupier.table.refusal import Refused
    from croupier.wheel.replay import replay_file
    from decimal import Decimal
    from croupier.table.events import Ball

    BALLS = (Ball(id="A", diameter_mm=Decimal(21)), Ball(id="B", diameter_mm=Decimal(21)))

    db = tmp_path / "journal.db"
    session = TableSession.open(db, FakeClock())
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="unattended",
                       sensor_only=True)
    sensor = SensorTable(session)
    refused = []
    for event in replay_file(capture, "cammegh-ss2"):
        try:
            sensor.handle(event)
        except Refused as refusal:  # as `run --headless` does: logged, and the table goes on
            refused.append(event.number)
            assert "again with" in str(refusal)  # a game number met again after a power cycle
    recorded = [e.event for e in session.journal.entries() if e.event.kind == "result-recorded"]
    assert recorded and all(result.wheel_lines for result in recorded)
    assert any(line.endswith(f" {recorded[0].number:>2}") for line in recorded[0].wheel_lines)  # the number line
    session.close()
    wheel = logged_results(str(capture), "cammegh-ss2")
    assert len(wheel) == len(recorded) + len(refused)
    assert cli(["reconcile", "--db", str(db), "--wheel-log", str(capture), "--protocol", "cammegh-ss2",
                "--json"]) == (1 if refused else 0)
    found = json.loads(capsys.readouterr().out)["differences"]
    assert [(d["kind"], d["wheel_number"]) for d in found] == [("wheel-only", n) for n in refused]


def test_a_journal_begun_after_the_wheel_pairs_its_first_result_with_the_wheels_next():
    # The table's reader started after the wheel's first game (7); its first result was misheard.
    journal = [result(1, 21), result(2, 30), result(3, 5)]
    wheel = [WheelRecord(n) for n in (7, 12, 30, 5)]
    assert [(d.kind, d.journal.spin, d.wheel.number, d.position) for d in compare(journal, wheel)] == [
        ("number", 1, 12, 2)]
