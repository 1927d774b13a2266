"""The unit files in systemd/ pass `systemd-analyze verify` (CI installs systemd in .ci/run).

verify insists that ExecStart= programs exist, so each unit is checked as a copy whose
/opt/croupier/venv paths point at this test's own virtualenv.
"""
from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.cli import COMMANDS
from croupier.config import SYSTEM_CONFIG

ROOT = Path(__file__).resolve().parents[2]
UNITS = sorted((ROOT / "systemd").glob("*.service"))
INSTALLED_VENV = "/opt/croupier/venv/bin/"
ANALYZE = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze is not installed (CI installs it: apt-get install systemd)"
)


def verify(unit_text: str, name: str, directory: Path) -> subprocess.CompletedProcess:
    venv_bin = str(Path(sys.executable).parent) + "/"
    (directory / name).write_text(unit_text.replace(INSTALLED_VENV, venv_bin), encoding="utf-8")
    return subprocess.run(
        [ANALYZE, "verify", "--man=no", str(directory / name)], capture_output=True, text=True, timeout=120
    )


def service_section(unit: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read(unit, encoding="utf-8")
    return parser["Service"]


def test_the_units_exist():
    assert [u.name for u in UNITS] == ["croupier-billboard.service", "croupier-first-boot.service",
                                       "croupier-floor-nats.service",
                                       "croupier-floor-serve.service", "croupier-floor-view-web.service",
                                       "croupier-review-web.service", "croupier-table.service"]


@needs_systemd
@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_unit_passes_systemd_analyze_verify(unit, tmp_path):
    result = verify(unit.read_text(encoding="utf-8"), unit.name, tmp_path)
    # Unknown keys and bad values are only warnings to verify: any output at all is a failure.
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@needs_systemd
def test_verify_as_run_here_catches_a_mistyped_key(tmp_path):
    # Guards the test above: a misspelt key must not pass unnoticed.
    text = (ROOT / "systemd" / "croupier-table.service").read_text(encoding="utf-8")
    result = verify(text.replace("WatchdogSec=", "WatchdogSecs="), "croupier-table.service", tmp_path)
    assert "WatchdogSecs" in result.stdout + result.stderr


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_unit_starts_a_croupier_command_with_options_it_accepts(unit):
    # A unit naming a missing command or option would leave the screen black at power-on.
    exec_start = service_section(unit)["ExecStart"]
    words = exec_start.replace("'", " ").replace('"', " ").split()
    if INSTALLED_VENV + "croupier" not in words:
        pytest.skip("this unit starts no croupier command (the floor's nats-server)")
    at = words.index(INSTALLED_VENV + "croupier")
    command, options = words[at + 1], [w for w in words[at + 2 :] if w.startswith("--")]
    if command not in COMMANDS:
        pytest.skip(f"croupier {command} is not registered in croupier/cli.py yet")
    # `croupier floor serve`: the options are the verb's.
    verb = [words[at + 2]] if len(words) > at + 2 and not words[at + 2].startswith(("--", "$")) else []
    croupier = Path(sys.executable).parent / "croupier"
    usage = subprocess.run([str(croupier), command, *verb, "--help"], capture_output=True, text=True, timeout=120)
    assert usage.returncode == 0, usage.stderr
    for option in options:
        assert option in usage.stdout, f"croupier {' '.join([command, *verb])} does not take {option}"


def test_the_table_unit_reads_the_configuration_doctor_checks():
    exec_start = service_section(ROOT / "systemd" / "croupier-table.service")["ExecStart"]
    assert f"--config {SYSTEM_CONFIG}" in exec_start


@needs_systemd
@pytest.mark.parametrize("name", ["croupier-floor-serve.service", "croupier-floor-view-web.service",
                                  "croupier-floor-nats.service"])
def test_the_floor_units_are_hardened(name, tmp_path):
    """`systemd-analyze security` rates the ingester, the view and the NATS node at most 4.0 (OK)."""
    text = (ROOT / "systemd" / name).read_text(encoding="utf-8")
    (tmp_path / name).write_text(text.replace(INSTALLED_VENV, str(Path(sys.executable).parent) + "/"), encoding="utf-8")
    result = subprocess.run([ANALYZE, "security", "--offline=true", "--no-pager", name], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    if "--offline" in result.stderr:
        pytest.skip("this systemd-analyze cannot rate a unit file offline (systemd 250 or newer can)")
    import re

    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= 4.0, result.stdout


def test_the_pages_listen_on_localhost_only():
    for name in ("croupier-floor-view-web.service", "croupier-review-web.service"):
        exec_start = service_section(ROOT / "systemd" / name)["ExecStart"]
        assert "host='127.0.0.1'" in exec_start and "0.0.0.0" not in exec_start, name
    view = service_section(ROOT / "systemd" / "croupier-floor-view-web.service")
    assert view["EnvironmentFile"] == "/etc/croupier/floor-view.env", "the view never reads the ingester's secrets"
    assert view["User"] != service_section(ROOT / "systemd" / "croupier-floor-serve.service")["User"]


def test_the_ingester_takes_its_login_and_the_ca_from_its_env_file():
    """floor.env names the ingester's NATS login and the casino's CA; the unit passes them on."""
    exec_start = service_section(ROOT / "systemd" / "croupier-floor-serve.service")["ExecStart"]
    assert exec_start.endswith(" $CROUPIER_FLOOR_SERVE_OPTIONS"), "unbraced: systemd splits it into words"
    text = (ROOT / "hw/floor.md").read_text()
    documented = re.search(r"^CROUPIER_FLOOR_SERVE_OPTIONS=(.+)$", text, re.M)
    for line in re.findall(r"^CROUPIER_\w+=.*$", text, re.M):  # an env file's example, pasted as it is
        assert "#" not in line, f"systemd keeps a comment after a value as part of the value: {line}"
    croupier = Path(sys.executable).parent / "croupier"
    usage = subprocess.run([str(croupier), "floor", "serve", "--help"], capture_output=True, text=True, timeout=120)
    for option in (w for w in documented.group(1).split() if w.startswith("--")):
        assert option in usage.stdout, f"croupier floor serve does not take {option}"


def test_the_view_in_the_browser_acknowledges_as_the_role_that_may_do_nothing_else():
    """The view-web unit runs as croupier_pitboss, which floor-roles.sql and install-floor.sh make: it
    offers `a` (no --read-only), and the documented override starts the same command."""
    view = service_section(ROOT / "systemd" / "croupier-floor-view-web.service")
    assert view["User"] == view["Group"] == "croupier_pitboss"
    assert "CREATE ROLE croupier_pitboss LOGIN" in (ROOT / "hw/floor-roles.sql").read_text()
    assert "PITBOSS_USER=croupier_pitboss" in (ROOT / "hw/install-floor.sh").read_text()
    for text in ((ROOT / "systemd" / "croupier-floor-view-web.service").read_text(), (ROOT / "hw/floor.md").read_text()):
        commands = re.findall(r"Server\('([^']*)'", text)
        assert commands and all(command.endswith("croupier floor view") for command in commands), commands
