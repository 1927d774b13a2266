"""`croupier doctor`: check the wheel device, GPIO, the journal's directory, the clock and the
configuration on this machine, and print the fix for each problem."""
from __future__ import annotations

import argparse

from croupier.paths import CONFIG_LOOKUP, SERVICE_USER


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="croupier doctor",
        description="Check that this machine can run the table, and say how to fix what cannot. "
        "Exits 1 when anything fails.",
    )
    parser.add_argument("--config", metavar="PATH",
                        help=f"configuration file (default: {CONFIG_LOOKUP}, else the built-in defaults)")
    parser.add_argument("--user", default=SERVICE_USER, help=f"the user the table runs as (default: {SERVICE_USER})")
    args = parser.parse_args(argv)
    from croupier.doctor import SystemProbes, report, run_checks

    findings = run_checks(args.config, SystemProbes(), args.user)
    print(report(findings))
    return 1 if any(f.status == "fail" for f in findings) else 0
