"""`croupier report --db PATH [--json] [--config PATH]`: the shift report of a journal, read-only."""
from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from croupier.commands import arguments

if TYPE_CHECKING:
    from croupier.i18n import Presentation
    from croupier.reports.model import ShiftReport

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
    parser.add_argument("--from", dest="since", metavar="DATE", type=arguments.day,
                        help="only what was recorded from this day on (YYYY-MM-DD, the table's time zone)")
    parser.add_argument("--to", dest="until", metavar="DATE", type=arguments.day,
                        help="only what was recorded up to this day, included (YYYY-MM-DD)")
    parser.add_argument("--shift", metavar="N",
                        help="only one shift: its number (1 is the oldest, as `croupier review` numbers them) or "
                             "'last'")
    parser.add_argument("--fresh", action="store_true",
                        help="fold the whole journal again; by default a report takes up the fold the last one "
                             "saved for this journal in your cache directory, if it still checks")
    parser.add_argument("--key", type=arguments.path, metavar="FILE",
                        help="the table's key (default: the configuration's [journal] key, else table.key beside "
                             "the journal): a fold is saved and taken up only when it can be read, signed with a key "
                             "derived from it")
    parser.add_argument("--public-key", type=arguments.path, metavar="FILE",
                        help="the table's public key (default: table-signing.pub beside the journal): the report "
                             "starts from the newest checkpoint the table signed with it, and folds only the events "
                             "after it")
    parser.add_argument("--config", metavar="PATH",
                        help=f"the table's configuration, for the currency the journal does not record and the "
                             f"table's language (default: {CONFIG_LOOKUP}; without one, amounts are labelled as "
                             f"money and the report is in English)")
    parser.add_argument("--language", metavar="LANG",
                        help="the text report's language (en, pt, ru, it, or a house catalog's) instead of the "
                             "table's; --json is the same in every language")
    return parser


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


def in_range(events, since, until):
    """The events from day `since` to day `until` (both included, None: no bound), in recorded
    order: an event belongs to the day the latest time recorded so far falls in, so one written
    under a clock set back is filed after the events before it (as `Journal.events` does)."""
    from datetime import timedelta

    from croupier.history.clock import midnight

    low = midnight(since) if since else None
    high = midnight(until + timedelta(days=1)) if until else None
    latest = None
    for seq, event in events:
        if latest is None or event.time > latest:
            latest = event.time
        if (low is None or low <= latest) and (high is None or latest < high):
            yield seq, event


def in_shift(events, shift):
    """The events of `shift` (a `croupier.review.shifts.Shift`; None: every event), in order. Every
    event is still read: a chain check reading them goes on to the journal's head."""
    for seq, event in events:
        if shift is None or shift.first_seq <= seq <= shift.last_seq:
            yield seq, event


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if arguments.backwards("report", args.since, args.until):
        return 2
    if args.shift is not None and (args.since or args.until):
        print("croupier report: --shift chooses one shift, --from/--to a range of days: give one of them",
              file=sys.stderr)
        return 2
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
    config = configured(option)
    return config.table if config else None


def configured(option: str | None):
    """The table's configuration (as `configured_table` finds it), None without one."""
    from croupier.config import config_path, load_config
    from croupier.i18n import current, present

    path = config_path(option)
    config = load_config(path) if path else None
    present(current().in_zone(config.table.time_zone if config else None))
    return config


def recorded_context(journal, table, notice, start=None):
    """The journal's own currency, time zone, casino and table id (recorded at the opening, and the
    pit boss's changes since): each time is shown in the zone in force then (the configuration's
    where the journal recorded none), and each value the configuration gives otherwise is said
    through `notice`. `start`: a checkpoint taken up, which holds the journal's context up to it."""
    from croupier.i18n import current, present
    from croupier.history.context import KINDS, JournalContext, disagreements, journal_context

    after = start.reached[0] if start else 0
    context = journal_context(journal.events(KINDS, after=after), start.context if start else JournalContext())
    if any(zone for _since, zone in context.zones):
        configured = table.time_zone if table else None
        present(current().in_zones([(since, zone or configured) for since, zone in context.zones]))
    for line in disagreements(context, table):
        notice(line)
    return context


def speak(option: str | None, table, machine: bool) -> None:
    """Word the report in `--language`, else the table's language, else English; --json is the
    machine's and stays in English (its plain-words texts as well). Raises CatalogError for a
    language croupier has no catalog for."""
    from croupier.i18n import SOURCE_LANGUAGE, CatalogError, install, languages

    house = table.house if table else None
    if option is not None and option not in languages(house):
        raise CatalogError(f"there is no {option!r} catalog; use one of {', '.join(languages(house))}")
    wanted = option or (table.language if table else SOURCE_LANGUAGE)
    install(SOURCE_LANGUAGE if machine else wanted, house)


def public_key(args: argparse.Namespace, notice):
    """The table's public key the checkpoints must be signed with: --public-key, else
    table-signing.pub beside the journal; None (with a notice) when it cannot be read."""
    from croupier.journal.signing import SigningKeyError, default_signing_key_path, public_path, read_public_key

    path = args.public_key or public_path(default_signing_key_path(args.db))
    try:
        return read_public_key(path)
    except SigningKeyError as exc:
        if args.public_key or Path(path).exists():
            notice(f"no checkpoint of the table is used: {exc}")
        return None


def _report(args: argparse.Namespace) -> int:
    from croupier.config import ConfigError
    from croupier.i18n import CatalogError, current
    from croupier.journal import checkpoints, report_cache
    from croupier.reports.model import Checkpoint, Range
    from croupier.reports.shift import REPORT_EVENTS, ReportFold, build_report, write_json
    from croupier.journal.key import default_key_path
    from croupier.journal.store import GENESIS, Journal, JournalError
    from croupier.journal.verify import ChainCheck, JournalDamaged

    try:
        config = configured(args.config)
    except ConfigError as exc:
        print(f"croupier report: {exc}", file=sys.stderr)
        return 2
    table = config.table if config else None
    key_path = args.key or (config and config.journal_key) or default_key_path(args.db)
    try:
        speak(args.language, table, args.json)
    except CatalogError as exc:
        print(f"croupier report: --language: {exc}", file=sys.stderr)
        return 2
    def notice(text: str) -> None:
        print(f"croupier report: {text}", file=sys.stderr)

    try:
        with Journal.open(args.db, read_only=True) as journal:
            # The events up to where the fold the last report saved reached were checked then, if it
            # still checks: the whole journal's report goes on from that fold; a report over days
            # takes their records up to there as they are, found by their time.
            whole = args.since is None and args.until is None and args.shift is None
            chosen = None
            if args.shift is not None:
                from croupier.review.shifts import list_shifts, pick_shift

                try:
                    chosen = pick_shift(list_shifts(journal), args.shift)
                except ValueError as error:
                    print(f"croupier report: {error}", file=sys.stderr)
                    return 2
            # A whole report starts from the newest checkpoint the table signed (its own fold of the
            # events before it), else from the fold the last report saved here, if it still checks.
            start = (checkpoints.newest(journal, public_key(args, notice), notice)
                     if whole and not args.fresh else None)
            context = recorded_context(journal, table, notice, start)
            key = None if start else report_cache.fold_key(key_path, args.db, notice)
            saved = report_cache.load(journal, key, notice, mark_only=not whole) if key and not args.fresh else None
            reached = start.reached if start else saved[1] if saved else (0, GENESIS)
            kept = saved[0] if saved and whole else None  # a whole report's saved fold; a part takes its mark only
            fold = start.fold if start else kept if kept is not None else ReportFold()
            if not whole and saved:
                fold.add_all(in_shift(journal.events(REPORT_EVENTS, upto=reached[0],
                                                     times=time_range(args.since, args.until)), chosen))
            # Then one pass: each event is checked against the hash chain as the report reads it, and
            # nothing is printed unless the whole chain checks.
            check = ChainCheck(journal, since=reached)
            fold.add_all(in_shift(in_range(check.events(REPORT_EVENTS), args.since, args.until), chosen))
            if whole and key and check.head != reached:
                report_cache.save(journal, fold, check.head, key, notice)
            report = build_report((), journal.head, context.currency or (table.currency if table else None), fold,
                                  watched=start.watched if start else None,
                                  range=Range(args.since, args.until, chosen.number if chosen else None),
                                  # events up to this one: folded by the table (its checkpoint) or checked
                                  # and folded by an earlier report
                                  checked_before=reached[0],
                                  checkpoint=Checkpoint(*start.reached, start.fingerprint) if start else None)
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
    if args.json:
        write_json(report, sys.stdout)
    else:
        # in the language asked for, each time in the journal's zone in force then
        sys.stdout.write(render(report, current()))
    return 0


def render(report: ShiftReport, presentation: Presentation | None = None) -> str:
    """The text report, in `presentation`'s language and time zones (croupier.i18n; the one shown
    without)."""
    from croupier.i18n import current, showing

    with showing(presentation or current()):
        return _rendered(report)


def _rendered(report: ShiftReport) -> str:
    from croupier.history.clock import stamp, zone_label
    from croupier.history.croupiers import by_value_words
    from croupier.history.money import amounts_words
    from croupier.history.shift_results import currency_split_words
    from croupier.history.ledger import colour_rule_of
    from croupier.history.procedures import AlarmRecord, OpeningRecord, alarm_facts
    from croupier.history.words import (alarm_detail_words, alarm_words, direction_words,
                                        source_words)
    from croupier.history.words import colour_words as colour
    from croupier.history.words import role_words as role
    from croupier.history.words import void_words as void_reason
    from croupier.i18n import _, formats, ngettext
    from croupier.table.events import LimitsChanged

    lines: list[str] = []
    add = lines.append
    totals = report.totals
    several = len(report.money) > 1  # each amount then names its own currency; totals per currency
    unit = report.currency or (", ".join(code or _("money") for code in report.currencies) if several
                               else _("money"))
    if report.currency:
        def money(amount) -> str:
            return formats.money(amount, unit)
    else:
        def money(amount) -> str:
            return _("{amount} (money)").format(amount=formats.money(amount))

    def source(name: str | None) -> str:
        return source_words(name) if name else "-"

    def direction(name: str | None) -> str:
        return direction_words(name) if name else "-"

    def alarm(row: AlarmRecord) -> str:
        detail = alarm_detail_words(row.kind, alarm_facts(report.raised.get(row.alarm)), row.detail)
        return f"{alarm_words(row.kind)}: {detail}" if detail else alarm_words(row.kind)

    add(_("Shift report: {spins}, {voids}, {corrections}").format(
        spins=ngettext("{count} spin", "{count} spins", totals.spins).format(count=totals.spins),
        voids=ngettext("{count} void", "{count} voids", totals.voids).format(count=totals.voids),
        corrections=ngettext("{count} correction", "{count} corrections", totals.corrections).format(
            count=totals.corrections)))
    if report.range.bounded:
        add(_("From {since} to {until}, days of the table's time zone").format(
            since=report.range.since or _("the first event"), until=report.range.until or _("the last")))
    if report.range.shift is not None:
        add(_("Shift {number} only (`croupier review` numbers the shifts the same way)").format(
            number=report.range.shift))
    add(_("Times in the table's time zone: {zone}").format(zone=zone_label()))
    if report.checkpoint:
        point = report.checkpoint
        add(_("Events 1-{event} were folded by the table itself: its checkpoint after event {event}, signed with its "
              "key {fingerprint}, was taken up and only the events after it were checked here; `croupier verify` "
              "checks them all, --fresh folds them all again").format(event=point.event,
                                                                       fingerprint=point.signed_by))
    elif report.checked_before:
        add(_("Events 1-{event} were checked and folded by an earlier report of this journal (its saved fold was "
              "taken up); --fresh checks and folds them all again").format(event=report.checked_before))
    def own(amount, code) -> str:
        """An amount in a currency of a report of several, else as the report's one currency reads."""
        return formats.money(amount, code) if several else formats.money(amount)

    def recorded(amount, code) -> str:
        """A limit in the currency its opening recorded (a shift without money moved is in no total's)."""
        return formats.money(amount, code) if code else money(amount)

    if several:
        add(_("Amounts in {currencies}: each with its own shift's currency; totals per currency, never added "
              "together").format(currencies=", ".join(code or _("money") for code in report.currencies)))
    else:
        add(_("Amounts in {currency}").format(currency=unit) if report.currency else
            _("Amounts are money in the table's currency, which the journal does not record (--config names it)"))
    for shift in report.mixed_shifts:
        if shift.changed_to is not None:
            add("  " + (currency_split_words(shift, stamp) or ""))
    for statement in report.mixed_colours:
        add("  " + _("MIXED CURRENCIES: {colour} ({player}) was given in {currency} and was in play when the currency "
                     "changed to {to}: its figures are in neither currency's totals").format(
            colour=colour(statement.colour), player=statement.player, currency=statement.currency or "-",
            to=statement.currency_changed))
    for table in report.table:
        if isinstance(table, OpeningRecord):
            what = (_("table opened under {profile}, minimum {minimum}, by {by}") if not table.sensor_only else
                    _("table opened under {profile}, minimum {minimum} (wheel sensor alone), by {by}"))
            minimum = recorded(table.minimum, table.currency)
            what = what.format(profile=table.profile, minimum=minimum, by=table.by)
        else:
            what = _("table closed, by {by}").format(by=table.by)
        add(f"  {stamp(table.time)}  {what}")
    openings = [table for table in report.table if isinstance(table, OpeningRecord)]
    for change in report.limits:
        if change["kind"] == LimitsChanged.kind:
            # in the currency of the shift it was made in (the latest opening before it)
            code = next((table.currency for table in reversed(openings) if table.time <= change["time"]), None)
            what = _("minimum {previous} -> {minimum} by {by} ({reason})").format(
                previous=formats.money(change["previous"], None if code in (None, report.currency) else code),
                minimum=recorded(change["minimum"], code),
                by=change["by"], reason=change["reason"])
        else:
            what = _("profile {previous} -> {profile} by {by} ({reason})").format(
                previous=change["previous"], profile=change["profile"], by=change["by"], reason=change["reason"])
        add(f"  {stamp(change['time'])}  {what}")

    shown = report.spins[-LAST_SPINS:]
    add("")
    add(_("Spins (the last {shown} of {spins}; --json lists all):").format(shown=len(shown), spins=totals.spins)
        if len(shown) < totals.spins else _("Spins:"))
    width = max([6, *(len(source(s["source"])) for s in shown)])  # the source column, as wide as its words
    for s in shown:
        corrected = "  " + _("(corrected from {number})").format(number=s["corrected_from"]) \
            if "corrected_from" in s else ""
        add(f"  #{s['spin']:<6} {s['number']:>2}  {stamp(s['time'])}  {source(s['source']):<{width}} "
            f"{_('ball {ball}').format(ball=s['ball'])}  {s['croupier']}  {direction(s['direction'])}{corrected}")
    sections = (
        (_("Voids: {count}"), report.voids,
         lambda v: (_("#{spin} {reason}, ball back in {pocket}, by {by}") if v.put_back is not None else
                    _("#{spin} {reason}, no earlier result to put the ball back in, by {by}")).format(
             spin=v.spin, reason=void_reason(v.reason), pocket=v.put_back, by=v.by)
         + ("; " + _("seen by {name}").format(name=v.acknowledged_by) if v.acknowledged_by else "")),
        (_("Corrections: {count}"), report.corrections,
         lambda c: _("#{spin} {previous} -> {number} by {by}: {reason}").format(**c.entry())),
        (_("Ball swaps: {count}"), report.ball_swaps,
         lambda b: (_("{previous} -> {ball} by {by} LATE") if b.late else _("{previous} -> {ball} by {by}")).format(
             previous=b.previous, ball=b.ball, by=b.by)),
        (_("Ball replacements: {count}"), report.ball_replacements,
         lambda b: _("{previous} -> {ball} ({diameter_mm} mm) by {by}: {reason}").format(**b.entry())),
        (_("Reliefs: {count}"), report.reliefs,
         lambda r: f"{role(r.role)} {r.outgoing} -> {r.incoming}"
         + (" " + _("OVERDUE") if r.overdue else "")
         + (f" ({r.reason})" if r.reason else "")),
        (_("Alarms: {count}"), report.alarms,
         lambda a: alarm(a)
         + ("; " + _("seen by {name}").format(name=a.acknowledged_by) if a.acknowledged_by else "")
         + ("; " + _("cleared by {name}: {note}").format(name=a.cleared_by, note=a.cleared_note)
            if a.cleared_by else "; " + _("OPEN"))),
    )
    for title, rows, show in sections:
        add("")
        add(title.format(count=len(rows)))
        for row in rows:
            add(f"  {stamp(row.time)}  {show(row)}")
    add("")
    # The rule cited is the table's own profile's (its openings and profile changes), none where it states none.
    # (a closing or a change of limits names no profile, and counts for none)
    rule = colour_rule_of([("", table.profile) for table in report.table if isinstance(table, OpeningRecord)]
                          + [(record.get("rules", ""), record.get("profile")) for record in report.limits])
    count = len(report.colour_ledger)
    if rule:
        add(_("Colour ledger ({rule}): {count}, amounts in {currency}; result = cashed out + late chips - bought")
            .format(rule=rule, count=count, currency=unit) if count else
            _("Colour ledger ({rule}): {count}").format(rule=rule, count=0))
    else:
        add(_("Colour ledger: {count}, amounts in {currency}; result = cashed out + late chips - bought").format(
            count=count, currency=unit) if count else _("Colour ledger: {count}").format(count=0))
    if report.colour_ledger:
        add(f"  {_('colour'):<8} {_('player'):<16} {_('chip'):>7}  {_('bought'):>10}  {_('cashed out'):>10}  "
            f"{_('late'):>8}  {_('result'):>10}  {_('detail in chips')}")
    for c in report.colour_ledger:
        out = c.cashed_out
        result = _("in play") if c.result is None else formats.signed_money(c.result, c.currency if several else None)
        if c.currency_changed:  # in play across a change of currency: in neither currency's totals
            result += " " + _("(MIXED CURRENCIES: {currency} -> {to}, in no total)").format(
                currency=c.currency or "-", to=c.currency_changed)
        add(f"  {colour(c.colour):<8} {c.player:<16} {own(c.chip_value, c.currency):>7}  "
            f"{own(c.bought_money, c.currency):>10}  {own(out['amount'], c.currency) if out else '-':>10}  "
            f"{own(c.late_money, c.currency):>8}  {result:>10}  "
            + _("staked {staked}, paid {paid}, collected {collected}, returned {returned}").format(
                staked=formats.chips(c.staked), paid=formats.chips(c.paid),
                collected=formats.chips(c.collected), returned=formats.chips(c.returned)))
    if report.overpayments:
        add("")
        add(_("Overpayments on corrected results: {count}").format(count=len(report.overpayments)))
        for overpayment in report.overpayments:
            add("  " + overpayment.words(report.currency or ""))
    if report.shift_results:
        add("")
        add(_("The table's result per shift (sold - cashed out - late chips - foreign chips paid), amounts in "
              "{currency}").format(currency=unit))
    for shift in report.shift_results:
        takings = shift.table_result_money

        def amount(value, code=shift.currency) -> str:
            return own(value, code)
        line = _("{opened} to {closed}: sold {sold}, cashed out {cashed_out}, late chips {late}, payouts recorded "
                 "{paid}").format(opened=stamp(shift.opened) if shift.opened else _("before the first opening"),
                                  closed=stamp(shift.closed) if shift.closed else _("still open"),
                                  sold=amount(shift.sold_money),
                                  cashed_out=amount(shift.cashed_out_money),
                                  late=amount(shift.late_money), paid=amount(shift.paid_money))
        if shift.foreign:
            line += ", " + _("foreign chips paid {amount}").format(amount=amount(shift.foreign_money))
        if shift.carried and not shift.in_play_at_end:  # colours from before a change of currency
            line += "; " + _("{amount} counted, not a result: it mixes currencies").format(
                amount=formats.signed_money(takings, shift.currency if several else None))
        elif shift.provisional:  # chips sold to a colour still in play are not won: no result yet
            line += "; " + _("not a result yet: {amount} counted so far, {colours} still in play").format(
                amount=formats.signed_money(takings, shift.currency if several else None),
                colours=", ".join(map(colour, shift.in_play_at_end)))
        else:
            line += "; " + (_("the table won {amount}") if takings >= 0 else _("the table lost {amount}")).format(
                amount=amount(abs(takings)))
        add("  " + line)
        if shift.mixed:
            add("    " + (currency_split_words(shift, stamp) or ""))
        for s in shift.colours:
            add(f"    {colour(s.colour):<8} " + _(
                "sold {sold} = {sold_money}, cashed out {cashed_out} = {cashed_out_money}, late {late} = "
                "{late_money}, paid {paid} = {paid_money}").format(
                sold=formats.chips(s.sold), sold_money=amount(s.sold_money),
                cashed_out=formats.chips(s.cashed_out), cashed_out_money=amount(s.cashed_out_money),
                late=formats.chips(s.late), late_money=amount(s.late_money),
                paid=formats.chips(s.paid), paid_money=amount(s.paid_money)))
        for f in shift.foreign:
            paid_at = (formats.money(f["chip_value"]) if f["chip_value"] else
                       _("{minimum}, their table's minimum").format(minimum=formats.money(f["table_minimum"] or 0)))
            settled = (_("won, paid {chips} x {paid_at} = {amount}").format(
                chips=formats.chips(f["chips"]), paid_at=paid_at,
                amount=formats.money(f["amount"])) if f["won"]
                       else _("lost, {chips} taken").format(chips=f["chips"]))
            add("    " + _("foreign {colour} chips of table {table}, spin {spin}: {settled} ({by})").format(
                colour=colour(f["colour"]), table=f["table"], spin=f["spin"] or "-", settled=settled, by=f["by"]))
    if report.croupiers:
        add("")
        add(_("Croupiers: spins, spins per hour, voids, corrections, direction repeats, late reliefs, paid"))
        for person in report.croupiers:
            add(f"  {person.name:<16} {formats.number(person.spins):>6} "
                f"{formats.fixed(round(person.spins_per_hour, 1), 1):>6}{_('/h')}  " + _(
                "voids {voids}, corrections {corrections}, repeats {repeats}, late reliefs {late}, paid {paid}").format(
                voids=person.voids, corrections=person.corrections, repeats=person.direction_repeats,
                late=person.overdue_reliefs,
                paid=(amounts_words(person.money_in) if several or person.paid_money is None else money(person.paid_money))
                + (f" ({by_value_words(person.paid_by_value)})" if person.paid_by_value else "")))
    for part in report.money:
        def total(value, code=part.currency) -> str:
            return formats.money(value, code) if several else money(value)
        add("")
        add((_("Totals in {currency}: bought {bought}, cashed out {cashed_out}, late chips {late}") if several else
             _("Totals: bought {bought}, cashed out {cashed_out}, late chips {late}")).format(
            currency=part.currency or _("money"), bought=total(part.bought_money),
            cashed_out=total(part.cashed_out_money), late=total(part.late_chips_money))
            + (", " + _("foreign chips paid {amount}").format(amount=total(part.foreign_chips_money))
               if (part.foreign_chips_money if several else report.foreign_chips) else "")
            + "; " + _("the table's result {result} over the colours cashed out ({count} still in play); to recover "
                       "after corrections {overpaid}, owed to players {owed}; direction repeats {repeats}, breaches "
                       "{breaches}, alarms open {alarms}").format(
                result=total(part.table_result_money), count=part.colours_in_play,
                overpaid=total(part.overpaid_money), owed=total(part.owed_money),
                repeats=totals.direction_repeats,
                breaches=totals.breaches, alarms=totals.alarms_open))
    statistics = report.statistics
    add("")
    add(_("Wheel statistics ({spins}): {plain}").format(
        spins=ngettext("{count} spin", "{count} spins", statistics["spins"]).format(count=statistics["spins"]),
        plain=statistics["chi_square"]["plain"]))
    for line in statistics["watch"]["alert_lines"]:
        add("  " + _("ALERT: {alert}.").format(alert=line))
    add("  " + statistics["watch"]["plain"])
    add("  " + _("The chi-square above is one look at these spins: its 5% holds for that one look only."))
    for line in statistics["alert_lines"]:
        add("  " + _("One look: {finding}.").format(finding=line))
    add(_("Journal head: event {event}, sha256 {sha256}").format(event=report.head.event, sha256=report.head.sha256))
    return "\n".join(map(arguments.printable, lines)) + "\n"  # names recorded before they were checked
