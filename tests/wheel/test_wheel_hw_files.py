"""hw/ files agree with the configuration's defaults: the udev name, the keypad's boot pins."""
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from udev_rules import rules_file_errors

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = tomllib.loads((ROOT / "croupier" / "default-config.toml").read_text())
RULE_LINE = re.compile(r'(?:[A-Za-z_]+(?:\{[A-Za-z_]+\})?(?:==|!=|\+=|=)"[^"]*")(?:, (?:[A-Za-z_]+(?:\{[A-Za-z_]+\})?(?:==|!=|\+=|=)"[^"]*"))*')


def rule_lines():
    text = (ROOT / "hw" / "99-croupier-wheel.rules").read_text()
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_udev_rules_give_the_configured_device_name():
    name = Path(DEFAULTS["wheel"]["device"]).name
    lines = rule_lines()
    assert lines
    for line in lines:
        assert RULE_LINE.fullmatch(line), line
        assert 'SUBSYSTEM=="tty"' in line and f'SYMLINK+="{name}"' in line and 'GROUP="dialout"' in line


def udevadm_verifies() -> bool:
    """Whether this udevadm has `verify` (systemd 253 and later)."""
    if shutil.which("udevadm") is None:
        return False
    return subprocess.run(["udevadm", "verify", "--help"], capture_output=True).returncode == 0


def test_the_rules_are_valid_udev_syntax():
    # Raspberry Pi OS bookworm ships udev 252, without `udevadm verify`: the rules are checked
    # against udev(7)'s keys and operators here, and by udevadm itself where it can.
    rules = ROOT / "hw" / "99-croupier-wheel.rules"
    assert rules_file_errors(rules.read_text()) == []
    if udevadm_verifies():
        proc = subprocess.run(["udevadm", "verify", str(rules)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ('SUBSYSTEMS="tty", SYMLINK+="croupier-wheel"', "SUBSYSTEMS does not take ="),
        ('SUBSYSTEM=="tty", SYMLNK+="croupier-wheel"', "unknown key SYMLNK"),
        ('SUBSYSTEM=="tty", ATTRS=="0403"', "ATTRS needs {attribute}"),
        ('SUBSYSTEM=="tty", GROUP=="dialout"', "GROUP does not take =="),
        ('SUBSYSTEM=="tty", MODE="rw"', "MODE 'rw' is not an octal mode"),
        ('SUBSYSTEM=="tty", SYMLINK+=croupier-wheel', "cannot read"),
        ('SUBSYSTEM=="tty" SYMLINK+="croupier-wheel"', "a comma is missing"),
        ('SUBSYSTEM=="tty", IMPORT{prog}="x"', "IMPORT{prog} is not a type"),
    ],
)
def test_the_rule_check_refuses_what_udev_would_ignore(line, error):
    errors = rules_file_errors("# a comment\n\n" + line + "\n")
    assert errors and errors[0].startswith("line 3: ") and error in errors[0], errors


def test_boot_config_sets_the_default_keypad_pins():
    text = (ROOT / "hw" / "config.txt.snippet").read_text()
    columns = ",".join(map(str, DEFAULTS["keypad"]["columns"]))
    rows = ",".join(map(str, DEFAULTS["keypad"]["rows"]))
    assert f"gpio={columns}=ip,pu" in text.splitlines()
    assert f"gpio={rows}=op,dh" in text.splitlines()
    assert "enable_uart=1" in text.splitlines()


def test_wiring_pin_map_matches_the_default_configuration():
    text = (ROOT / "hw" / "wiring.md").read_text()
    documented = dict(re.findall(r"\| GPIO (\d+)[^|]*\|[^|]*\| `([a-z_.\[\]0-9]+)` \|", text))
    expected = {}
    for i, pin in enumerate(DEFAULTS["keypad"]["rows"]):
        expected[f"keypad.rows[{i}]"] = pin
    for i, pin in enumerate(DEFAULTS["keypad"]["columns"]):
        expected[f"keypad.columns[{i}]"] = pin
    for i, pin in enumerate(DEFAULTS["display"]["segments"]):
        expected[f"display.segments[{i}]"] = pin
    for i, pin in enumerate(DEFAULTS["display"]["digits"]):
        expected[f"display.digits[{i}]"] = pin
    for lamp, pin in DEFAULTS["display"]["lamps"].items():
        expected[f"display.lamps.{lamp}"] = pin
    assert {key: int(gpio) for gpio, key in documented.items()} == expected
