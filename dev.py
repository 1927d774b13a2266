#!/usr/bin/env python3
"""Bootstrap for a fresh clone: `python3 dev.py demo` runs the table, `python3 dev.py test` the tests.

It keeps a virtual environment in .venv, reinstalled whenever pyproject.toml changes, so the
only thing a new machine needs is Python 3.11 or newer.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".pyproject.sha256"

USAGE = """usage: python3 dev.py demo [ARGS...]   run the table with a simulated wheel and mock GPIO
       python3 dev.py test [PYTEST ARGS...]  run the test suite
       python3 dev.py croupier ARGS...       any croupier command (croupier --help)"""


def ensure_venv() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"croupier needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("dev.py: installing croupier, its floor extra and its test tools into .venv", file=sys.stderr)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run(pip + ["-e", f"{ROOT}[test,floor]"], check=True)
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"demo", "test", "croupier"}:
        print(USAGE, file=sys.stderr)
        return 2
    ensure_venv()
    verb, rest = argv[0], argv[1:]
    if verb == "test":
        cmd = [str(BIN / "python"), "-m", "pytest", *rest]
    elif verb == "demo":
        cmd = [str(BIN / "croupier"), "demo", *rest]
    else:
        cmd = [str(BIN / "croupier"), *rest]
    if verb == "test":
        os.chdir(ROOT)  # pytest finds its configuration and tests there; other verbs keep the caller's paths
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
