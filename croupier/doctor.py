"""`croupier doctor`: is this machine ready to run the table, and if not, what to do about it.

Each check looks at the system only through a Probes object, so tests hand in fakes; SystemProbes
is the real machine. A check returns Findings: ok, warn (works, but look at it) or fail.
"""
from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from croupier.config import SYSTEM_CONFIG, UART_DEVICES, Config, ConfigError, config_path, default_config, load_config
from croupier.paths import SERVICE_USER
from croupier.timesync import has_rtc, synchronised

# Below this the journal may stop mid-shift; below the warning level it is time to archive.
JOURNAL_FAIL_BYTES = 50 * 1024**2
JOURNAL_WARN_BYTES = 500 * 1024**2
# A clock before this year has never been set (a Pi has no battery clock before the Pi 5).
EARLIEST_SANE_YEAR = 2025
LATEST_SANE_YEAR = 2100
FIT_RTC = ("fit a battery clock: an RTC module on the I2C pins (a DS3231: `dtoverlay=i2c-rtc,ds3231` in "
           "/boot/firmware/config.txt), or the Pi 5's own with its battery")
# gpiozero 2.0 tries its pin drivers in this order (gpiozero.devices.Device._default_pin_factory).
PIN_DRIVERS = (("lgpio", "lgpio"), ("rpigpio", "RPi.GPIO"), ("pigpio", "pigpio"))
INSTALL_PIN_DRIVER = (
    "install the pin driver: `sudo apt install python3-lgpio` on a Pi 5, "
    "`sudo apt install python3-rpi.gpio` on a Pi 1-4 (hw/install.sh does this)"
)


@dataclass(frozen=True)
class Finding:
    check: str
    status: str  # "ok", "warn", "fail" or "skip"
    message: str
    fix: str = ""


@dataclass(frozen=True)
class UserInfo:
    name: str
    uid: int
    gids: frozenset[int]


class Probes(Protocol):
    def stat(self, path: str) -> os.stat_result | None: ...  # follows links; None if absent
    def user(self, name: str) -> UserInfo | None: ...
    def group_name(self, gid: int) -> str: ...
    def holders(self, path: str) -> list[tuple[int, str]]: ...  # (pid, command) with it open
    def is_root(self) -> bool: ...
    def board_model(self) -> str | None: ...  # None when not a Raspberry Pi
    def module_available(self, name: str) -> bool: ...
    def glob(self, pattern: str) -> list[str]: ...
    def disk_free(self, path: str) -> int: ...
    def read_only(self, path: str) -> bool: ...
    def ntp_synchronized(self) -> bool | None: ...  # None when it cannot be told
    def rtc(self) -> bool: ...  # a battery clock keeps the time across power cuts
    def now(self) -> datetime: ...
    def floor_receipt(self, url: str, access, table_id: str): ...  # (problem, the floor's last anchor or None)


def run_checks(config_argument: str | None, probes: Probes, user: str = SERVICE_USER) -> list[Finding]:
    config, finding = check_config(config_argument)
    findings = [finding]
    if config is None:
        findings += [Finding(name, "skip", "not checked: the configuration did not load") for name in ("user", "wheel", "gpio", "journal", "key", "floor")]
    else:
        service_user = probes.user(user)
        findings += [
            check_user(service_user, user, probes),
            check_wheel(config, probes, service_user, user),
            check_gpio(config, probes, service_user, user),
            check_journal(config, probes, service_user, user),
            check_key(config, probes, service_user, user),
            *check_floor(config, probes, service_user, user),
        ]
    findings.append(check_clock(probes))
    return findings


def check_config(argument: str | None) -> tuple[Config | None, Finding]:
    path = config_path(argument)
    if path is None:
        return default_config(), Finding(
            "config", "warn", "no configuration file: using the built-in defaults",
            f"the table service reads {SYSTEM_CONFIG}: run hw/install.sh, or write it from croupier/default-config.toml",
        )
    try:
        config = load_config(path)
    except ConfigError as e:
        return None, Finding("config", "fail", str(e), f"edit {path}; every key and its default is in croupier/default-config.toml")
    t = config.table
    wheel = "no wheel sensor" if config.wheel is None else f"wheel {config.wheel.protocol} on {config.wheel.device}"
    return config, Finding("config", "ok", f"{path}: table {t.id} ({t.name}), profile {t.profile}, {wheel}")


def check_user(user: UserInfo | None, user_name: str, probes: Probes) -> Finding:
    if user is None:
        return Finding("user", "fail", f"there is no user {user_name} to run the table", "run hw/install.sh, which creates it")
    groups = ", ".join(sorted(probes.group_name(gid) for gid in user.gids))
    return Finding("user", "ok", f"{user_name} is in groups {groups}")


def check_wheel(config: Config, probes: Probes, user: UserInfo | None, user_name: str) -> Finding:
    if config.wheel is None:
        return Finding("wheel", "ok", "no wheel sensor configured: results are typed on the keypad")
    device = config.wheel.device
    st = probes.stat(device)
    if st is None:
        if device in UART_DEVICES:
            fix = "enable the UART with the lines of hw/config.txt.snippet in /boot/firmware/config.txt, then reboot"
        else:
            fix = (
                "plug in the wheel's serial adapter; `ls -l /dev/serial/by-id/` shows it, and the udev rule "
                "hw/99-croupier-wheel.rules gives it its name (`sudo udevadm trigger`); or correct wheel.device"
            )
        return Finding("wheel", "fail", f"{device} does not exist", fix)
    if not stat.S_ISCHR(st.st_mode):
        return Finding("wheel", "fail", f"{device} is not a serial device", "set wheel.device to the wheel's serial adapter")
    access = _access_problem("wheel", device, st, probes, user, user_name, want=0o6)
    if access:
        return access
    holders = probes.holders(device)
    others = [(pid, cmd) for pid, cmd in holders if "croupier" not in cmd]
    if others:
        held = ", ".join(f"{cmd} (pid {pid})" for pid, cmd in others)
        fix = "stop that program"
        if any("ModemManager" in cmd for _, cmd in others):
            fix = "ModemManager probes serial adapters: `sudo systemctl disable --now ModemManager`"
        return Finding("wheel", "fail", f"{device} is held by {held}", fix)
    unseen = "" if probes.is_root() else " (run as root to see other users' processes)"
    table = "; open in croupier (pid " + ", ".join(str(pid) for pid, _ in holders) + ")" if holders else ""
    usable = f", usable by {user_name}" if user else ""
    return Finding("wheel", "ok", f"{device} is a serial device{usable}, not held by another program{unseen}{table}")


def check_gpio(config: Config, probes: Probes, user: UserInfo | None, user_name: str) -> Finding:
    uses = [what for what, used in (("the GPIO keypad", config.keypad.kind == "gpio"), ("the display board", config.display is not None)) if used]
    if not uses:
        return Finding("gpio", "ok", "no GPIO in use (USB keypad, no display board)")
    needed = " and ".join(uses)
    model = probes.board_model()
    if model is None:
        return Finding(
            "gpio", "fail", f"not a Raspberry Pi: {needed} cannot work here",
            "run on the Pi; elsewhere use `croupier demo` (mock pins), or set display.enabled = false and keypad.kind = \"usb\"",
        )
    pi5 = "Raspberry Pi 5" in model
    driver = next((name for name, module in PIN_DRIVERS if probes.module_available(module)), "native")
    if driver == "native" or (pi5 and driver == "rpigpio"):
        what = "no pin driver is installed" if driver == "native" else "RPi.GPIO does not work on a Pi 5"
        return Finding("gpio", "fail", f"{model}: {what}; gpiozero would fall back to {driver}", INSTALL_PIN_DRIVER)
    if driver == "pigpio":
        return Finding(
            "gpio", "fail", f"{model}: gpiozero would use pigpio, which needs the pigpiod daemon over the network",
            f"the table service has no network; {INSTALL_PIN_DRIVER}",
        )
    nodes = probes.glob("/dev/gpiochip*") if driver == "lgpio" else probes.glob("/dev/gpiomem")
    if not nodes:
        return Finding("gpio", "fail", f"{model}: gpiozero would use {driver}, but its device is missing", "update Raspberry Pi OS (`sudo apt full-upgrade`) and reboot")
    st = probes.stat(nodes[0])
    access = _access_problem("gpio", nodes[0], st, probes, user, user_name, want=0o6) if st else None
    return access or Finding("gpio", "ok", f"{model}: gpiozero will use {driver} for {needed}")


def check_journal(config: Config, probes: Probes, user: UserInfo | None, user_name: str) -> Finding:
    directory = str(config.journal_path.parent)
    st = probes.stat(directory)
    if st is None:
        return Finding(
            "journal", "fail", f"the journal's directory {directory} does not exist",
            f"the table service creates /var/lib/croupier itself; for another place: `sudo install -d -o {user_name} -g {user_name} -m 750 {directory}`",
        )
    if probes.read_only(directory):
        return Finding("journal", "fail", f"{directory} is on a read-only filesystem", "mount the journal's partition read-write: see hw/read-only-root.md")
    journal = probes.stat(str(config.journal_path))
    access = _access_problem("journal", directory, st, probes, user, user_name, want=0o3) or (
        journal and _access_problem("journal", str(config.journal_path), journal, probes, user, user_name, want=0o6)
    )
    if access:
        return access
    free = probes.disk_free(directory)
    where = f"{directory}: {free // 1024**2} MB free"
    if free < JOURNAL_FAIL_BYTES:
        return Finding("journal", "fail", f"{where}, too little for a shift", "free space, or move journal.path to a larger partition (hw/read-only-root.md)")
    if free < JOURNAL_WARN_BYTES:
        return Finding("journal", "warn", f"{where}, running low", "archive old journals (croupier verify them first) or use a larger card")
    return Finding("journal", "ok", f"{where}" + (f", writable by {user_name}" if user else ""))


def check_key(config: Config, probes: Probes, user: UserInfo | None, user_name: str) -> Finding:
    """The table's key (croupier.journal.key): there when the journal is, the table user's own, and
    readable by nobody else."""
    from croupier.journal.key import default_key_path

    path = config.journal_key or default_key_path(config.journal_path)
    st = probes.stat(str(path))
    if st is None:
        if probes.stat(str(config.journal_path)) is not None:
            return Finding("key", "fail", f"the journal exists but the table's key {path} does not",
                           f"restore the key from its backup to {path} (mode 600, owner {user_name}); without it the "
                           "journal cannot be continued")
        return Finding("key", "ok", f"{path} is made (mode 600) with the table's first journal: back it up then")
    if stat.S_IMODE(st.st_mode) & 0o077:
        return Finding("key", "fail", f"{path} has mode {stat.S_IMODE(st.st_mode):04o}: other users can read the "
                       "table's key", f"`sudo chmod 600 {path}`")
    if user is not None and st.st_uid != user.uid:
        return Finding("key", "fail", f"{path} is not owned by {user_name}, so the table cannot read it",
                       f"`sudo chown {user_name}:{user_name} {path}`")
    return Finding("key", "ok", f"{path}: mode 600" + (f", owned by {user_name}" if user else ""))


def check_floor(config: Config, probes: Probes, user: UserInfo | None, user_name: str) -> list[Finding]:
    """[floor]: the link's URL and table id, its credentials file and mode, the casino's CA, the
    floor's public key, the table's signing key, the broker answering with this login, and the table
    enrolled (the floor's signed receipt names an event of this journal)."""
    floor = config.floor
    if floor.url is None:
        return [Finding("floor", "ok", "no [floor] url: the table publishes its journal to no floor")]
    from croupier.floor.wire import Access, WireError, check_table_id, read_credentials, tls_context

    findings = []
    try:
        check_table_id(config.table.id)
    except WireError as exc:
        return [Finding("floor", "fail", f"[table] id: {exc}", "set [table] id to the id the floor knows this table by")]
    if not probes.module_available("nats"):
        return [Finding("floor", "fail", "the floor link needs nats-py, which is not installed",
                        "run hw/install.sh again (it installs what the floor link needs)")]
    tls = floor.ca is not None or all(part.strip().startswith("tls://") for part in floor.url.split(","))
    findings.append(Finding("floor", "ok" if tls else "warn", f"table {config.table.id} publishes to {floor.url}"
                            + ("" if tls else ": in plain text"),
                            "" if tls else "name the casino's CA in [floor] ca and use tls:// URLs"))
    if floor.credentials is None:
        findings.append(Finding("floor login", "warn", "no [floor] credentials: the broker must take anyone",
                                "ask the floor's administrator for the table's credentials file (croupier floor "
                                "login) and name it in [floor] credentials"))
    else:
        findings.append(_secret_file("floor login", floor.credentials, probes, user, user_name)
                        or _readable("floor login", lambda: read_credentials(floor.credentials)[0],
                                     f"{floor.credentials}: user {{}}"))
    if floor.ca is not None:
        findings.append(_closed_to_table("floor CA", floor.ca, probes, user, user_name)
                        or _readable("floor CA", lambda: tls_context(floor.ca) and floor.ca, "{}: the casino's CA"))
    findings.append(floor.floor_key and _closed_to_table("floor key", floor.floor_key, probes, user, user_name)
                    or _floor_key(floor.floor_key))
    signing = _signing_key(config, probes, user, user_name)
    findings.append(signing)
    if any(f.status == "fail" for f in findings):
        return findings
    problem, anchor = probes.floor_receipt(floor.url, Access(floor.credentials, floor.ca), config.table.id)
    if problem is not None:
        findings.append(Finding("floor broker", "fail", f"the floor's broker does not answer: {problem}",
                                "check the URL, the network, the login and the CA with the floor's administrator"))
        return findings
    findings.append(Finding("floor broker", "ok", "the floor's broker answers this table's login"))
    findings.append(_enrolled(config, anchor))
    return findings


def _secret_file(check: str, path: Path, probes: Probes, user: UserInfo | None, user_name: str) -> Finding | None:
    st = probes.stat(str(path))
    if st is None:
        return Finding(check, "fail", f"{path} does not exist", f"put the file there (mode 600, owner {user_name})")
    if stat.S_IMODE(st.st_mode) & 0o077:
        return Finding(check, "fail", f"{path} has mode {stat.S_IMODE(st.st_mode):04o}: other users can read it",
                       f"`sudo chmod 600 {path}`")
    if user is not None and st.st_uid != user.uid:
        return Finding(check, "fail", f"{path} is not owned by {user_name}, so the table cannot read it",
                       f"`sudo chown {user_name}:{user_name} {path}`")
    return None


def _closed_to_table(check: str, path: Path, probes: Probes, user: UserInfo | None, user_name: str) -> Finding | None:
    """A public file the table reads as its own user: doctor run by root reads it either way."""
    st = probes.stat(str(path))
    if st is None or user is None or _allows(st, user, 4):
        return None
    return Finding(check, "fail", f"user {user_name} cannot read {path} (mode {stat.S_IMODE(st.st_mode):04o}): "
                   "the table cannot start its floor link", f"`sudo chmod 644 {path}`")


def _readable(check: str, read, said: str) -> Finding:
    """ok saying `said` with what `read()` gives; fail with its error."""
    from croupier.floor.wire import AccessError
    from croupier.journal.signing import SigningKeyError

    try:
        return Finding(check, "ok", said.format(read()))
    except (AccessError, SigningKeyError) as exc:
        return Finding(check, "fail", str(exc), "replace the file with the one the floor's administrator gave")


def _floor_key(path: Path | None) -> Finding:
    from croupier.journal.signing import fingerprint, read_public_key

    if path is None:
        return Finding("floor key", "warn", "no [floor] floor_key: the floor's receipts are not recorded",
                       "name the floor's public key (floor-signing.pub) in [floor] floor_key")
    return _readable("floor key", lambda: fingerprint(read_public_key(path)), f"{path}: the floor's key {{}}")


def _signing_key(config: Config, probes: Probes, user: UserInfo | None, user_name: str) -> Finding:
    from croupier.journal.signing import default_signing_key_path, fingerprint, public_path, read_private_key

    path = default_signing_key_path(config.journal_path)
    if probes.stat(str(path)) is None:
        return Finding("signing key", "warn", f"no signing key {path} yet: it is made at the first start, and the "
                       "floor refuses the table's events until its public key is enrolled",
                       f"make it now: `sudo -u {user_name} croupier floor table-key`, and have its .pub enrolled")
    problem = _secret_file("signing key", path, probes, user, user_name)
    if problem is not None:
        return problem
    return _readable("signing key", lambda: fingerprint(read_private_key(path).public_key()),
                     f"{path}: fingerprint {{}} (the floor enrols {public_path(path).name}: compare)")


def _enrolled(config: Config, anchor) -> Finding:
    """Enrolled when the floor's last receipt is signed by the floor and names this journal's event."""
    from croupier.journal.signing import anchor_signed, read_public_key
    from croupier.journal.store import Journal, JournalError

    if anchor is None:
        return Finding("floor enrolment", "warn", "no receipt from the floor yet: the table has published nothing, "
                       "or its key is not enrolled (the floor refuses its events)",
                       "have the floor's administrator enrol the table's public key (croupier floor enrol), then "
                       "check again after a game")
    if config.floor.floor_key is None:
        return Finding("floor enrolment", "warn", f"the floor holds events up to {anchor.seq}; its receipt cannot be "
                       "checked without [floor] floor_key")
    if not anchor_signed(read_public_key(config.floor.floor_key), config.table.id, anchor.seq, anchor.hash,
                         anchor.time, anchor.sig):
        return Finding("floor enrolment", "fail", "the floor's last receipt is not signed by [floor] floor_key",
                       "check [floor] floor_key with the floor's administrator")
    try:
        with Journal.open(config.journal_path, read_only=True) as journal:
            held = journal.hash_at(anchor.seq)
    except JournalError as exc:
        return Finding("floor enrolment", "fail", str(exc))
    if held != anchor.hash:
        return Finding("floor enrolment", "fail", f"the floor's receipt names event {anchor.seq} with another hash "
                       "than this journal's", "run `croupier floor check` with the floor's administrator")
    return Finding("floor enrolment", "ok", f"enrolled: the floor holds this table's signed events up to "
                   f"{anchor.seq} (its signed receipt matches the journal)")


def check_clock(probes: Probes) -> Finding:
    now = probes.now()
    if not EARLIEST_SANE_YEAR <= now.year <= LATEST_SANE_YEAR:
        return Finding(
            "clock", "fail", f"the clock says {now:%Y-%m-%d %H:%M}: it has never been set",
            "connect the Pi to a time server (NTP) or fit a battery clock; meanwhile `sudo timedatectl set-time 'YYYY-MM-DD HH:MM:SS'`",
        )
    synced, rtc = probes.ntp_synchronized(), probes.rtc()
    if synced and rtc:
        return Finding("clock", "ok", f"{now:%Y-%m-%d %H:%M}, synchronised with a time server, kept by a battery clock")
    if synced:
        return Finding(
            "clock", "warn", f"{now:%Y-%m-%d %H:%M}, synchronised with a time server, but there is no battery clock "
            "(RTC): after a power cut the Pi starts from an old time until the time server answers, and the table "
            "raises clock-jumped",
            f"{FIT_RTC}; meanwhile `sudo apt install fake-hwclock` starts the clock from the last time saved",
        )
    told = "is not synchronised" if synced is False else "cannot be confirmed as synchronised"
    return Finding(
        "clock", "fail", f"{now:%Y-%m-%d %H:%M} {told} with a time server"
        + ("" if rtc else " and there is no battery clock (RTC)") + "; the journal's times come from it",
        f"set the casino's time server: chrony (`sudo apt install chrony`, `server NTP-HOST iburst` in "
        "/etc/chrony/chrony.conf) or systemd-timesyncd (NTP= in /etc/systemd/timesyncd.conf, "
        "`sudo systemctl enable --now systemd-timesyncd`)" + ("" if rtc else f"; and {FIT_RTC}"),
    )


def report(findings: list[Finding]) -> str:
    lines = []
    width = max([8, *(len(f.check) for f in findings)])  # the messages start in one column
    for f in findings:
        lines.append(f"{f.status.upper() if f.status == 'fail' else f.status:5} {f.check:{width}} {f.message}")
        if f.fix and f.status != "ok":
            lines.append(f"{'':{width + 6}} fix: {f.fix}")
    failures = sum(f.status == "fail" for f in findings)
    lines.append(f"{failures} problem{'s' if failures != 1 else ''} to fix." if failures else "Ready.")
    return "\n".join(lines)


def _allows(st: os.stat_result, user: UserInfo, want: int) -> bool:
    """Unix permission bits: `want` (4 read, 2 write, 1 search) for this user on this file."""
    if user.uid == 0:
        return True
    shift = 6 if st.st_uid == user.uid else 3 if st.st_gid in user.gids else 0
    return (st.st_mode >> shift) & want == want


def _access_problem(check: str, path: str, st: os.stat_result, probes: Probes, user: UserInfo | None, user_name: str, want: int) -> Finding | None:
    """Why `user` cannot use `path` (`want`: 4 read, 2 write, 1 search), or None. A missing user is
    check_user's finding. Devices are shared through their group; the journal's files are the user's own."""
    if user is None or _allows(st, user, want):
        return None
    group = probes.group_name(st.st_gid)
    where = f"{path} (group {group}, mode {st.st_mode & 0o777:04o})"
    if stat.S_ISDIR(st.st_mode):
        return Finding(
            check, "fail", f"user {user_name} cannot write in {where}",
            f"set journal.path to a directory {user_name} owns (the table service makes /var/lib/croupier its own "
            f"when it starts), or `sudo chown {user_name}:{user_name} {path}`",
        )
    if not stat.S_ISCHR(st.st_mode):
        # The journal and its -wal and -shm files, written once by someone else.
        return Finding(check, "fail", f"user {user_name} cannot write to {where}", f"`sudo chown {user_name}:{user_name} {path}*`")
    if st.st_gid not in user.gids:
        return Finding(check, "fail", f"{where}: user {user_name} is not in group {group}", f"`sudo usermod -aG {group} {user_name}`, then restart the service")
    return Finding(check, "fail", f"{where} does not let its group read and write", 'the udev rule should set MODE="0660"; meanwhile `sudo chmod g+rw ' + path + "`")


class SystemProbes:
    """The real machine."""

    def stat(self, path: str) -> os.stat_result | None:
        try:
            return os.stat(path)
        except OSError:
            return None

    def user(self, name: str) -> UserInfo | None:
        import pwd

        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            return None
        return UserInfo(name, entry.pw_uid, frozenset(os.getgrouplist(name, entry.pw_gid)))

    def group_name(self, gid: int) -> str:
        import grp

        try:
            return grp.getgrgid(gid).gr_name
        except KeyError:
            return str(gid)

    def holders(self, path: str) -> list[tuple[int, str]]:
        target = os.path.realpath(path)
        found = []
        for pid_dir in glob.glob("/proc/[0-9]*"):
            pid = int(pid_dir.rsplit("/", 1)[1])
            if pid == os.getpid():
                continue
            try:
                if any(os.readlink(fd) == target for fd in glob.glob(f"{pid_dir}/fd/*")):
                    found.append((pid, Path(pid_dir, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()))
            except OSError:
                continue  # gone, or another user's process
        return found

    def is_root(self) -> bool:
        return os.geteuid() == 0

    def board_model(self) -> str | None:
        try:
            model = Path("/proc/device-tree/model").read_bytes().rstrip(b"\0").decode(errors="replace")
        except OSError:
            return None
        return model if model.startswith("Raspberry Pi") else None

    def module_available(self, name: str) -> bool:
        # Found without importing it: RPi.GPIO raises on import on anything but a Pi.
        package, _, sub = name.partition(".")
        spec = importlib.util.find_spec(package)
        if spec is None or not sub:
            return spec is not None
        return any(glob.glob(os.path.join(loc, f"{sub}*")) for loc in spec.submodule_search_locations or ())

    def glob(self, pattern: str) -> list[str]:
        return sorted(glob.glob(pattern))

    def disk_free(self, path: str) -> int:
        return shutil.disk_usage(path).free

    def read_only(self, path: str) -> bool:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)

    def ntp_synchronized(self) -> bool | None:
        return synchronised()[0]

    def rtc(self) -> bool:
        return has_rtc()

    def now(self) -> datetime:
        return datetime.now()

    def floor_receipt(self, url: str, access, table_id: str):
        """(problem, the floor's last anchor for the table or None), asking the broker with the table's login."""
        import asyncio

        from croupier.floor.wire import ANCHORS_STREAM, Anchor, WireError, anchor_subject, close_quietly, connect

        async def ask():
            from nats.js.errors import NotFoundError

            nc = await connect([s.strip() for s in url.split(",") if s.strip()], access)
            try:
                try:
                    msg = await nc.jetstream(timeout=5).get_last_msg(ANCHORS_STREAM, anchor_subject(table_id))
                except NotFoundError:
                    return None
                return Anchor.decode(msg.data)
            finally:
                await close_quietly(nc)

        try:
            return None, asyncio.run(asyncio.wait_for(ask(), 15))
        except WireError as exc:
            return f"its receipt cannot be read ({exc})", None
        except Exception as exc:  # unreachable, refused, TLS: said in one line
            return f"{exc.__class__.__name__} {exc}".strip(), None
