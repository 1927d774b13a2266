"""Staff at the table: the ball swap (`PT-A 17`), the relief with the incoming croupier's PIN
(`PT-A 33`), the pit boss's protected actions, and opening a new journal's table: the first pit
boss's PIN, the staff's PINs, who is on duty.

PINs are set and typed at the table, never written in the configuration."""
from __future__ import annotations

from typing import TYPE_CHECKING

from decimal import Decimal

from croupier.history import words
from croupier.i18n import N_, _
from croupier.rules.profiles import ReliefKind
from croupier.table.balls import check_ball_swap
from croupier.table.cycle import check_limits_change
from croupier.table.events import AlarmKind, Ball, Role
from croupier.table.roles import first_pit_boss_allowed
from croupier.table.regulation import minimum_of, profile_of, relief_interval
from croupier.table.relief import check_relief
from croupier.table.state import Phase
from croupier.ui import text
from croupier.ui.asking import choose, new_pin, number, pin, pit_boss, staff_member
from croupier.ui.sign_flow import change_sign

if TYPE_CHECKING:
    from croupier.ui.app import TableApp

# Reasons a pit boss records, chosen with a digit (the journal keeps them in the table's language).
CLEAR_NOTES = (N_("seen and dealt with at the table"), N_("false alarm"))
LIMIT_REASONS, CORRECTION_REASONS = words.LIMIT_REASONS, words.CORRECTION_REASONS
FORCE_MAJEURE = (N_("no relief croupier available"), N_("incident at the table"))
CONTEXT_REASONS = (N_("the configuration was corrected"), N_("the house changed the table's currency or time zone"))


async def swap_ball(app: TableApp) -> None:
    if not app.check(check_ball_swap):  # refused before the ball is chosen
        return
    state = app.session.state
    others = [b for b in state.balls if b != state.ball_in_play]
    ball = await choose(app, _("Ball swap: put in play"), [(_("ball {ball}").format(ball=b), b) for b in others],
                        note=_("Announce the change to the players"))
    if ball is not None and app.record(app.session.swap_ball, ball=ball, by=app.croupier() or ""):
        app.say(_("Ball {ball} in play: announce it").format(ball=ball))


async def relief(app: TableApp) -> None:
    state = app.session.state
    roles = [Role.CROUPIER] + ([Role.INSPECTOR] if Role.INSPECTOR in state.on_duty else [])
    role = roles[0] if len(roles) == 1 else await choose(app, _("Relief of"), [(text.role(r), r) for r in roles])
    if role is None or not app.check(check_relief, role):  # refused before anyone types a PIN
        return
    outgoing = state.staff_on(role)
    incoming = await staff_member(app, _("Who takes over?"), role, besides=outgoing)
    if incoming is None:
        return
    typed = await pin(app, _("Relief"), incoming)
    if typed is None:
        return
    reason = None
    duty, interval = state.on_duty.get(role), relief_interval(state, role)
    late = duty is not None and interval is not None and app.session.clock.now() > duty.since + interval
    if late and profile_of(state).relief.kind == ReliefKind.AT_MOST_OR_FORCE_MAJEURE:
        # PT-B 35: a longer stay is allowed only for force majeure, reported to the inspectors.
        note = await choose(app, _("Why was the relief late?"), [(_(r), r) for r in FORCE_MAJEURE])
        if note is None:
            return
        reason = _(note)
    if app.record(app.session.relieve, role=role, incoming=incoming, pin=typed, reason=reason):
        app.say(_("{name} is on as {role}").format(name=incoming, role=text.role(role)))


# --- the pit boss ------------------------------------------------------------------------------


async def clear_alarm(app: TableApp, boss: str, boss_pin: str) -> None:
    alarms = list(app.session.state.alarms.values())
    alarm = await choose(app, _("Clear which alarm?"),
                         [(f"{text.alarm(a.kind)} · {text.alarm_detail(a)}", a.id) for a in alarms])
    if alarm is None:
        return
    note = await choose(app, _("Note"), [(_(n), n) for n in CLEAR_NOTES])
    if note is not None:
        app.record(app.session.clear_alarm, alarm=alarm, note=_(note), by=boss, pin=boss_pin)


async def change_minimum(app: TableApp, boss: str, boss_pin: str) -> None:
    if not app.check(check_limits_change):  # refused before the new minimum is typed
        return
    state = app.session.state
    minimum = await number(app, _("Table minimum"), _("New minimum:"), least=1, note=_(
        "Now {minimum}; the maxima follow the profile").format(minimum=text.money(minimum_of(state), app.currency)))
    if minimum is None:
        return
    reason = await choose(app, _("Why?"), [(_(r), r) for r in LIMIT_REASONS])
    if reason is not None:
        app.record(app.session.change_limits, minimum=Decimal(minimum), reason=_(reason), by=boss, pin=boss_pin)


async def correct_result(app: TableApp, boss: str, boss_pin: str) -> None:
    recent = list(reversed(app.session.state.recent))
    spin = await choose(app, _("Correct which result?"),
                        [(_("spin {spin}: {number}").format(spin=s.spin, number=s.number), s.spin) for s in recent])
    if spin is None:
        return
    read = next((a.facts.read for a in app.session.state.alarms.values() if a.kind is AlarmKind.RESULT_MISMATCH
                 and a.facts is not None and a.facts.spin == spin), None)
    correct = await number(app, _("Correct result of spin {spin}").format(spin=spin), _("Number:"), most=36,
                           max_digits=2, initial=read,
                           note=_("The wheel sensor read {number}: # takes it").format(number=read) if read is not None
                           else "")
    if correct is None:
        return
    sensor = app.sensor_online is not None  # a keypad-only table has no sensor to misread
    reason = await choose(app, _("Why?"), [(_(r), r) for r in CORRECTION_REASONS
                                          if sensor or r != words.SENSOR_MISREAD])
    if reason is not None:
        app.record(app.session.correct_result, spin=spin, number=correct, reason=_(reason), by=boss, pin=boss_pin)


async def take_configured_context(app: TableApp, boss: str, boss_pin: str) -> None:
    """The journal takes the configuration's currency and time zone from now on (a keypad types no
    letters: the configuration names them), with the pit boss's reason."""
    state, table = app.session.state, app.config.table
    currency = table.currency if table.currency and table.currency != state.currency else None
    time_zone = table.time_zone if table.time_zone and table.time_zone != state.time_zone else None
    if currency is None and time_zone is None:
        app.say(_("The journal already has the configuration's currency and time zone"))
        return
    note = _("Journal: {currency}, {zone}. Configuration: {new_currency}, {new_zone}").format(
        currency=state.currency or "-", zone=state.time_zone or "-", new_currency=table.currency or "-",
        new_zone=table.time_zone or "-")
    reason = await choose(app, _("Why?"), [(_(r), r) for r in CONTEXT_REASONS], note=note)
    if reason is not None and app.record(app.session.change_context, currency=currency, time_zone=time_zone,
                                         reason=_(reason), by=boss, pin=boss_pin):
        app.say(_("Currency and time zone recorded: {currency}, {zone}").format(
            currency=app.session.state.currency or "-", zone=app.session.state.time_zone or "-"))


async def close_table(app: TableApp, boss: str, boss_pin: str) -> None:
    if app.record(app.session.close_table, by=boss):
        app.say(_("The table is closed"))


async def register(app: TableApp, boss: str, boss_pin: str) -> None:
    """A member of staff from the configuration gets a PIN (or a new one)."""
    member = await choose(app, _("PIN for"), [(f"{m.name} ({text.role(Role(m.role))})", m)
                                              for m in app.config.staff])
    if member is None:
        return
    typed = await new_pin(app, member.name)
    if typed is not None and app.record(app.session.register_staff, name=member.name, role=Role(member.role), pin=typed,
                                        by=boss, by_pin=boss_pin):
        app.say(_("PIN set for {name}").format(name=member.name))


PIT_BOSS_MENU = (
    (N_("Clear an alarm"), clear_alarm),
    (N_("Change the table minimum"), change_minimum),
    (N_("Correct a result"), correct_result),
    (N_("Staff PIN"), register),
    (N_("Close the table"), close_table),
    (N_("Change the table sign"), change_sign),
    (N_("Currency and time zone from the configuration"), take_configured_context),
)


async def pit_boss_menu(app: TableApp) -> None:
    """Every action here is the pit boss's: the PIN is asked (and checked) first."""
    boss = await pit_boss(app, _("act as pit boss"))
    if boss is None:
        return
    action = await choose(app, _("Pit boss"), [(_(label), flow) for label, flow in PIT_BOSS_MENU])
    if action is not None:
        await action(app, *boss)


# --- a new journal -----------------------------------------------------------------------------


async def setup(app: TableApp) -> None:
    """Open the table: on a new journal, first the pit boss's PIN and the staff's PINs."""
    state = app.session.state
    boss_pin = None
    bosses = [m.name for m in app.config.staff if m.role == "pit-boss"]
    if not any(m.role is Role.PIT_BOSS for m in state.staff.values()):
        if not bosses:
            app.say(_("The configuration names no pit boss ([[staff]] with role pit-boss)"), error=True)
            return
        boss = bosses[0] if len(bosses) == 1 else await choose(app, _("Pit boss"), [(b, b) for b in bosses])
        if boss is None:
            return
        if not app.check(first_pit_boss_allowed):
            return
        boss_pin = await new_pin(app, boss)
        if boss_pin is None or not app.record(app.session.register_staff, name=boss, role=Role.PIT_BOSS, pin=boss_pin):
            return
        for member in app.config.staff:
            if member.name in app.session.state.staff:
                continue
            typed = await new_pin(app, f"{member.name} ({text.role(Role(member.role))})")
            if typed is not None:
                app.record(app.session.register_staff, name=member.name, role=Role(member.role), pin=typed, by=boss,
                           by_pin=boss_pin)
    if app.session.state.phase is Phase.CLOSED:
        await open_table(app)


async def open_table(app: TableApp) -> None:
    config = app.config
    croupier = await staff_member(app, _("Open the table: croupier at the wheel"), Role.CROUPIER)
    if croupier is None:
        return
    croupier_pin = await pin(app, _("Open the table"), croupier)  # as closing asks the pit boss's
    if croupier_pin is None or not app.check(
            lambda _state: app.session.authorise(croupier, croupier_pin, Role.CROUPIER, to="open the table")):
        return  # a wrong PIN is recorded; nothing else is
    inspectors = [n for n, m in app.session.state.staff.items() if m.role is Role.INSPECTOR]
    inspector = None
    if inspectors:
        inspector = await choose(app, _("Inspector"), [(_("none"), "")] + [(n, n) for n in inspectors])
        if inspector is None:
            return
    balls = tuple(Ball(id=b.id, diameter_mm=b.diameter_mm) for b in config.balls)
    if app.record(app.session.open_table, profile=config.table.profile, minimum=config.table.minimum, colours=config.colours,
                  balls=balls, croupier=croupier, pin=croupier_pin, inspector=inspector or None,
                  posted_values=config.table.posted_values, by=croupier, table_id=config.table.id,
                  house=config.table.house, sign=config.table.sign, value_only=config.table.value_only,
                  marked_values=config.table.marked_values, currency=config.table.currency,
                  time_zone=config.table.time_zone, casino=config.table.casino):
        app.say(_("The table is open: bets are open"))
