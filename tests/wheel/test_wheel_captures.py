"""Every real capture replays to exactly the results the wheel reported: no phantom, none missed."""
import json
import subprocess
import sys
from datetime import datetime, timezone

import pytest
from wheel_capture_scan import captures_dir, reported_results, status_at

from croupier.rules.spin import VoidReason
from croupier.wheel.events import WheelFault, WheelResult, WheelVoid
from croupier.wheel.replay import replay_file

CAPTURE_NAMES = [
    "ss2-production-185-games.log",
    "ss2-faults-and-commands.log",
    "ss2-protocol-session.log",
    "ss2-parameter-queries.log",
]


def stamp_of(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


@pytest.fixture(scope="module")
def replays():
    folder = captures_dir()
    return {name: list(replay_file(folder / name, "cammegh-ss2")) for name in CAPTURE_NAMES}


@pytest.mark.parametrize("name", CAPTURE_NAMES)
def test_capture_replays_to_the_results_the_wheel_reported(replays, name):
    expected = reported_results(captures_dir() / name)
    results = [e for e in replays[name] if isinstance(e, WheelResult)]
    assert [r.number for r in results] == [e.number for e in expected]
    # A state-5 line names its game: the decoder's game is that spin number.
    for result, reported in zip(results, expected):
        if reported.spin is not None:
            assert result.game == int(reported.spin)


def test_production_log_has_185_games(replays):
    # The count, checked against the independent scan too.
    assert len(reported_results(captures_dir() / "ss2-production-185-games.log")) == 185
    results = [e for e in replays["ss2-production-185-games.log"] if isinstance(e, WheelResult)]
    assert len(results) == 185


def test_production_log_proposes_no_void(replays):
    # Its warnings (flags 2 and 8) all come in state 2, before the launch: not a golpe nulo.
    assert not [e for e in replays["ss2-production-185-games.log"] if isinstance(e, WheelVoid)]


def test_production_log_fragments_are_faults_not_results(replays):
    faults = [e for e in replays["ss2-production-185-games.log"] if isinstance(e, WheelFault)]
    raws = {f.raw for f in faults}
    # The capture's damaged lines, as they are in the file.
    assert {"6; 9;0;158;0", "4;146; 9;0;159;0", "*X;4;14", "*X;"} <= raws
    # The stray "1" before the first status line (the tail of a line cut when the log started).
    assert any(f.raw == " 1" and "not a result" in f.message for f in faults)


def test_faults_log_voids_are_sensor_faults_seen_by_the_wheel(replays):
    path = captures_dir() / "ss2-faults-and-commands.log"
    voids = [e for e in replays["ss2-faults-and-commands.log"] if isinstance(e, WheelVoid)]
    assert voids
    for void in voids:
        assert void.reason is VoidReason.SENSOR_FAULT
        lines = status_at(path, stamp_of(void.time))
        # Each was proposed on a line in state 3 or 4 with warning flag 4 set (guide 2.5).
        assert any(m.group(1) in "34" and int(m.group(4), 16) & 4 for m in lines)


def test_results_come_from_reporting_lines_in_the_capture(replays):
    # No phantom: each result's time is the time of a line that says that number.
    path = captures_dir() / "ss2-production-185-games.log"
    text = path.read_text(encoding="latin-1")
    for result in (e for e in replays["ss2-production-185-games.log"] if isinstance(e, WheelResult)):
        stamp = stamp_of(result.time)
        said = {f"[{stamp}] Receive >>> {result.number}", f"[{stamp}] Receive >>> *X;5;{result.game:03d};{result.number:>2};"}
        assert any(s in text for s in said), stamp


def test_wheel_replay_json_lines(tmp_path):
    path = captures_dir() / "ss2-production-185-games.log"
    proc = subprocess.run(
        [sys.executable, "-m", "croupier", "wheel-replay", "--protocol", "cammegh-ss2", "--json", str(path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all("type" in o and isinstance(o["time"], float) for o in objects)
    results = [o for o in objects if o["type"] == "result"]
    assert len(results) == 185
    assert [o["number"] for o in results] == [e.number for e in reported_results(path)]
    assert not [o for o in objects if o["type"] == "void"]


def test_wheel_replay_text_skips_the_host_programs_own_lines():
    path = captures_dir() / "ss2-production-185-games.log"
    proc = subprocess.run(
        [sys.executable, "-m", "croupier", "wheel-replay", "--protocol", "cammegh-ss2", str(path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0
    assert "WARNING detected" not in proc.stdout and "start_time" not in proc.stdout
    assert "2025-09-16 06:45:24.407  result 28  game 2" in proc.stdout
