"""Staff, their roles and their PINs.

A PIN is kept only as a salted scrypt hash (`hashlib.scrypt`), slow on purpose, of the PIN keyed
with the table's pepper (derived from the table's key, which is not in the journal): a copied journal
alone does not let anyone try PINs offline. The session hands the commands each PIN as a `Pin`
carrying the pepper. Wrong PINs are recorded; PIN_LOCK_AFTER of them in a row lock that PIN and
raise an alarm, until a pit boss clears it. Only a pit boss corrects a result, changes the limits or
the profile, registers staff and clears an alarm (issue 3, "Roles"). Staff are registered only in a
new journal (its first pit boss) or by a pit boss with their PIN.
"""
from __future__ import annotations

import hashlib
import hmac
from datetime import datetime

from croupier.table.events import AlarmFacts, AlarmKind, AlarmRaised, Event, PinRefused, Role, StaffRegistered
from croupier.table.refusal import Refused
from croupier.table.state import PIN_LOCK_AFTER, StaffMember, TableState

# scrypt cost: 16 MiB and about a tenth of a second per check on a desktop, under a second on a Pi 3.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
PIN_DIGITS = range(4, 9)
SALT_BYTES = 16


class Pin(str):
    """A PIN as typed, with the table's pepper to hash it with (never shown: its text is the PIN's)."""

    pepper: bytes = b""

    def __new__(cls, digits: str, pepper: bytes) -> "Pin":
        pin = super().__new__(cls, digits)
        pin.pepper = pepper
        return pin

    def __repr__(self) -> str:
        return "Pin(****)"


def hash_pin(pin: str, salt: bytes) -> str:
    pepper = getattr(pin, "pepper", b"")
    secret = hmac.new(pepper, pin.encode(), hashlib.sha256).digest() if pepper else pin.encode()
    return hashlib.scrypt(secret, salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32).hex()


def pin_matches(member: StaffMember, pin: str) -> bool:
    return hmac.compare_digest(hash_pin(pin, bytes.fromhex(member.salt)), member.pin_hash)


def check_pin_format(pin: str) -> None:
    if not (pin.isdecimal() and pin.isascii() and len(pin) in PIN_DIGITS):
        raise Refused("a PIN is {start} to {stop} digits", start=PIN_DIGITS.start, stop=PIN_DIGITS.stop - 1)


def authorise(state: TableState, name: str | None, pin: str | None, *roles: Role, to: str) -> StaffMember:
    """The member of staff `name`, if `pin` is theirs and they hold one of `roles`."""
    if not name or pin is None:
        raise Refused("to {to}, a {roles} must give their name and PIN", to=to, roles=_roles(roles))
    member = state.staff.get(name)
    if member is None:
        raise Refused("{name} is not registered staff at this table", name=repr(name))
    if state.wrong_pins.get(name, 0) >= PIN_LOCK_AFTER:
        raise Refused(f"the PIN of {name} is locked after {PIN_LOCK_AFTER} wrong PINs: a pit boss clears the alarm "
                      "to unlock it", code="pin-locked", name=name)
    if not pin_matches(member, pin):
        raise Refused(f"wrong PIN for {name}; only the attempt is recorded", code="wrong-pin", name=name)
    if roles and member.role not in roles:
        raise Refused("{name} is {role}: only a {roles} may {to}",
                      name=name, role=member.role.value, roles=_roles(roles), to=to)
    return member


def known(state: TableState, name: str) -> str:
    """A name that must belong to registered staff (or be on duty, as at a sensor-only table)."""
    if name in state.staff or name in {d.name for d in state.on_duty.values()}:
        return name
    raise Refused("{name} is not registered staff at this table", name=repr(name))


def _roles(roles: tuple[Role, ...]) -> str:
    return " or ".join(r.value for r in roles) or "member of staff"


def wrong_pin(state: TableState, now: datetime, *, name: str) -> list[Event]:
    """Record a wrong PIN typed for `name`; the one that locks the PIN raises the alarm with it."""
    failures = state.wrong_pins.get(name, 0) + 1
    events: list[Event] = [PinRefused(name=name, failures=failures)]
    if failures == PIN_LOCK_AFTER:
        events.append(AlarmRaised(
            alarm=state.next_alarm, alarm_kind=AlarmKind.PIN_LOCKED, subject=f"PIN of {name}",
            detail=f"{failures} wrong PINs in a row for {name}: the PIN is locked until a pit boss clears this alarm",
            facts=AlarmFacts(rule="PIN lockout", name=name)))
    return events


def first_pit_boss_allowed(state: TableState) -> None:
    """A journal gets its first pit boss with no one's authority only while it is new (nothing
    recorded yet): a journal started without staff (`croupier run --headless`) never gets one from
    whoever is at the keyboard."""
    if state.last_event_time is not None and not any(m.role is Role.PIT_BOSS for m in state.staff.values()):
        raise Refused("staff are registered only when a journal is created, or by its pit boss: this journal has "
                      "none; start the table on a new journal", code="no-pit-boss")


def register_staff(state: TableState, now: datetime, *, name: str, role: Role, pin: str, salt: bytes,
                   by: str | None = None, by_pin: str | None = None) -> list[Event]:
    """Register staff or set a new PIN. The first registration of a journal is its pit boss and
    needs no authority; every later one is made by a pit boss."""
    name = name.strip()
    if not name:
        raise Refused("staff need a name")
    check_pin_format(pin)
    if len(salt) < SALT_BYTES:
        raise Refused("a PIN salt is at least {salt} random bytes", salt=SALT_BYTES)
    if any(m.role is Role.PIT_BOSS for m in state.staff.values()):
        authorise(state, by, by_pin, Role.PIT_BOSS, to="register staff")
    elif role is not Role.PIT_BOSS:
        raise Refused("register a pit boss first: only a pit boss registers other staff")
    else:
        first_pit_boss_allowed(state)
        by = None
    return [StaffRegistered(name=name, role=role, salt=salt.hex(), pin_hash=hash_pin(pin, salt), by=by)]
