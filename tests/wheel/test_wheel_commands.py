"""`croupier wheel-sim` and `croupier wheel-replay` as a user runs them."""
import json
import os
import subprocess
import sys

import pytest

from croupier.commands import wheel_replay


def croupier(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "croupier", *args], capture_output=True, text=True, timeout=timeout)


def test_replay_of_raw_lines(tmp_path):
    capture = tmp_path / "raw.log"
    capture.write_bytes(b"*X;4;003;12;0;170;1\r\n*X;4;003;12;0;170;1\r\n 7\r\n*X;5;003; 7;0;170;1\r\n")
    proc = croupier("wheel-replay", "--protocol", "cammegh-ss2", "--json", str(capture))
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    [result] = [o for o in objects if o["type"] == "result"]
    # Raw lines carry no time: they are taken 500 ms apart, the number line is the third.
    assert (result["number"], result["game"], result["time"], result["direction"]) == (7, 3, 1.0, "anticlockwise")


def test_replay_prints_voids_with_their_reason(tmp_path):
    capture = tmp_path / "void.log"
    capture.write_text(
        "[2025-09-16 06:44:56.581] Receive >>> *X;3;002;31;2;170;0\n"
        "[2025-09-16 06:44:56.581] Receive >>> *X;2 WARNING detected! Sending error signal...\n"
        "[2025-09-16 06:44:57.078] Send <<< *R\n"
    )
    proc = croupier("wheel-replay", "--protocol", "cammegh-ss2", "--json", str(capture))
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["type"] for o in objects] == ["state", "void"]  # the host's message and command are skipped
    assert objects[1]["reason"] == "same-direction" and objects[1]["game"] == 2


def test_replay_with_a_minimum_of_revolutions(tmp_path):
    capture = tmp_path / "m360x.log"
    capture.write_bytes(
        b"*X;4;000;  ;0;250;0;0022;04;1;0A000;??\r\n 9\r\n*X;5;001; 9;0;250;0;0122;04;?;?????; 9\r\n"
    )
    proc = croupier("wheel-replay", "--protocol", "cammegh-m360-extended", "--min-revolutions", "5", "--json", str(capture))
    kinds = [(o["type"], o.get("reason"), o.get("number")) for o in map(json.loads, proc.stdout.splitlines())]
    assert ("void", "too-few-revolutions", None) in kinds and ("void-number", "too-few-revolutions", 9) in kinds
    assert "result" not in [kind for kind, *_ in kinds]


def test_replay_refuses_a_damaged_capture_line_naming_it(tmp_path):
    capture = tmp_path / "bad.log"
    capture.write_text("[2025-09-16 06:44:56.581] Receive >>> *X;2;002;31;0;170;0\ngarbage here\n")
    proc = croupier("wheel-replay", "--protocol", "cammegh-ss2", str(capture))
    assert proc.returncode == 1
    assert f"{capture}:2: not a capture line" in proc.stderr


def test_replay_of_a_missing_file():
    proc = croupier("wheel-replay", "--protocol", "line", "/nonexistent/capture.log")
    assert proc.returncode == 1 and "cannot read /nonexistent/capture.log" in proc.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--protocol", "cammegh-ss3", "x"], "invalid choice: 'cammegh-ss3'"),
        (["x"], "--protocol"),
    ],
)
def test_replay_bad_arguments(args, message):
    proc = croupier("wheel-replay", *args)
    assert proc.returncode == 2 and message in proc.stderr


def test_replay_bad_minimum(tmp_path, capsys):
    capture = tmp_path / "empty.log"
    capture.write_bytes(b"")
    assert wheel_replay.main(["--protocol", "line", "--min-revolutions", "0", str(capture)]) == 1
    assert "--min-revolutions must be 1 or more" in capsys.readouterr().err


def test_replay_profile_gives_its_minimum(tmp_path, monkeypatch, capsys):
    # The rules engine's load_profile(id).min_ball_revolutions (RU 4.12: 5).
    class Profile:
        min_ball_revolutions = 5

    class Profiles:
        @staticmethod
        def load_profile(profile_id):
            if profile_id != "ru-american":
                raise KeyError(f"unknown profile {profile_id!r}")
            return Profile()

    monkeypatch.setattr(wheel_replay.importlib, "import_module", lambda name: Profiles)
    capture = tmp_path / "m360x.log"
    capture.write_bytes(b"*X;4;000;  ;0;250;0;0022;04;1;0A000;??\r\n 9\r\n*X;5;001; 9;0;250;0;0122;04;1;0A000; 9\r\n")
    assert wheel_replay.main(["--protocol", "cammegh-m360-extended", "--profile", "ru-american", "--json", str(capture)]) == 0
    assert '"too-few-revolutions"' in capsys.readouterr().out
    assert wheel_replay.main(["--protocol", "cammegh-m360-extended", "--profile", "nowhere", str(capture)]) == 1
    assert "profile 'nowhere'" in capsys.readouterr().err


def test_wheel_sim_prints_its_device_then_the_games_it_played(tmp_path):
    link = tmp_path / "wheel"
    proc = croupier(
        "wheel-sim", "--protocol", "cammegh-ss2", "--speed", "200", "--games", "2", "--results", "17,0",
        "--seed", "1", "--link", str(link),
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == str(link)
    assert lines[1].startswith("game 1: 17 (") and lines[2].startswith("game 2: 0 (")
    assert not os.path.lexists(link)  # removed when the simulator stops


def test_wheel_sim_serves_a_reader(tmp_path):
    link = tmp_path / "wheel"
    sim = subprocess.Popen(
        [sys.executable, "-m", "croupier", "wheel-sim", "--protocol", "line", "--speed", "100", "--results", "5",
         "--link", str(link)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert sim.stdout.readline().strip() == str(link)
        with open(link, "rb", buffering=0) as device:
            assert device.read(4) == b" 5\r\n"
    finally:
        sim.terminate()
        assert sim.wait(10) == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--protocol", "cammegh-ss2", "--faults", "tilt"], "unknown fault 'tilt'"),
        (["--protocol", "cammegh-ss2", "--speed", "0"], "must be above 0"),
        (["--protocol", "cammegh-ss2", "--results", "37"], "37 is not a pocket"),
        (["--protocol", "cammegh-ss2", "--results", "seven"], "numbers separated by commas"),
        (["--faults", "garbage"], "--protocol"),
        (["--protocol", "line", "--faults", "garbage,weak-spin"], "line cannot show weak-spin"),
        (["--protocol", "cammegh-m360-basic", "--faults", "ball-removed"], "cammegh-m360-basic cannot show ball-removed"),
    ],
)
def test_wheel_sim_bad_arguments(args, message):
    proc = croupier("wheel-sim", *args)
    assert proc.returncode == 2 and message in proc.stderr


@pytest.mark.parametrize("profile, void", [("ru-american", True), ("pt-srij-french", False), ("pt-americana", False)])
def test_replay_with_a_real_profile(tmp_path, profile, void):
    # Four revolutions: fewer than RU 4.12's five, not fewer than SRIJ 23's three; PT-A sets none.
    capture = tmp_path / "m360x.log"
    capture.write_bytes(b"*X;4;000;  ;0;250;0;0022;04;1;0A000;??\r\n 9\r\n*X;5;001; 9;0;250;0;0122;04;1;0A000; 9\r\n")
    proc = croupier("wheel-replay", "--protocol", "cammegh-m360-extended", "--profile", profile, "--json", str(capture))
    assert proc.returncode == 0, proc.stderr
    kinds = [o["type"] for o in map(json.loads, proc.stdout.splitlines())]
    # The number of a launch voided by its revolution count is never a result (RU 4.12, SRIJ 23).
    assert ("void" in kinds) is void and ("void-number" in kinds) is void and ("result" in kinds) is not void


def test_replay_with_an_unknown_profile(tmp_path):
    capture = tmp_path / "empty.log"
    capture.write_bytes(b"")
    proc = croupier("wheel-replay", "--protocol", "line", "--profile", "nowhere", str(capture))
    assert proc.returncode == 1 and "nowhere" in proc.stderr


def test_wheel_sim_never_replaces_a_file(tmp_path):
    precious = tmp_path / "notes.txt"
    precious.write_text("keep me")
    proc = croupier("wheel-sim", "--protocol", "line", "--link", str(precious))
    assert proc.returncode == 1 and "is not a symlink" in proc.stderr
    assert precious.read_text() == "keep me"
