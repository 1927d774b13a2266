"""hw/install.sh: valid bash, a dry run that shows every step and changes nothing, and a real run
into a scratch tree (system commands replaced by recorders) that can be repeated safely."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from croupier.config import load_config

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "hw" / "install.sh"
# The system commands the script may call to change the machine; each is replaced by a recorder.
SYSTEM_COMMANDS = ("apt-get", "groupadd", "useradd", "usermod", "chown", "udevadm", "systemctl", "raspi-config", "python3")
PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"

RECORDER = r"""#!/usr/bin/env bash
# Records the call; keeps just enough state (users, groups, a virtualenv) for the script's checks.
name=$(basename "$0")
if [ "$name" = getent ]; then
    grep -qx "$1:$2" "$STUB_STATE" 2>/dev/null
    exit
fi
printf '%s\n' "$name $*" >>"$STUB_LOG"
case "$name" in
    useradd) echo "passwd:${*: -1}" >>"$STUB_STATE" ;;
    groupadd) echo "group:${*: -1}" >>"$STUB_STATE" ;;
    python3)
        if [ "$1 $2" = "-m venv" ]; then
            mkdir -p "${*: -1}/bin"
            for tool in python pip croupier; do ln -s "$0" "${*: -1}/bin/$tool"; done
        fi
        ;;
esac
"""

needs_hw_files = pytest.mark.skipif(
    not (ROOT / "hw" / "99-croupier-wheel.rules").is_file() or not (ROOT / "hw" / "config.txt.snippet").is_file(),
    reason="hw/99-croupier-wheel.rules and hw/config.txt.snippet (the wiring's part) are not written yet",
)


class Machine:
    """A scratch root and recorded system commands."""

    def __init__(self, tmp_path: Path, model: str | None = PI4):
        self.root = tmp_path / "root"
        self.root.mkdir()
        stubs = tmp_path / "stubs"
        stubs.mkdir()
        recorder = stubs / "recorder"
        recorder.write_text(RECORDER)
        recorder.chmod(0o755)
        for name in (*SYSTEM_COMMANDS, "getent"):
            (stubs / name).symlink_to(recorder)
        self.log = tmp_path / "calls.log"
        self.state = tmp_path / "state"
        self.state.write_text("group:dialout\n")  # Raspberry Pi OS has dialout; gpio only on a Pi
        model_file = tmp_path / "model"
        model_file.write_bytes(model.encode() + b"\0" if model else b"")
        self.env = {
            **os.environ,
            "PATH": f"{stubs}:{os.environ['PATH']}",
            "STUB_LOG": str(self.log),
            "STUB_STATE": str(self.state),
            "CROUPIER_INSTALL_ROOT": str(self.root),
            "CROUPIER_MODEL_FILE": str(model_file),
        }

    def install(self, *options: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(SCRIPT), *options], env=self.env, capture_output=True, text=True, timeout=120)

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def files(self) -> list[str]:
        return sorted(str(p.relative_to(self.root)) for p in self.root.rglob("*") if p.is_file())


def test_the_script_is_valid_bash():
    result = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (0, "")


def test_an_unknown_option_is_refused(tmp_path):
    result = Machine(tmp_path).install("--yes")
    assert result.returncode == 2 and "unknown option --yes" in result.stderr


NOBODY = 65534


def as_nobody(*command: str) -> list[str]:
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]


def open_to_everyone() -> Path | None:
    """A scratch folder an ordinary user can reach: the clone and pytest's own temporary folder may
    sit under folders only root can open (/root, a mktemp -d)."""
    import tempfile

    for base in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"):
        try:
            folder = Path(tempfile.mkdtemp(prefix="croupier-install-", dir=base))
        except OSError:
            continue
        folder.chmod(0o777)
        if subprocess.run(as_nobody("test", "-w", str(folder)), capture_output=True).returncode == 0:
            return folder
        shutil.rmtree(folder)
    return None


def test_without_root_it_refuses_before_changing_anything(tmp_path):
    if os.geteuid() != 0:
        machine = Machine(tmp_path)
        env = {k: v for k, v in machine.env.items() if k != "CROUPIER_INSTALL_ROOT"}
        result = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1 and "run it as root" in result.stderr
        assert machine.calls() == []
        return
    # As root, the check is run as an ordinary user (nobody), which is what the test is about: the
    # script and the recorders are copied where nobody can read and run them.
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and setpriv (util-linux) is missing to drop to another user")
    scratch = open_to_everyone()
    if scratch is None:
        pytest.skip("no temporary folder here that an ordinary user can reach")
    try:
        (scratch / "hw").mkdir()
        script = scratch / "hw" / SCRIPT.name
        shutil.copy(SCRIPT, script)
        machine = Machine(scratch)
        for path in scratch.rglob("*"):
            path.chmod(0o777 if path.is_dir() else 0o755)
        env = {k: v for k, v in machine.env.items() if k != "CROUPIER_INSTALL_ROOT"}
        # The recorders are on nobody's PATH, so a call the script made would be logged.
        found = subprocess.run(as_nobody("bash", "-c", "command -v useradd"), env=env, capture_output=True, text=True)
        assert found.stdout.strip() == str(scratch / "stubs" / "useradd")
        result = subprocess.run(as_nobody("bash", str(script)), env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1 and "run it as root" in result.stderr, result.stderr
        assert machine.calls() == []
    finally:
        shutil.rmtree(scratch)


@needs_hw_files
def test_a_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    machine = Machine(tmp_path)
    result = machine.install("--dry-run", "--billboard", "--review-web", "--boot-config")
    assert result.returncode == 0, result.stderr
    assert machine.calls() == [] and machine.files() == []
    out = result.stdout
    steps = [
        "apt-get install -y python3-venv python3-gpiozero fonts-dejavu-core python3-rpi.gpio\n",
        "+ useradd --system --user-group --home-dir /var/lib/croupier",
        "+ usermod --append --groups dialout croupier",
        "+ usermod --append --groups gpio croupier",
        f"+ python3 -m venv --system-site-packages {machine.root}/opt/croupier/venv",
        f"pip install --disable-pip-version-check --upgrade {ROOT} textual-serve",
        f"+ write {machine.root}/etc/croupier/croupier.toml",
        f"+ install -m 0644 {ROOT}/hw/99-croupier-wheel.rules {machine.root}/etc/udev/rules.d/99-croupier-wheel.rules",
        "# BEGIN croupier",
        "+ systemctl disable getty@tty1.service",
        "+ systemctl enable croupier-table.service croupier-billboard.service croupier-review-web.service",
    ]
    positions = [out.find(step) for step in steps]
    assert -1 not in positions, [s for s, p in zip(steps, positions) if p == -1]
    assert positions == sorted(positions), "the steps are printed in the order they run"


@needs_hw_files
def test_a_pi_5_gets_lgpio_and_another_machine_no_pin_driver(tmp_path):
    (tmp_path / "pi5").mkdir()
    out = Machine(tmp_path / "pi5", PI5).install("--dry-run").stdout
    assert "apt-get install -y python3-venv python3-gpiozero fonts-dejavu-core python3-lgpio\n" in out
    (tmp_path / "laptop").mkdir()
    out = Machine(tmp_path / "laptop", None).install("--dry-run").stdout
    assert "apt-get install -y python3-venv python3-gpiozero fonts-dejavu-core\n" in out and "not a Raspberry Pi" in out


@needs_hw_files
def test_an_install_lays_down_a_table_that_loads(tmp_path):
    machine = Machine(tmp_path)
    result = machine.install()
    assert result.returncode == 0, result.stderr
    files = machine.files()
    for expected in (
        "etc/croupier/croupier.toml",
        "etc/croupier/default-config.toml",
        "etc/udev/rules.d/99-croupier-wheel.rules",
        "etc/systemd/system/croupier-table.service",
    ):
        assert expected in files
    assert "etc/systemd/system/croupier-billboard.service" not in files  # only with --billboard
    config = load_config(machine.root / "etc/croupier/croupier.toml")
    # The journal lives where the table unit's StateDirectory= is.
    assert config.journal_path == Path("/var/lib/croupier/journal.db")
    assert config.wheel.device == "/dev/croupier-wheel"
    calls = machine.calls()
    assert "groupadd --system gpio" in calls and "groupadd --system dialout" not in calls
    assert any(c.startswith("useradd ") and c.endswith(" croupier") for c in calls)
    assert "systemctl enable croupier-table.service" in calls
    assert "systemctl disable getty@tty1.service" in calls
    assert f"croupier doctor --config {machine.root}/etc/croupier/croupier.toml" in calls


@needs_hw_files
def test_installing_again_keeps_the_tables_configuration_and_users(tmp_path):
    machine = Machine(tmp_path)
    assert machine.install().returncode == 0
    config = machine.root / "etc/croupier/croupier.toml"
    config.write_text('[table]\nid = "T9"\n')
    machine.log.unlink()
    result = machine.install()
    assert result.returncode == 0, result.stderr
    assert config.read_text() == '[table]\nid = "T9"\n'
    calls = machine.calls()
    assert not any(c.startswith(("useradd", "groupadd", "python3 -m venv")) for c in calls)
    assert any(c.startswith("pip install") for c in calls), "the package itself is upgraded"


@needs_hw_files
def test_the_boot_config_block_is_added_once(tmp_path):
    machine = Machine(tmp_path)
    boot = machine.root / "boot/firmware/config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("dtparam=audio=on\n")
    assert machine.install("--boot-config").returncode == 0
    assert machine.install("--boot-config").returncode == 0
    text = boot.read_text()
    snippet = (ROOT / "hw/config.txt.snippet").read_text()
    assert text.startswith("dtparam=audio=on\n")
    assert text.count("# BEGIN croupier") == 1 and snippet in text
    assert "raspi-config nonint do_serial_cons 1" in machine.calls()


def test_the_script_finds_what_it_installs():
    # Each file it copies from the source tree is named here; a rename must not break the install.
    text = SCRIPT.read_text()
    for unit in ("croupier-table.service", "croupier-billboard.service", "croupier-review-web.service"):
        assert unit in text and (ROOT / "systemd" / unit).is_file()
    assert (ROOT / "croupier/default-config.toml").is_file() and "croupier/default-config.toml" in text
