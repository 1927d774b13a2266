"""`croupier report --db PATH [--json] [--config PATH]`: the shift report of a journal, read-only."""
from __future__ import annotations

import argparse
import gc
import sys
from decimal import Decimal
from pathlib import Path

from croupier.commands import arguments

SUMMARY = "the shift report of a journal (--json for the machine-readable form)"
LAST_SPINS = 50  # the text report lists the latest spins; --json has them all


def _parser() -> argparse.ArgumentParser:
    from croupier.paths import CONFIG_LOOKUP

    parser = argparse.ArgumentParser(
        prog="croupier report",
        description="The shift report: spins, voids with reasons, corrections, ball swaps, reliefs and breaches, "
                    "direction repeats, the colour ledger and totals. The journal is opened read-only and its "
                    "hash chain checked: a damaged journal is not reported (exit 1, naming the first bad event).",
    )
    parser.add_argument("--db", required=True, type=arguments.path, help="the journal file")
    parser.add_argument("--json", action="store_true", help="print one JSON object (every spin included)")
    parser.add_argument("--from", dest="since", metavar="DATE", type=_date,
                        help="only what was recorded from this day on (YYYY-MM-DD, the table's time zone)")
    parser.add_argument("--to", dest="until", metavar="DATE", type=_date,
                        help="only what was recorded up to this day, included (YYYY-MM-DD)")
    parser.add_argument("--fresh", action="store_true",
                        help="fold the whole journal again; by default a report takes up the fold the last one "
                             "saved for this journal in your cache directory, if it still checks")
    parser.add_argument("--config", metavar="PATH",
                        help=f"the table's configuration, for the currency the journal does not record (default: "
                             f"{CONFIG_LOOKUP}; without one, amounts are labelled as money)")
    return parser


def _date(text: str):
    from datetime import date

    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2025-03-14") from None


def _bound(day) -> str:
    """Local midnight starting `day`, as the journal records times (UTC, ISO 8601, microseconds)."""
    from datetime import timezone

    from croupier.history.clock import midnight

    return midnight(day).astimezone(timezone.utc).isoformat(timespec="microseconds")


def time_range(since, until) -> tuple[str, str]:
    """The recorded times from day `since` to day `until` (both included, None: no bound): (from, to
    excluded), compared as the journal writes them."""
    from datetime import timedelta

    return _bound(since) if since else "", _bound(until + timedelta(days=1)) if until else "~"


def in_range(records, since, until):
    """The records from day `since` to day `until` (both included, None: no bound), by recorded time."""
    low, high = time_range(since, until)
    for seq, record in records:
        if low <= record["time"] < high:
            yield seq, record


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    # The report makes no reference cycles, and each collection would walk a year of spins again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _report(args)
    finally:
        if collecting:
            gc.enable()


def configured_table(option: str | None):
    """The table section of the table's configuration file (`--config`, else $CROUPIER_CONFIG, else
    the system's), None without one: the built-in defaults are the demo's, not this table's. Every
    time is shown from then on in the table's time zone. Raises ConfigError naming the key of a bad
    file."""
    from croupier.config import config_path, load_config
    from croupier.history.clock import use_zone

    path = config_path(option)
    table = load_config(path).table if path else None
    use_zone(table.time_zone if table else None)
    return table


def _report(args: argparse.Namespace) -> int:
    from croupier.config import ConfigError
    from croupier.journal import report_cache
    from croupier.journal.report import REPORT_KINDS, ReportFold, build_report, write_json
    from croupier.journal.store import GENESIS, Journal, JournalError
    from croupier.journal.verify import ChainCheck, JournalDamaged

    try:
        table = configured_table(args.config)
    except ConfigError as exc:
        print(f"croupier report: {exc}", file=sys.stderr)
        return 2
    try:
        with Journal.open(args.db, read_only=True) as journal:
            # The events up to where the fold the last report saved reached were checked then, if it
            # still checks: the whole journal's report goes on from that fold; a report over days
            # takes their records up to there as they are, found by their time.
            whole = args.since is None and args.until is None
            saved = report_cache.load(journal) if not args.fresh else None
            reached = saved[1] if saved else (0, GENESIS)
            fold = saved[0] if saved and whole else ReportFold()
            if not whole and saved:
                fold.add_all(journal.records(REPORT_KINDS, upto=reached[0], times=time_range(args.since, args.until)))
            # Then one pass: each event is checked against the hash chain as the report reads it, and
            # nothing is printed unless the whole chain checks.
            check = ChainCheck(journal, since=reached)
            fold.add_all(in_range(check.records(REPORT_KINDS), args.since, args.until))
            if whole and check.head != reached:
                report_cache.save(journal, fold, check.head)
            report = build_report((), journal.head, table.currency if table else None, fold)
    except JournalDamaged as damaged:
        print(f"croupier report: {damaged}", file=sys.stderr)
        return 1
    except JournalError as exc:
        print(f"croupier report: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError) as exc:
        print(f"croupier report: {args.db} holds a record this report cannot read ({exc!r}); "
              f"run `croupier verify --db {args.db}`", file=sys.stderr)
        return 1
    report["range"] = {"from": args.since and args.since.isoformat(), "to": args.until and args.until.isoformat()}
    report["checked_before"] = reached[0]  # events up to this one: checked and folded by an earlier report
    if args.json:
        write_json(report, sys.stdout)
    else:
        sys.stdout.write(render(report))
    return 0


def render(report: dict) -> str:
    from croupier.history.clock import stamp, zone_label

    lines: list[str] = []
    add = lines.append
    totals = report["totals"]
    unit = report["currency"] or "money"
    money = (lambda amount: f"{amount} {unit}") if report["currency"] else (lambda amount: f"{amount} (money)")
    add(f"Shift report: {totals['spins']} spins, {totals['voids']} voids, {totals['corrections']} corrections")
    if report["range"]["from"] or report["range"]["to"]:
        add(f"From {report['range']['from'] or 'the first event'} to {report['range']['to'] or 'the last'}, "
            "days of the table's time zone")
    add(f"Times in the table's time zone: {zone_label()}")
    if report["checked_before"]:
        add(f"Events 1-{report['checked_before']} were checked and folded by an earlier report of this journal "
            "(its saved fold was taken up); --fresh checks and folds them all again")
    add(f"Amounts in {unit}" if report["currency"] else
        "Amounts are money in the table's currency, which the journal does not record (--config names it)")
    for table in report["table"]:
        what = (f"opened under {table['profile']}, minimum {money(table['minimum'])}"
                + (" (wheel sensor alone)" if table["sensor_only"] else "")) if table["kind"] == "table-opened" \
            else "closed"
        add(f"  {stamp(table['time'])}  table {what}, by {table['by']}")
    for change in report["limits"]:
        if change["kind"] == "limits-changed":
            what = f"minimum {change['previous']} -> {money(change['minimum'])}"
        else:
            what = f"profile {change['previous']} -> {change['profile']}"
        add(f"  {stamp(change['time'])}  {what} by {change['by']} ({change['reason']})")

    shown = report["spins"][-LAST_SPINS:]
    add("")
    add(f"Spins (the last {len(shown)} of {totals['spins']}; --json lists all):" if len(shown) < totals["spins"]
        else "Spins:")
    for s in shown:
        corrected = f"  (corrected from {s['corrected_from']})" if "corrected_from" in s else ""
        add(f"  #{s['spin']:<6} {s['number']:>2}  {stamp(s['time'])}  {s['source']:<6} ball {s['ball']}  "
            f"{s['croupier']}  {s['direction'] or '-'}{corrected}")
    sections = (
        ("Voids", report["voids"], lambda v: f"#{v['spin']} {v['reason']}, ball back in {v['put_back']}, by {v['by']}"),
        ("Corrections", report["corrections"],
         lambda c: f"#{c['spin']} {c['previous']} -> {c['number']} by {c['by']}: {c['reason']}"),
        ("Ball swaps", report["ball_swaps"],
         lambda b: f"{b['previous']} -> {b['ball']} by {b['by']}" + (" LATE" if b["late"] else "")),
        ("Ball replacements", report["ball_replacements"],
         lambda b: f"{b['previous']} -> {b['ball']} ({b['diameter_mm']} mm) by {b['by']}: {b['reason']}"),
        ("Reliefs", report["reliefs"],
         lambda r: f"{r['role']} {r['outgoing']} -> {r['incoming']}" + (" OVERDUE" if r["overdue"] else "")
         + (f" ({r['reason']})" if r["reason"] else "")),
        ("Alarms", report["alarms"],
         lambda a: f"{a['kind']}: {a['detail']}"
         + (f"; seen by {a['acknowledged_by']}" if a["acknowledged_by"] else "")
         + (f"; cleared by {a['cleared_by']}: {a['cleared_note']}" if a["cleared_by"] else "; OPEN")),
    )
    for title, rows, show in sections:
        add("")
        add(f"{title}: {len(rows)}")
        for row in rows:
            add(f"  {stamp(row['time'])}  {show(row)}")
    add("")
    add(f"Colour ledger (SRIJ 29): {len(report['colour_ledger'])}" + (f", amounts in {unit}; result = cashed "
                                                                        "out + late chips - bought"
                                                                        if report["colour_ledger"] else ""))
    if report["colour_ledger"]:
        add(f"  {'colour':<8} {'player':<16} {'chip':>7}  {'bought':>10}  {'cashed out':>10}  {'late':>8}  "
            f"{'result':>10}  detail in chips")
    for c in report["colour_ledger"]:
        out = c["cashed_out"]
        result = "in play" if c["result_money"] is None else f"{Decimal(c['result_money']):+}"
        add(f"  {c['colour']:<8} {c['player']:<16} {c['chip_value']:>7}  {c['bought_money']:>10}  "
            f"{out['amount'] if out else '-':>10}  {c['late_money']:>8}  {result:>10}  staked {c['staked']}, "
            f"paid {c['paid']}, collected {c['collected']}, returned {c['returned']}")
    if report["overpayments"]:
        add("")
        add(f"Overpayments on corrected results: {len(report['overpayments'])}")
        for o in report["overpayments"]:
            amount = f" = {money(o['money'])}" if o["money"] is not None else ""
            add(f"  spin {o['spin']}: {o['colour']} paid {o['chips']} chips{amount} on {', '.join(o['positions'])} "
                f"for {o['paid_on']}; the result is {o['number']}: to recover")
    if report["shift_results"]:
        add("")
        add(f"The table's result per shift (sold - cashed out - late chips - foreign chips paid), amounts in {unit}")
    for shift in report["shift_results"]:
        until = stamp(shift["closed"]) if shift["closed"] else "still open"
        add(f"  {stamp(shift['opened']) if shift['opened'] else 'before the first opening'} to {until}: sold {shift['sold_money']}, cashed out "
            f"{shift['cashed_out_money']}, late chips {shift['late_money']}, payouts recorded {shift['paid_money']}"
            + (f", foreign chips paid {shift['foreign_money']}" if shift["foreign_chips"] else "") + "; "
            f"the table {'won' if Decimal(shift['table_result_money']) >= 0 else 'lost'} "
            f"{abs(Decimal(shift['table_result_money']))}"
            + (f" (provisional: {', '.join(shift['colours_in_play_at_end'])} still in play)" if shift["provisional"] else ""))
        for c in shift["colours"]:
            add(f"    {c['colour']:<8} sold {c['sold']} = {c['sold_money']}, cashed out {c['cashed_out']} = "
                f"{c['cashed_out_money']}, late {c['late_chips']} = {c['late_money']}, paid {c['paid']} = {c['paid_money']}")
        for f in shift["foreign_chips"]:
            paid_at = f["chip_value"] or f"{f['table_minimum']}, their table's minimum"
            add(f"    foreign {f['colour']} chips of table {f['table']}, spin {f['spin'] or '-'}: "
                + (f"won, paid {f['chips']} x {paid_at} = {f['amount']}" if f["won"] else f"lost, {f['chips']} taken")
                + f" ({f['by']})")
    if report["croupiers"]:
        add("")
        add("Croupiers: spins, spins per hour, voids, corrections, direction repeats, late reliefs, paid")
        for f in report["croupiers"]:
            add(f"  {f['croupier']:<16} {f['spins']:>6} {f['spins_per_hour']:>6}/h  voids {f['voids']}, corrections "
                f"{f['corrections']}, repeats {f['direction_repeats']}, late reliefs {f['overdue_reliefs']}, paid "
                f"{f['paid_chips']} chips = {money(f['paid_money'])}")
    add("")
    add(f"Totals: bought {money(totals['bought_money'])}, cashed out {money(totals['cashed_out_money'])}, late chips "
        f"{money(totals['late_chips_money'])}"
        + (f", foreign chips paid {money(totals['foreign_chips_money'])}" if report["foreign_chips"] else "")
        + f"; the table's result {money(totals['table_result_money'])} over the "
        f"colours cashed out ({totals['colours_in_play']} still in play); overpaid {money(totals['overpaid_money'])}; "
        f"direction repeats {totals['direction_repeats']}, breaches {totals['breaches']}, alarms open "
        f"{totals['alarms_open']}")
    statistics = report["statistics"]
    add("")
    add(f"Wheel statistics ({statistics['spins']} spins): {statistics['chi_square']['plain']}")
    for line in statistics["alert_lines"]:
        add(f"  ALERT: {line}.")
    head = report["head"]
    add(f"Journal head: event {head['event']}, sha256 {head['sha256']}")
    return "\n".join(map(arguments.printable, lines)) + "\n"  # names recorded before they were checked
