"""`croupier doctor` against a fake machine: one failure at a time, each with its fix."""
from __future__ import annotations

import os
import pwd
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import datetime

import pytest

from croupier.commands import doctor as doctor_command
from croupier.doctor import Finding, SystemProbes, UserInfo, report, run_checks

DIALOUT, GPIO, CROUPIER = 20, 997, 999
GROUPS = {0: "root", DIALOUT: "dialout", GPIO: "gpio", CROUPIER: "croupier", 5: "tty"}
MB = 1024**2


def node(kind: int, perms: int, gid: int, uid: int = 0) -> os.stat_result:
    return os.stat_result((kind | perms, 1, 1, 1, uid, gid, 0, 0, 0, 0))


@dataclass
class FakeMachine:
    """A healthy Raspberry Pi 4 with the wheel plugged in; each test breaks one thing."""

    files: dict[str, os.stat_result] = field(default_factory=lambda: {
        "/dev/croupier-wheel": node(stat.S_IFCHR, 0o660, DIALOUT),
        "/dev/gpiomem": node(stat.S_IFCHR, 0o660, GPIO),
        "/dev/gpiochip0": node(stat.S_IFCHR, 0o660, GPIO),
        "/var/lib/croupier": node(stat.S_IFDIR, 0o750, CROUPIER, uid=CROUPIER),
    })
    users: dict[str, UserInfo] = field(default_factory=lambda: {
        "croupier": UserInfo("croupier", CROUPIER, frozenset({CROUPIER, DIALOUT, GPIO})),
    })
    open_by: list[tuple[int, str]] = field(default_factory=list)
    root: bool = True
    model: str | None = "Raspberry Pi 4 Model B Rev 1.4"
    modules: set[str] = field(default_factory=lambda: {"RPi.GPIO"})
    free: int = 20_000 * MB
    mounted_read_only: bool = False
    synchronized: bool | None = True
    battery_clock: bool = True
    clock: datetime = datetime(2025, 10, 1, 21, 30)

    def stat(self, path):
        return self.files.get(path)

    def user(self, name):
        return self.users.get(name)

    def group_name(self, gid):
        return GROUPS.get(gid, str(gid))

    def holders(self, path):
        return self.open_by

    def is_root(self):
        return self.root

    def board_model(self):
        return self.model

    def module_available(self, name):
        return name in self.modules

    def glob(self, pattern):
        prefix = pattern.rstrip("*")
        return sorted(p for p in self.files if (p.startswith(prefix) if pattern.endswith("*") else p == pattern))

    def disk_free(self, path):
        return self.free

    def read_only(self, path):
        return self.mounted_read_only

    def ntp_synchronized(self):
        return self.synchronized

    def rtc(self):
        return self.battery_clock

    def now(self):
        return self.clock


@pytest.fixture
def table_config(tmp_path):
    """The table as installed on a Pi: wheel on its udev name, GPIO keypad and display board."""
    path = tmp_path / "croupier.toml"
    path.write_text('[keypad]\nkind = "gpio"\n[journal]\npath = "/var/lib/croupier/journal.db"\n', encoding="utf-8")
    return str(path)


def findings_of(config: str, machine: FakeMachine) -> dict[str, Finding]:
    return {f.check: f for f in run_checks(config, machine)}


def only_failure(config: str, machine: FakeMachine) -> Finding:
    failures = [f for f in run_checks(config, machine) if f.status == "fail"]
    assert len(failures) == 1, failures
    return failures[0]


def test_a_healthy_pi_passes_every_check(table_config):
    findings = run_checks(table_config, FakeMachine())
    assert [f.check for f in findings] == ["config", "user", "wheel", "gpio", "journal", "key", "floor", "clock"]
    assert all(f.status == "ok" for f in findings), findings
    assert report(findings).endswith("Ready.")
    by_check = {f.check: f for f in findings}
    assert "rpigpio" in by_check["gpio"].message  # a Pi 4 with RPi.GPIO installed
    assert "20000 MB free" in by_check["journal"].message


# --- the wheel device ---


def test_an_unplugged_wheel_says_where_its_name_comes_from(table_config):
    machine = FakeMachine()
    del machine.files["/dev/croupier-wheel"]
    failure = only_failure(table_config, machine)
    assert failure.check == "wheel" and "/dev/croupier-wheel does not exist" in failure.message
    assert "hw/99-croupier-wheel.rules" in failure.fix and "/dev/serial/by-id" in failure.fix


def test_a_wheel_on_the_pi_uart_points_at_the_boot_config(tmp_path):
    path = tmp_path / "croupier.toml"
    path.write_text('[wheel]\ndevice = "/dev/serial0"\n[journal]\npath = "/var/lib/croupier/journal.db"\n')
    failure = only_failure(str(path), FakeMachine())
    assert "/dev/serial0 does not exist" in failure.message and "config.txt" in failure.fix


def test_a_wheel_device_that_is_not_a_serial_port(table_config):
    machine = FakeMachine()
    machine.files["/dev/croupier-wheel"] = node(stat.S_IFREG, 0o660, DIALOUT)
    assert "not a serial device" in only_failure(table_config, machine).message


def test_a_wheel_in_a_group_the_user_is_not_in(table_config):
    machine = FakeMachine()
    machine.users["croupier"] = UserInfo("croupier", CROUPIER, frozenset({CROUPIER, GPIO}))
    failure = only_failure(table_config, machine)
    assert failure.check == "wheel"
    assert "not in group dialout" in failure.message
    assert "sudo usermod -aG dialout croupier" in failure.fix


def test_a_wheel_its_group_cannot_read(table_config):
    machine = FakeMachine()
    machine.files["/dev/croupier-wheel"] = node(stat.S_IFCHR, 0o600, DIALOUT)
    failure = only_failure(table_config, machine)
    assert "mode 0600" in failure.message and 'MODE="0660"' in failure.fix


def test_a_wheel_held_by_modemmanager(table_config):
    machine = FakeMachine(open_by=[(612, "/usr/sbin/ModemManager")])
    failure = only_failure(table_config, machine)
    assert "held by /usr/sbin/ModemManager (pid 612)" in failure.message
    assert "systemctl disable --now ModemManager" in failure.fix


def test_a_wheel_held_by_the_running_table_is_fine(table_config):
    machine = FakeMachine(open_by=[(801, "/opt/croupier/venv/bin/python /opt/croupier/venv/bin/croupier table")])
    wheel = findings_of(table_config, machine)["wheel"]
    assert wheel.status == "ok" and "801" in wheel.message


def test_without_root_the_doctor_says_it_cannot_see_everything(table_config):
    wheel = findings_of(table_config, FakeMachine(root=False))["wheel"]
    assert wheel.status == "ok" and "run as root" in wheel.message


def test_a_table_without_a_sensor_needs_no_device(tmp_path):
    path = tmp_path / "croupier.toml"
    path.write_text('[wheel]\nprotocol = "none"\n[journal]\npath = "/var/lib/croupier/journal.db"\n')
    machine = FakeMachine()
    del machine.files["/dev/croupier-wheel"]
    assert findings_of(str(path), machine)["wheel"].status == "ok"


# --- the service user ---


def test_a_missing_service_user(table_config):
    machine = FakeMachine(users={})
    failure = only_failure(table_config, machine)
    assert failure.check == "user" and "no user croupier" in failure.message and "install.sh" in failure.fix


# --- GPIO pin factory ---


def test_not_a_pi_with_gpio_configured(table_config):
    failure = only_failure(table_config, FakeMachine(model=None))
    assert failure.check == "gpio" and "not a Raspberry Pi" in failure.message
    assert "GPIO keypad and the display board" in failure.message


def test_a_pi_5_with_only_rpi_gpio_needs_lgpio(table_config):
    machine = FakeMachine(model="Raspberry Pi 5 Model B Rev 1.0", modules={"RPi.GPIO"})
    failure = only_failure(table_config, machine)
    assert "RPi.GPIO does not work on a Pi 5" in failure.message and "python3-lgpio" in failure.fix


def test_a_pi_5_with_lgpio_is_ready(table_config):
    machine = FakeMachine(model="Raspberry Pi 5 Model B Rev 1.0", modules={"lgpio"})
    del machine.files["/dev/gpiomem"]
    gpio = findings_of(table_config, machine)["gpio"]
    assert gpio.status == "ok" and "lgpio" in gpio.message


def test_gpiozero_prefers_lgpio_when_both_drivers_are_installed(table_config):
    # gpiozero 2.0 tries lgpio before RPi.GPIO.
    gpio = findings_of(table_config, FakeMachine(modules={"lgpio", "RPi.GPIO"}))["gpio"]
    assert gpio.status == "ok" and "will use lgpio" in gpio.message


def test_a_pi_without_any_pin_driver(table_config):
    failure = only_failure(table_config, FakeMachine(modules=set()))
    assert "no pin driver" in failure.message and "python3-rpi.gpio" in failure.fix


def test_pigpio_alone_cannot_work_in_the_sandboxed_service(table_config):
    failure = only_failure(table_config, FakeMachine(modules={"pigpio"}))
    assert "pigpiod" in failure.message


def test_gpio_device_missing(table_config):
    machine = FakeMachine()
    del machine.files["/dev/gpiomem"]
    failure = only_failure(table_config, machine)
    assert failure.check == "gpio" and "device is missing" in failure.message


def test_gpio_device_in_a_group_the_user_is_not_in(table_config):
    machine = FakeMachine()
    machine.users["croupier"] = UserInfo("croupier", CROUPIER, frozenset({CROUPIER, DIALOUT}))
    failure = only_failure(table_config, machine)
    assert failure.check == "gpio" and "sudo usermod -aG gpio croupier" in failure.fix


def test_no_gpio_needed_with_a_usb_keypad_and_no_board(tmp_path):
    path = tmp_path / "croupier.toml"
    path.write_text('[display]\nenabled = false\n[journal]\npath = "/var/lib/croupier/journal.db"\n')
    assert findings_of(str(path), FakeMachine(model=None))["gpio"].status == "ok"


# --- the journal's directory ---


def test_journal_directory_missing(table_config):
    machine = FakeMachine()
    del machine.files["/var/lib/croupier"]
    failure = only_failure(table_config, machine)
    assert failure.check == "journal" and "does not exist" in failure.message


def test_journal_on_a_read_only_filesystem(table_config):
    failure = only_failure(table_config, FakeMachine(mounted_read_only=True))
    assert "read-only" in failure.message and "hw/read-only-root.md" in failure.fix


def test_journal_directory_the_user_cannot_write(table_config):
    machine = FakeMachine()
    machine.files["/var/lib/croupier"] = node(stat.S_IFDIR, 0o755, 0, uid=0)
    failure = only_failure(table_config, machine)
    assert failure.check == "journal" and "cannot write in /var/lib/croupier" in failure.message
    assert "sudo chown croupier:croupier /var/lib/croupier`" in failure.fix


def test_a_journal_left_behind_by_root_is_found(table_config):
    # Someone ran the table once as root: the service, as croupier, could not write the journal.
    machine = FakeMachine()
    machine.files["/var/lib/croupier/journal.db"] = node(stat.S_IFREG, 0o644, 0, uid=0)
    machine.files["/var/lib/croupier/table.key"] = node(stat.S_IFREG, 0o600, CROUPIER, uid=CROUPIER)
    failure = only_failure(table_config, machine)
    assert "cannot write to /var/lib/croupier/journal.db" in failure.message
    assert "sudo chown croupier:croupier /var/lib/croupier/journal.db*" in failure.fix


def test_a_journal_without_its_key_fails_and_a_key_others_can_read_fails(table_config):
    machine = FakeMachine()
    machine.files["/var/lib/croupier/journal.db"] = node(stat.S_IFREG, 0o600, CROUPIER, uid=CROUPIER)
    failure = only_failure(table_config, machine)
    assert failure.check == "key" and "/var/lib/croupier/table.key does not" in failure.message
    machine.files["/var/lib/croupier/table.key"] = node(stat.S_IFREG, 0o640, CROUPIER, uid=CROUPIER)
    failure = only_failure(table_config, machine)
    assert "mode 0640" in failure.message and failure.fix == "`sudo chmod 600 /var/lib/croupier/table.key`"
    machine.files["/var/lib/croupier/table.key"] = node(stat.S_IFREG, 0o600, CROUPIER, uid=CROUPIER)
    assert findings_of(table_config, machine)["key"].status == "ok"


def test_journal_out_of_space_fails_and_low_space_warns(table_config):
    failure = only_failure(table_config, FakeMachine(free=20 * MB))
    assert failure.check == "journal" and "20 MB free" in failure.message
    low = findings_of(table_config, FakeMachine(free=300 * MB))["journal"]
    assert low.status == "warn" and "300 MB free" in low.message


# --- the clock ---


def test_a_clock_never_set(table_config):
    failure = only_failure(table_config, FakeMachine(clock=datetime(1970, 1, 1, 0, 0, 12), synchronized=False))
    assert failure.check == "clock" and "1970-01-01" in failure.message and "timedatectl set-time" in failure.fix


@pytest.mark.parametrize("synchronized", [False, None])
def test_a_clock_not_known_to_be_synchronised(table_config, synchronized):
    failure = only_failure(table_config, FakeMachine(synchronized=synchronized))
    assert failure.check == "clock" and "NTP" in failure.fix


def test_no_battery_clock_and_no_time_server_fails_saying_how_to_fix_both(table_config):
    failure = only_failure(table_config, FakeMachine(synchronized=False, battery_clock=False))
    assert failure.check == "clock" and "no battery clock (RTC)" in failure.message
    assert "chrony" in failure.fix and "RTC module" in failure.fix and "ds3231" in failure.fix


def test_no_battery_clock_with_a_time_server_warns_and_names_fake_hwclock(table_config):
    clock = findings_of(table_config, FakeMachine(battery_clock=False))["clock"]
    assert clock.status == "warn" and "no battery clock" in clock.message and "clock-jumped" in clock.message
    assert "fake-hwclock" in clock.fix and "RTC module" in clock.fix


# --- the configuration ---


def test_a_broken_configuration_names_the_key_and_skips_what_depends_on_it(tmp_path):
    path = tmp_path / "croupier.toml"
    path.write_text("[table]\nminimum = -5\n")
    findings = findings_of(str(path), FakeMachine())
    assert findings["config"].status == "fail" and "table.minimum" in findings["config"].message
    assert {findings[c].status for c in ("user", "wheel", "gpio", "journal")} == {"skip"}
    assert findings["clock"].status == "ok"


def test_no_configuration_file_warns_and_checks_the_defaults(monkeypatch, tmp_path):
    monkeypatch.delenv("CROUPIER_CONFIG", raising=False)
    monkeypatch.setattr("croupier.config.SYSTEM_CONFIG", tmp_path / "absent.toml")
    findings = findings_of(None, FakeMachine())
    assert findings["config"].status == "warn" and "/etc/croupier/croupier.toml" in findings["config"].fix


# --- the command ---


def test_the_command_exits_1_on_a_failure_and_prints_the_fix(table_config, monkeypatch, capsys):
    machine = FakeMachine(free=10 * MB)
    monkeypatch.setattr("croupier.doctor.SystemProbes", lambda: machine)
    assert doctor_command.main(["--config", table_config]) == 1
    out = capsys.readouterr().out
    assert "FAIL  journal" in out and "fix: free space" in out and "1 problem to fix." in out


def test_the_command_exits_0_when_ready(table_config, monkeypatch, capsys):
    monkeypatch.setattr("croupier.doctor.SystemProbes", FakeMachine)
    assert doctor_command.main(["--config", table_config]) == 0
    assert capsys.readouterr().out.endswith("Ready.\n")


def test_the_command_refuses_an_unknown_option(capsys):
    with pytest.raises(SystemExit) as exited:
        doctor_command.main(["--fix"])
    assert exited.value.code == 2 and "unrecognized arguments: --fix" in capsys.readouterr().err


# --- the real probes, where this machine can exercise them ---


def test_the_process_holding_a_device_is_found(tmp_path):
    held = tmp_path / "wheel"
    held.write_text("")
    with held.open() as f:
        child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE, stdout=f)
    try:
        assert any(pid == child.pid for pid, _ in SystemProbes().holders(str(held)))
    finally:
        child.stdin.close()
        child.wait()
    assert not any(pid == child.pid for pid, _ in SystemProbes().holders(str(held)))


def test_a_pin_driver_is_found_without_importing_it(tmp_path, monkeypatch):
    # The real RPi.GPIO raises on import on anything but a Pi: finding it must not import it.
    package = tmp_path / "RPi" / "GPIO"
    package.mkdir(parents=True)
    (tmp_path / "RPi" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("raise RuntimeError('This module can only be run on a Raspberry Pi!')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    probes = SystemProbes()
    assert probes.module_available("RPi.GPIO")
    assert "RPi.GPIO" not in sys.modules
    assert not probes.module_available("surely_not_a_pin_driver")


def test_permissions_are_read_from_the_real_filesystem(tmp_path):
    probes = SystemProbes()
    directory = tmp_path / "journal"
    directory.mkdir()
    assert stat.S_ISDIR(probes.stat(str(directory)).st_mode)
    assert probes.stat(str(tmp_path / "absent")) is None
    assert probes.disk_free(str(directory)) > 0
    assert probes.read_only(str(directory)) is False
    me = probes.user(pwd.getpwuid(os.getuid()).pw_name)
    assert me.uid == os.getuid() and os.getgid() in me.gids
    assert probes.user("no-such-user-here") is None
