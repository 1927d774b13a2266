"""`croupier payout`: what the bank collects and pays for a winning number, in the croupier's order.

    croupier payout --profile ID [--house DIR] [--sign FILE] --number N [--json]
                    [--value OWNER=AMOUNT] BET...
    BET := SPEC [ "x" CHIPS ] [ "@" OWNER ]      e.g. 17  14/17x2@blue  orphelinsx5@red  complete:17
                                                 17x10@value-marked

Only the rules core and the one profile asked for are read, so the answer comes at once (no UI,
no hardware libraries, no other profile); a --sign file is read by the configuration's own reader,
so it takes exactly what the table takes.
"""
from __future__ import annotations

import argparse
import os
import sys
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from croupier.rules.names import DEFAULT_PROFILE, MARKED_VALUE_CHIPS, VALUE_CHIPS

TYPE_CHECKING = False  # typing's flag, which mypy reads, without importing typing at start-up
if TYPE_CHECKING:
    from croupier.rules.settlement import Settlement

SUMMARY = "what to collect and pay for a winning number, in the order the regulation says"


MAX_BET = 200  # the longest real BET (an announced bet, a big chip count, an owner) is far shorter


def _winning_number(text: str) -> int:
    if not text.isdecimal() or int(text) > 36:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number on the wheel (0-36)")
    return int(text)


def _chip_value(text: str) -> tuple[str, Decimal]:
    owner, equals, amount = text.partition("=")
    try:
        value = Decimal(amount)
    except InvalidOperation:
        value = None
    if not equals or not owner or value is None or not value.is_finite() or value <= 0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not OWNER=AMOUNT with an amount above 0 (like blue=2.50)")
    return owner, value


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help, as wide as the terminal as shutil.get_terminal_size tells it: asked here,
    where argparse would import shutil (and with it zlib, bz2 and lzma) for every option added."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return argparse.HelpFormatter(prog, width=(columns if columns > 0 else 80) - 2)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier payout", formatter_class=_formatter, description=SUMMARY[0].upper() + SUMMARY[1:] + ".",
        epilog="BET := SPEC[xCHIPS][@OWNER]. SPEC: 17, 14/17, 16/17/18, 13/14/16/17, "
               "13/14/15/16/17/18, dozen1..3, column1..3, dozen1+2, dozen2+3, column1+2, "
               "column2+3, red, black, even, odd, low, high, voisins, zero-spiel, tiers, "
               "orphelins, nassa, neighbours:N:K, complete:N, finale:D, finale:A/B. CHIPS are "
               "chips per unit of a recipe (default 1); OWNER is a colour name, "
               f"{VALUE_CHIPS} for value chips, or {MARKED_VALUE_CHIPS} for value-marked chips (any bet, PT-A 16).")
    parser.add_argument("--profile", help="the regulation the table runs under: a profile's file "
                        f"name (default: the sign file's table.profile, else {DEFAULT_PROFILE})")
    parser.add_argument("--house", metavar="DIR", help="a house directory: its profiles/*.toml "
                        "beside the packaged ones (the configuration's table.house_directory)")
    parser.add_argument("--sign", metavar="FILE", help="check the bets against a table sign: a TOML "
                        "file with [table] minimum and [table.sign] (the configuration file will do); "
                        "chips count at the table minimum unless --value says otherwise")
    parser.add_argument("--number", required=True, type=_winning_number,
                        help="the winning number, 0 to 36")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--value", action="append", type=_chip_value, default=[],
                        metavar="OWNER=AMOUNT", help="what one chip of OWNER is worth, for the "
                        "payment in money (repeatable)")
    parser.add_argument("bets", nargs="+", metavar="BET", help="a bet, as above")
    return parser


def _within_limits(bets, limits, chip_values):
    """Each owner's bets checked as the table checks a player's: what plays, and what the sign
    refused or cut down (the rules' words and rule)."""
    from croupier.rules.limits import ACCEPTED, check_player

    owners: dict = {}
    for bet in bets:
        owners.setdefault(bet.owner, []).append(bet)
    checks = {}
    for owner, placed in owners.items():
        value = chip_values.get(owner, limits.minimum)
        for check in check_player(placed, limits, value):
            checks[id(check.bet)] = check
    played = [checks[id(bet)].played for bet in bets if checks[id(bet)].played is not None]
    return played, [checks[id(bet)] for bet in bets if checks[id(bet)].status != ACCEPTED]


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    from croupier.rules.bets import BetError, parse_bet
    from croupier.rules.profiles import ProfileError, load_profile
    from croupier.rules.settlement import settle
    try:
        if args.sign:  # read as the table reads it, with the configuration's reader
            from croupier.config import read_sign

            profile, limits = read_sign(args.sign, args.profile, args.house)
        else:
            profile, limits = load_profile(args.profile or DEFAULT_PROFILE, args.house), None
    except (ValueError, ProfileError) as error:
        parser.error(str(error))
    bets, problems = [], []
    for text in args.bets:
        if len(text) > MAX_BET:
            problems.append(f"{text[:40]}...: longer than {MAX_BET} characters")
            continue
        try:
            bets.append(parse_bet(text, profile))
        except BetError as error:
            problems.append(str(error))
    if problems:
        for problem in problems:
            print(f"croupier payout: bad BET {problem}", file=sys.stderr)
        return 2
    notes = []
    if limits is not None:
        bets, notes = _within_limits(bets, limits, dict(args.value))
    settlement = settle(args.number, bets, profile, chip_values=dict(args.value))
    if args.json:
        import json

        result = _as_json(settlement, bets)
        result["limits"] = [{"input": c.bet.text, "status": c.status, "message": c.message,
                             "rule": c.rule, "returned": c.returned_chips} for c in notes]
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(_as_text(settlement, profile.name))
        if notes:
            print("\ntable sign:\n" + "\n".join(f"  {c.message} ({c.rule})" for c in notes))
    return 0


def _number(amount: Fraction | int) -> int | float:
    """A chip count for JSON: whole numbers stay integers; halves are exact in a float."""
    amount = Fraction(amount)
    return int(amount) if amount.denominator == 1 else float(amount)


def _chips(amount: Fraction | int) -> str:
    amount = Fraction(amount)
    return str(amount.numerator) if amount.denominator == 1 else str(float(amount))


def _as_json(settlement: Settlement, bets) -> dict:
    place = {id(line.bet): at for at, line in enumerate(settlement.lines, 1)}
    by_bet = {id(line.bet): line for line in settlement.lines}
    lines = []
    for bet in bets:  # one entry per BET argument, as given
        line = by_bet[id(bet)]
        lines.append({
            "input": bet.text, "owner": bet.owner, "category": bet.category,
            "stake": line.stake, "won": _number(line.won), "kept": _number(line.kept),
            "lost": _number(line.lost), "imprisoned": _number(line.imprisoned),
            "order": place[id(bet)],  # its place in the croupier's work: losers first
        })
    owners = [{
        "owner": o.owner, "staked": o.staked, "won": _number(o.won), "kept": _number(o.kept),
        "lost": _number(o.lost), "imprisoned": _number(o.imprisoned), "stacks": o.stacks,
        "remainder": _number(o.remainder), "money": None if o.money is None else str(o.money),
    } for o in settlement.owners]
    return {"number": settlement.number, "colour": settlement.colour,
            "profile": settlement.profile_id, "lines": lines, "owners": owners}


def _owner(owner: str | None) -> str:
    if owner is None:
        return "(no owner)"
    return "value chips" if owner == VALUE_CHIPS else owner


def _as_text(settlement: Settlement, profile_name: str) -> str:
    out = [f"{settlement.number} {settlement.colour}   ({settlement.profile_id}: {profile_name})"]
    losers = [line for line in settlement.lines if not line.won]
    winners = [line for line in settlement.lines if line.won]
    width = max((len(line.bet.text) for line in settlement.lines), default=0)
    if losers:
        out += ["", "collect:"]
        for line in losers:
            parts = [f"{_chips(line.lost)} of {line.stake} collected"]
            if line.kept:
                parts.append(f"{_chips(line.kept)} back to the player")
            if line.imprisoned:
                parts.append(f"{_chips(line.imprisoned)} en prison")
            out.append(f"  {line.bet.text.ljust(width)}  {line.category:<10}  {', '.join(parts)}")
    if winners:
        out += ["", "pay, in this order:"]
        for line in winners:
            opened = ", ".join(f"{p.name} x{chips}" for p, chips in line.winning_units)
            lost = f"; {_chips(line.lost)} collected" if line.lost else ""
            out.append(f"  {line.bet.text.ljust(width)}  {line.category:<10}  pays "
                       f"{_chips(line.won)}  ({opened}){lost}")
    from croupier.rules.settlement import STACK

    out += ["", "per owner:"]
    for owner in settlement.owners:
        pays = _chips(owner.won)
        if owner.stacks:
            pays += f" = {owner.stacks} stack{'s' if owner.stacks > 1 else ''} of {STACK}"
            pays += f" + {_chips(owner.remainder)}" if owner.remainder else ""
        money = f" ({owner.money})" if owner.money is not None else ""
        out.append(f"  {_owner(owner.owner)}: pays {pays}{money}; keeps {_chips(owner.kept)} "
                   f"of {owner.staked} staked; {_chips(owner.lost)} collected"
                   + (f"; {_chips(owner.imprisoned)} en prison" if owner.imprisoned else ""))
    return "\n".join(out)
