"""Start-up as a user has croupier: a plain (non-editable) install in a venv of its own, each start
beside its floor, taken in turns so both meet the machine as it is. Run by hand:

    python3 bench/bench_startup.py [--venv DIR] [--starts N] [--rounds N]

`--venv DIR`: a venv holding `pip install .` of this tree (made there when DIR has none; default a
temporary one, made anew). It prints

- `croupier table` to its first whole screen (the key legend drawn, 80x24, TERM=linux) against a
  bare Textual app (App and one Static) started by the same interpreter: aim at most 1.3 times;
  and to the table ready, its journal opened (the first dialog drawn: the new pit boss's PIN);
- cold `croupier payout` against `python -c pass` (bench_startup_payout.py, run by the venv's
  interpreter): aim at most 3 times.
Under a Pi 3's budget put the venv's commands alone in it: `--pi3 PATH` wraps each start.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from bench_pi3 import BARE_TEXTUAL, table_config, time_to_frame

ROOT = Path(__file__).resolve().parents[1]


def installed(folder: Path) -> Path:
    """The venv's interpreter, croupier installed into it from this tree unless it is already."""
    python = folder / "bin" / "python"
    if not (folder / "bin" / "croupier").exists():
        venv.create(folder, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(ROOT)], check=True)
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="a venv with croupier installed (pip install .), or where to make one")
    parser.add_argument("--starts", type=int, default=9, help="starts of each, in turns")
    parser.add_argument("--rounds", type=int, default=30, help="rounds of the payout comparison")
    parser.add_argument("--pi3", metavar="PATH", help="run each start under this Pi 3 budget wrapper")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as name:
        folder = Path(name)
        python = installed(args.venv or folder / "venv")
        wrap = [args.pi3, "--"] if args.pi3 else []
        croupier = [*wrap, str(python.with_name("croupier"))]
        config = table_config(folder, folder / "journal.db")
        time_to_frame([*croupier, "table", "--config", str(config)], b"menu", 1)  # makes the journal and key
        table, ready, bare = [], [], []
        for _ in range(args.starts):
            table += time_to_frame([*croupier, "table", "--config", str(config)], b"menu", 1)
            ready += time_to_frame([*croupier, "table", "--config", str(config)], b"New PIN", 1)
            bare += time_to_frame([*wrap, str(python), "-c", BARE_TEXTUAL], b"menu", 1)
        floor = statistics.median(bare)
        print(f"croupier table to its first screen: median {statistics.median(table):.0f} ms "
              f"(worst {max(table):.0f}), a bare Textual app {floor:.0f} ms: "
              f"{statistics.median(table) / floor:.2f}x (aim <= 1.3x)", flush=True)
        print(f"croupier table ready (its first dialog): median {statistics.median(ready):.0f} ms "
              f"(worst {max(ready):.0f}): {statistics.median(ready) / floor:.2f}x the bare app", flush=True)
        subprocess.run([*wrap, str(python), str(Path(__file__).with_name("bench_startup_payout.py")),
                        "--rounds", str(args.rounds)], check=True)


if __name__ == "__main__":
    main()
