"""mypy over croupier, counted per package: the table's core (`rules`, `table`, `journal`,
`history`, `session.py`) has no error, and every other package no more than mypy-allowance.json
beside this file allows. The allowance only falls: lower it when a package gets better.

Run by `python3 dev.py test` before the tests; exits 1 naming each package over its allowance.
"""
from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent
ALLOWANCE = Path(__file__).with_name("mypy-allowance.json")
CORE = ("rules", "table", "journal", "history", "session")  # held to no error, whatever the allowance says
ERROR = re.compile(r"^croupier/([^/:]+?)(?:\.py)?[/:].*: error: ", re.MULTILINE)


def package_of(line: str) -> str | None:
    found = ERROR.match(line)
    return found.group(1) if found else None


def over_allowance(found: Counter[str], allowed: dict[str, int]) -> list[str]:
    """The packages with more errors than allowed (a package not listed is allowed none)."""
    return sorted(package for package, count in found.items() if count > allowed.get(package, 0))


def main() -> int:
    allowed: dict[str, int] = {**json.loads(ALLOWANCE.read_text(encoding="utf-8")), **dict.fromkeys(CORE, 0)}
    os.chdir(ROOT)  # the configuration's paths, and the errors' file names, are the project's
    out, err, status = api.run([])
    if status == 2:  # mypy itself failed (a bad configuration), not the code
        print(f"mypy could not run:\n{out}{err}", file=sys.stderr)
        return 2
    lines = out.splitlines()
    found = Counter(package for line in lines if (package := package_of(line)))
    over = over_allowance(found, allowed)
    for package in over:
        print(f"mypy: croupier/{package} has {found[package]} errors, {allowed.get(package, 0)} allowed "
              f"({ALLOWANCE.name}):", file=sys.stderr)
        print("\n".join(f"  {line}" for line in lines if package_of(line) == package), file=sys.stderr)
    fell = {package: found[package] for package, count in allowed.items() if found[package] < count}
    if fell:
        print(f"mypy: fewer errors than allowed, lower {ALLOWANCE.name} to: {json.dumps(fell, sort_keys=True)}",
              file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
