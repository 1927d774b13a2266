"""`croupier wheel-replay`: decode a wheel capture and print the events."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

SUMMARY = "decode a wheel capture (timestamped log or raw lines) and print its events"


def _parser() -> argparse.ArgumentParser:
    from croupier.wheel.registry import PROTOCOL_NAMES

    parser = argparse.ArgumentParser(
        prog="croupier wheel-replay",
        description=(
            "Decode a wheel capture with the protocol's decoder, its timestamps as the clock, and "
            "print results, proposed voids, state changes, faults and command replies. The host "
            "program's own lines in a capture are skipped."
        ),
    )
    parser.add_argument("--protocol", required=True, choices=PROTOCOL_NAMES, help="the wheel's protocol")
    parser.add_argument(
        "--profile",
        metavar="ID",
        help="regulation profile: its minimum ball revolutions (RU 4.12, SRIJ 23) voids weak spins",
    )
    parser.add_argument(
        "--min-revolutions",
        type=int,
        metavar="N",
        help="minimum ball revolutions, instead of the profile's (M360 extended protocol only)",
    )
    parser.add_argument("--json", action="store_true", help='one JSON object per line, each with "type" and "time"')
    parser.add_argument("file", metavar="FILE", help="the capture")
    return parser


def _min_revolutions(args: argparse.Namespace) -> int | None:
    if args.min_revolutions is not None:
        if args.min_revolutions < 1:
            raise ValueError(f"--min-revolutions must be 1 or more, got {args.min_revolutions}")
        return args.min_revolutions
    if args.profile is None:
        return None
    try:
        profiles = importlib.import_module("croupier.rules.profiles")
    except ImportError:
        raise ValueError("regulation profiles are not available in this installation") from None
    try:
        profile = profiles.load_profile(args.profile)
    except (KeyError, ValueError, LookupError, OSError) as e:
        raise ValueError(f"profile {args.profile!r}: {e}") from None
    return profile.min_ball_revolutions


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from croupier.wheel.capture import CaptureFormatError
    from croupier.wheel.replay import as_json, as_text, has_timestamps, replay_file

    prog = "croupier wheel-replay"
    try:
        minimum = _min_revolutions(args)
        absolute = has_timestamps(args.file)
        for event in replay_file(args.file, args.protocol, minimum):
            print(as_json(event) if args.json else as_text(event, absolute))
    except BrokenPipeError:  # `| head`: the reader has gone, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ValueError as e:  # CaptureFormatError is one
        kind = "bad capture" if isinstance(e, CaptureFormatError) else "error"
        print(f"{prog}: {kind}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{prog}: cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0
