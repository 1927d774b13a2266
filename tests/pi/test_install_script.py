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
SYSTEM_COMMANDS = ("apt-get", "groupadd", "useradd", "usermod", "chown", "chgrp", "udevadm", "systemctl", "raspi-config",
                   "python3", "chroot", "runuser")
# Questions the script asks, answered "not installed, unknown" and never recorded.
QUESTIONS = ("getent", "dpkg-query", "dpkg")
PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"

RECORDER = r"""#!/usr/bin/env bash
# Records the call; keeps just enough state (users, groups, a virtualenv) for the script's checks.
name=$(basename "$0")
case "$name" in
    getent) grep -qx "$1:$2" "$STUB_STATE" 2>/dev/null; exit ;;
    dpkg-query | dpkg) exit 1 ;;
    runuser) if [[ " $* " == *" -tAc "* ]]; then exit 0; fi ;;  # psql asked a question: no such database
esac
printf '%s\n' "$name $*" >>"$STUB_LOG"
case "$name" in
    runuser)
        # Where the other user's command starts, and a file it reads on its stdin.
        echo "  in $PWD" >>"$STUB_LOG"
        if [[ " $* " == *" -f - "* ]]; then echo "  stdin: $(head -n 1)" >>"$STUB_LOG"; fi
        ;;
    useradd) echo "passwd:${*: -1}" >>"$STUB_STATE" ;;
    groupadd) echo "group:${*: -1}" >>"$STUB_STATE" ;;
    python3)
        if [ "$1 $2" = "-m venv" ]; then
            mkdir -p "${*: -1}/bin"
            for tool in python pip croupier; do ln -s "$0" "${*: -1}/bin/$tool"; done
        fi
        ;;
    pip | chroot)
        # `pip wheel ... --wheel-dir DIR SRC`: a wheel appears in DIR (inside the root, for chroot).
        image=
        [ "$name" = chroot ] && image=$1
        if [[ " $* " == *" wheel "* ]]; then
            while [ $# -gt 0 ]; do [ "$1" = --wheel-dir ] && mkdir -p "$image$2" && touch "$image$2/croupier-0.1.0-py3-none-any.whl"; shift; done
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
        for name in (*SYSTEM_COMMANDS, *QUESTIONS):
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
            "CROUPIER_SYSTEMD_RUN": str(tmp_path / "no-systemd"),  # not booted: no udevadm, no daemon-reload
        }

    def install(self, *options: str, script: Path = SCRIPT) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(script), *options], env=self.env, capture_output=True, text=True, timeout=120)

    def dry_run(self, *options: str, script: Path = SCRIPT) -> str:
        """A dry run's output, which changed nothing."""
        result = self.install("--dry-run", *options, script=script)
        assert result.returncode == 0, result.stderr
        assert self.calls() == [] and self.files() == []
        return result.stdout


    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def files(self) -> list[str]:
        return sorted(str(p.relative_to(self.root)) for p in self.root.rglob("*") if p.is_file())


def assert_in_order(out: str, steps: list[str]) -> None:
    positions = [out.find(step) for step in steps]
    assert -1 not in positions, [s for s, p in zip(steps, positions) if p == -1]
    assert positions == sorted(positions), "the steps are printed in the order they run"


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
    out = machine.dry_run("--billboard", "--review-web", "--boot-config")
    assert_in_order(out, [
        "apt-get install -y python3-venv python3-gpiozero python3-pil python3-cryptography python3-cffi fonts-dejavu-core python3-rpi.gpio\n",
        "+ useradd --system --user-group --home-dir /var/lib/croupier",
        "+ usermod --append --groups dialout croupier",
        "+ usermod --append --groups gpio croupier",
        f"+ python3 -m venv --system-site-packages {machine.root}/opt/croupier/venv",
        "pip --disable-pip-version-check wheel --no-deps --wheel-dir ",
        "-py3-none-any.whl\\[floor\\,web\\]\n",
        "pip --disable-pip-version-check install --force-reinstall --no-deps ",
        f"+ write {machine.root}/etc/croupier/croupier.toml",
        f"+ install -m 0644 {ROOT}/hw/99-croupier-wheel.rules {machine.root}/etc/udev/rules.d/99-croupier-wheel.rules",
        "# BEGIN croupier",
        "+ systemctl disable getty@tty1.service",
        "+ systemctl enable croupier-table.service croupier-billboard.service croupier-review-web.service",
    ])


@needs_hw_files
def test_a_pi_5_gets_lgpio_and_another_machine_no_pin_driver(tmp_path):
    (tmp_path / "pi5").mkdir()
    out = Machine(tmp_path / "pi5", PI5).install("--dry-run").stdout
    assert "apt-get install -y python3-venv python3-gpiozero python3-pil python3-cryptography python3-cffi fonts-dejavu-core python3-lgpio\n" in out
    (tmp_path / "laptop").mkdir()
    out = Machine(tmp_path / "laptop", None).install("--dry-run").stdout
    assert "apt-get install -y python3-venv python3-gpiozero python3-pil python3-cryptography python3-cffi fonts-dejavu-core\n" in out and "not a Raspberry Pi" in out


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
    assert any(c.startswith("pip --disable-pip-version-check install --force-reinstall --no-deps") for c in calls), \
        "the package itself is reinstalled from the new wheel"


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


@needs_hw_files
def test_a_floor_linked_table_may_reach_the_floor_and_nothing_else(tmp_path):
    machine = Machine(tmp_path)
    assert machine.install().returncode == 0
    dropin = machine.root / "etc/systemd/system/croupier-table.service.d/floor.conf"
    assert not dropin.exists(), "no [floor] url: the table keeps no network"
    config = machine.root / "etc/croupier/croupier.toml"
    config.write_text(config.read_text().replace(
        "[logging]", '[floor]\nurl = "nats://127.0.0.1:4222,tls://user:s3cret@192.0.2.7:4222"  # two nodes\n\n[logging]'))
    result = machine.install()
    assert result.returncode == 0, result.stderr
    text = dropin.read_text()
    assert "PrivateNetwork=no" in text and "IPAddressDeny=any" in text
    allowed = next(line for line in text.splitlines() if line.startswith("IPAddressAllow="))
    assert "127.0.0.1" in allowed.split() and "192.0.2.7" in allowed.split()
    assert "s3cret" not in result.stdout + text, "never a password in the output or the unit"
    # The link removed: the drop-in goes, and the table is back to no network.
    config.write_text(config.read_text().replace("[floor]", "[floor]\nurl = \"\"\n[old]"))
    assert machine.install().returncode == 0
    assert not dropin.exists()


@needs_hw_files
def test_a_mounted_root_is_prepared_without_a_running_system(tmp_path):
    machine = Machine(tmp_path)
    image = machine.root
    for folder in ("etc", "tmp", "var/lib", "boot/firmware"):
        (image / folder).mkdir(parents=True, exist_ok=True)
    (image / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (image / "etc/group").write_text("root:x:0:\ndialout:x:20:\n")
    (image / "boot/firmware/cmdline.txt").write_text("console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait\n")
    env = {k: v for k, v in machine.env.items() if k != "CROUPIER_INSTALL_ROOT"}
    env["CROUPIER_SYSTEMD_RUN"] = "/"  # this machine "runs systemd": an image must not care
    result = subprocess.run(["bash", str(SCRIPT), "--root", str(image), "--boot-config", "--billboard"], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    calls = machine.calls()
    # Nothing acts on this machine: udev and systemd are left alone, commands run inside the root.
    assert not any(c.startswith(("udevadm", "raspi-config", "apt-get", "python3")) for c in calls), calls
    assert not any(c.startswith("systemctl") and f"--root={image}" not in c for c in calls), calls
    assert f"systemctl --root={image} disable getty@tty1.service" in calls
    assert f"useradd --root {image} --system --user-group --home-dir /var/lib/croupier --no-create-home " \
           "--shell /usr/sbin/nologin croupier" in calls
    assert any(c.startswith(f"chroot {image} ") and " apt-get install -y python3-venv" in c for c in calls)
    assert any(c.startswith(f"chroot {image} ") and c.endswith("python3 -m venv --system-site-packages /opt/croupier/venv")
               for c in calls)
    assert any(c.startswith(f"chroot {image} ") and "install --force-reinstall --no-deps /tmp/croupier-install." in c
               for c in calls)
    assert (image / "etc/croupier/croupier.toml").is_file()
    assert "console=serial0" not in (image / "boot/firmware/cmdline.txt").read_text()
    assert not list((image / "tmp").iterdir()), "the build folder is removed"
    assert "croupier doctor" not in "\n".join(calls)
    # Each card takes its own table id at first boot; the screens wait for it.
    assert f"systemctl --root={image} enable croupier-table.service croupier-billboard.service croupier-first-boot.service" in calls
    assert (image / "etc/croupier/first-boot-pending").is_file()
    assert "Requires=croupier-first-boot.service" in (
        image / "etc/systemd/system/croupier-table.service.d/first-boot.conf").read_text()
    assert (image / "opt/croupier/first-boot.sh").stat().st_mode & 0o111


def first_boot(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(ROOT / "hw/first-boot.sh")], env={**os.environ, "CROUPIER_FIRST_BOOT_ROOT": str(root)},
                          capture_output=True, text=True, timeout=30)


@needs_hw_files
def test_a_cloned_card_takes_its_own_table_id_at_first_boot(tmp_path):
    machine = Machine(tmp_path)
    assert machine.install().returncode == 0
    root = machine.root
    (root / "etc/croupier/first-boot-pending").write_text("")
    (root / "var/lib/croupier").mkdir(parents=True, exist_ok=True)
    result = first_boot(root)
    assert result.returncode == 1 and "no table id" in result.stderr
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/croupier-table.txt").write_text('id = "T 7; rm -rf /"\n')
    result = first_boot(root)
    assert result.returncode == 1 and "no valid id" in result.stderr
    (root / "boot/firmware/croupier-table.txt").write_text('id = "T7"   # the table by the bar\nname = "Roleta 7"\n')
    result = first_boot(root)
    assert result.returncode == 0, result.stderr
    config = load_config(root / "etc/croupier/croupier.toml")
    assert (config.table.id, config.table.name) == ("T7", "Roleta 7")
    assert not (root / "etc/croupier/first-boot-pending").exists()


TINY_PROJECT = """[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]
[project]
name = "croupier"
version = "0.1.0"
"""

# A build backend with no dependencies (PEP 517), so the test builds offline. Like setuptools it
# stages the package in the tree's build/lib and keeps what is there from an earlier build.
TINY_BACKEND = '''import base64, hashlib, pathlib, shutil, zipfile

def get_requires_for_build_wheel(config_settings=None):
    return []

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = "croupier-0.1.0-py3-none-any.whl"
    shutil.copytree("croupier", "build/lib/croupier", dirs_exist_ok=True)
    lib = pathlib.Path("build/lib")
    files = {str(p.relative_to(lib)): p.read_bytes() for p in sorted(lib.rglob("*")) if p.is_file()}
    info = "croupier-0.1.0.dist-info/"
    files[info + "METADATA"] = b"Metadata-Version: 2.1\\nName: croupier\\nVersion: 0.1.0\\n"
    files[info + "WHEEL"] = b"Wheel-Version: 1.0\\nGenerator: tiny\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
    record = []
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / name, "w") as whl:
        for path, data in files.items():
            whl.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        whl.writestr(info + "RECORD", "\\n".join(record + [info + "RECORD,,"]) + "\\n")
    return name
'''


@needs_hw_files
def test_an_upgrade_removes_a_module_the_new_version_dropped_and_never_writes_into_the_tree(tmp_path):
    """A real venv and a real pip (offline, from a wheelhouse): croupier reduced to two modules."""
    wheelhouse = tmp_path / "wheels"
    wheelhouse.mkdir()
    tree = tmp_path / "tree"
    for part in ("hw", "systemd"):
        shutil.copytree(ROOT / part, tree / part)
    (tree / "croupier").mkdir()
    shutil.copy(ROOT / "croupier/default-config.toml", tree / "croupier")
    (tree / "croupier/__init__.py").write_text("")
    (tree / "croupier/old_module.py").write_text("GONE_IN_THE_NEXT_VERSION = 1\n")
    (tree / "pyproject.toml").write_text(TINY_PROJECT)
    (tree / "backend.py").write_text(TINY_BACKEND)
    machine = Machine(tmp_path)
    machine.env["PATH"] = machine.env["PATH"].replace(f"{tmp_path}/stubs:", f"{tmp_path}/real:{tmp_path}/stubs:")
    (tmp_path / "real").mkdir()
    (tmp_path / "real/python3").symlink_to(sys_python())  # a real venv, not the recorder's

    def install() -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(tree / "hw/install.sh"), "--wheelhouse", str(wheelhouse)], env=machine.env,
                              capture_output=True, text=True, timeout=300)

    before = sorted(p.relative_to(tree) for p in tree.rglob("*"))
    result = install()
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    site = next((machine.root / "opt/croupier/venv/lib").glob("python3*/site-packages"))
    assert (site / "croupier/old_module.py").is_file()
    (tree / "croupier/old_module.py").unlink()
    result = install()
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert (site / "croupier/__init__.py").is_file()
    assert not (site / "croupier/old_module.py").exists(), "an upgrade removes what the new version dropped"
    after = sorted(p.relative_to(tree) for p in tree.rglob("*"))
    assert after == [p for p in before if p.name != "old_module.py"], "nothing is written into the source tree"


def sys_python() -> str:
    """The interpreter a Pi's `python3` is: the base one, not a virtualenv's."""
    import sys

    return str(Path(sys._base_executable if hasattr(sys, "_base_executable") else sys.executable).resolve())


FLOOR_SCRIPT = ROOT / "hw" / "install-floor.sh"


def test_the_floor_install_dry_run_shows_every_step_and_changes_nothing(tmp_path):
    assert subprocess.run(["bash", "-n", str(FLOOR_SCRIPT)]).returncode == 0
    machine = Machine(tmp_path)
    out = machine.dry_run("--view-web", script=FLOOR_SCRIPT)
    assert_in_order(out, [
        "apt-get install -y python3-venv python3-psycopg python3-cryptography python3-cffi python3-bcrypt postgresql "
        "nats-server\n",
        "+ systemctl mask nats-server.service",  # at once: a later failure leaves no stray broker at boot
        "+ useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin croupier_nats",
        "useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin croupier_view",
        "useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin "
        "croupier_pitboss",  # the browser's view: its PostgreSQL role by peer authentication
        "-py3-none-any.whl\\[floor\\,web\\]\n",
        f"+ ln -sfn /usr/sbin/nats-server {machine.root}/opt/croupier/venv/bin/nats-server",
        "+ runuser -u postgres -- createdb floor",
        f"psql -v ON_ERROR_STOP=1 -q -d floor -f - < {ROOT}/hw/floor-roles.sql",
        "listen: 127.0.0.1:4222",
        f"+ write {machine.root}/etc/croupier/floor-view.env (mode 0644)",
        "+ systemctl enable croupier-floor-nats.service croupier-floor-serve.service croupier-floor-view-web.service",
    ])
    assert "floor.env (mode 0600)" in out, "the ingester's file is root's alone"
    assert "|   CROUPIER_FLOOR_SERVE_OPTIONS=\n" in out, "the ingester's login and CA go there with TLS"


def test_the_clusters_other_nodes_get_a_nats_node_only(tmp_path):
    """Nodes 2 and 3 keep the streams with node 1: their own server_name, no store, ingester or view
    (a second ingester with a store of its own would take a share of the tables' events)."""
    machine = Machine(tmp_path)
    out = machine.dry_run("--nats-only", "--node", "floor2", script=FLOOR_SCRIPT)
    assert_in_order(out, [
        "apt-get install -y python3-venv python3-cryptography python3-cffi nats-server\n",
        "+ systemctl mask nats-server.service",
        "+ useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin croupier_nats",
        f"+ ln -sfn /usr/sbin/nats-server {machine.root}/opt/croupier/venv/bin/nats-server",
        "server_name: floor2\n",
        "+ systemctl enable croupier-floor-nats.service\n",
    ])
    for absent in ("postgresql", "croupier_ingest", "createdb", "floor-roles.sql", "floor.env", "floor-serve"):
        assert absent not in out, absent
    for options in (["--nats-only", "--view-web"], ["--node", "floor 2"], ["--node"], ["--node", "--nats-only"],
                    ["--node", "-x"], ["--wheelhouse", str(tmp_path / "absent")]):
        result = machine.install("--dry-run", *options, script=FLOOR_SCRIPT)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, (options, result.stderr)
    # A node set up as floor2 is not made node 1 by a run without --nats-only (a second ingester).
    config = machine.root / "etc/croupier/nats-server.conf"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("server_name: floor2\nlisten: 127.0.0.1:4222\n")
    for options in ([], ["--node", "floor3", "--nats-only"]):
        result = machine.install("--dry-run", *options, script=FLOOR_SCRIPT)
        assert result.returncode == 2 and "--node floor2" in result.stderr, (options, result.stderr)
    assert machine.install("--dry-run", "--nats-only", "--node", "floor2", script=FLOOR_SCRIPT).returncode == 0
    assert machine.install("--dry-run", "--nats-only", script=FLOOR_SCRIPT).returncode == 0
    # Node 1 (its ingester's floor.env) is not made a NATS node only by a run with --nats-only.
    config.write_text("server_name: floor1\nlisten: 127.0.0.1:4222\n")
    (config.parent / "floor.env").write_text("CROUPIER_FLOOR_STORE=postgresql:///floor\n")
    result = machine.install("--dry-run", "--nats-only", script=FLOOR_SCRIPT)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "without --nats-only" in result.stderr
    assert machine.install("--dry-run", script=FLOOR_SCRIPT).returncode == 0


def test_a_new_nats_only_node_is_named(tmp_path):
    """Without --node a new NATS-only node would take node 1's server_name, floor1."""
    result = Machine(tmp_path).install("--dry-run", "--nats-only", script=FLOOR_SCRIPT)
    assert result.returncode == 2 and "--node floor2" in result.stderr and result.stderr.count("\n") == 1


def test_the_floor_install_gives_postgres_nothing_it_cannot_open(tmp_path):
    """A clone in /root: postgres may neither enter the directory the install runs from nor read the
    roles file there, so it gets the file on its stdin and starts in /."""
    machine = Machine(tmp_path)
    result = subprocess.run(["bash", str(FLOOR_SCRIPT)], env=machine.env, capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    calls = machine.calls()
    roles = calls.index("runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -d floor -f -")
    assert calls[roles + 1:roles + 3] == ["  in /", "  stdin: " + (ROOT / "hw/floor-roles.sql").read_text().splitlines()[0]]
    assert all(line == "  in /" for line in calls if line.startswith("  in "))
    assert os.readlink(machine.root / "opt/croupier/venv/bin/nats-server") == "/usr/sbin/nats-server", \
        "Debian's nats-server is in /usr/sbin"
    assert "systemctl mask nats-server.service" in calls, "the package's own broker would hold port 4222"


@needs_hw_files
def test_the_floor_drop_in_is_a_valid_part_of_the_table_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    machine = Machine(tmp_path)
    assert machine.install().returncode == 0
    config = machine.root / "etc/croupier/croupier.toml"
    config.write_text(config.read_text().replace("[logging]", '[floor]\nurl = "nats://192.0.2.7:4222"\n\n[logging]'))
    assert machine.install().returncode == 0
    dropin = (machine.root / "etc/systemd/system/croupier-table.service.d/floor.conf").read_text()
    unit = (ROOT / "systemd/croupier-table.service").read_text()
    service_lines = dropin.split("[Service]\n", 1)[1]
    merged = unit.replace("\n[Install]", "\n" + service_lines + "\n[Install]")
    import sys

    merged = merged.replace("/opt/croupier/venv/bin/", str(Path(sys.executable).parent) + "/")
    (tmp_path / "croupier-table.service").write_text(merged)
    result = subprocess.run([analyze, "verify", "--man=no", str(tmp_path / "croupier-table.service")],
                            capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")
