"""mypy over croupier, counted per file: no file may have an error, except the table's Textual
screens (`croupier/ui`) that mypy-allowance.json beside this file lists, each with its count and
the reason for it. The allowance only falls: a file with more errors than listed fails, and so does
one with fewer (lower its count, or drop it at none), so the list always says what is left.

Run by `python3 dev.py test` before the tests; exits 1 naming each file over or under its allowance.
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
SCREENS = "croupier/ui/"  # the only files an allowance may list
ERROR = re.compile(r"^(croupier/[^:]+\.py):\d+: error: ", re.MULTILINE)


def file_of(line: str) -> str | None:
    found = ERROR.match(line)
    return found.group(1) if found else None


def read_allowance(text: str) -> dict[str, int]:
    """The allowed count by file; ValueError when an entry is not a screen's file with a count
    above 0 and a reason."""
    allowed = {}
    for path, entry in json.loads(text).items():
        if not path.startswith(SCREENS) or not path.endswith(".py"):
            raise ValueError(f"{path}: only the screens ({SCREENS}) may have an allowance")
        if not isinstance(entry, dict) or set(entry) != {"errors", "why"}:
            raise ValueError(f"{path}: give {{\"errors\": COUNT, \"why\": REASON}}")
        count, why = entry["errors"], entry["why"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"{path}: errors must be a count above 0 (drop the entry at none)")
        if not isinstance(why, str) or not why.strip():
            raise ValueError(f"{path}: say why its errors are allowed")
        allowed[path] = count
    return allowed


def over_allowance(found: Counter[str], allowed: dict[str, int]) -> list[str]:
    """The files with more errors than allowed (a file not listed is allowed none)."""
    return sorted(path for path, count in found.items() if count > allowed.get(path, 0))


def under_allowance(found: Counter[str], allowed: dict[str, int]) -> dict[str, int]:
    """The files with fewer errors than allowed, and what they have: their allowance falls to it."""
    return {path: found[path] for path, count in sorted(allowed.items()) if found[path] < count}


def main() -> int:
    try:
        allowed = read_allowance(ALLOWANCE.read_text(encoding="utf-8"))
    except ValueError as problem:
        print(f"mypy: {ALLOWANCE.name}: {problem}", file=sys.stderr)
        return 2
    os.chdir(ROOT)  # the configuration's paths, and the errors' file names, are the project's
    out, err, status = api.run([])
    if status == 2:  # mypy itself failed (a bad configuration), not the code
        print(f"mypy could not run:\n{out}{err}", file=sys.stderr)
        return 2
    lines = out.splitlines()
    found = Counter(path for line in lines if (path := file_of(line)))
    over = over_allowance(found, allowed)
    for path in over:
        print(f"mypy: {path} has {found[path]} errors, {allowed.get(path, 0)} allowed ({ALLOWANCE.name}):",
              file=sys.stderr)
        print("\n".join(f"  {line}" for line in lines if file_of(line) == path), file=sys.stderr)
    under = under_allowance(found, allowed)
    if under:
        print(f"mypy: fewer errors than {ALLOWANCE.name} allows: lower it to (0: drop the entry) "
              f"{json.dumps(under)}", file=sys.stderr)
    return 1 if over or under else 0


if __name__ == "__main__":
    sys.exit(main())
