"""Staff, their roles and their PINs.

A PIN is kept only as a salted scrypt hash (`hashlib.scrypt`), slow on purpose, of the PIN keyed
with the table's pepper (derived from the table's key, which is not in the journal): a copied journal
alone does not let anyone try PINs offline. The session hands the commands each PIN as a `Pin`
carrying the pepper and the moment it was typed. Wrong PINs are recorded and slow down: from the
third in a row the PIN is not checked again for a delay that doubles (5 s up to 5 min), and
PIN_LOCK_AFTER in a row lock it for the minutes the configuration sets, with an alarm; a pit boss
clearing that alarm, or `croupier staff unlock` at the console, frees it sooner. The last pit boss
whose PIN is not locked is never locked from the keypad, only slowed: the table always has someone
to correct, clear and register. Attempts while a PIN waits are recorded, not checked. Only a pit
boss corrects a result, changes the limits or
the profile, registers staff and clears an alarm (issue 3, "Roles"). Staff are registered only in a
new journal (its first pit boss) or by a pit boss with their PIN.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import math
from datetime import datetime

from croupier.table.events import (AlarmAnswer, AlarmCleared, AlarmFacts, AlarmKind, AlarmRaised, Event, PinRefused,
                                   PinUnlocked, Role, StaffRegistered)
from croupier.table.refusal import (
    NoPitBoss, NotStaff, PinDelayed, PinFormat, PinLocked, PinNeeded, PinNotLocked, PitBossFirst, RoleNotAllowed,
    SaltTooShort, StaffNotNamed, WrongPin,
)
from croupier.table.state import INITIAL, PIN_LOCK_AFTER, StaffMember, TableState

# scrypt cost: 16 MiB and about a tenth of a second per check on a desktop, under a second on a Pi 3.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
PIN_DIGITS = range(4, 9)
SALT_BYTES = 16
PIN_FREE_TRIES = 2  # wrong PINs in a row before the delay starts (a slip of the finger costs nothing)
PIN_FIRST_DELAY_S, PIN_LONGEST_DELAY_S = 5, 300
PIN_LOCK_MINUTES = 15  # the default of [table] pin_lock_minutes


class Pin(str):
    """A PIN as typed, with the table's pepper to hash it with and the moment it was typed (never
    shown: its text is the PIN's)."""

    pepper: bytes = b""
    typed_at: datetime | None = None

    def __new__(cls, digits: str, pepper: bytes, typed_at: datetime | None = None) -> "Pin":
        pin = super().__new__(cls, digits)
        pin.pepper = pepper
        pin.typed_at = typed_at
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
        raise PinFormat(start=PIN_DIGITS.start, stop=PIN_DIGITS.stop - 1)


def authorise(state: TableState, name: str | None, pin: str | None, *roles: Role, to: str) -> StaffMember:
    """The member of staff `name`, if `pin` is theirs and they hold one of `roles`."""
    if not name or pin is None:
        raise PinNeeded(to=to, roles=_roles(roles))
    member = state.staff.get(name)
    if member is None:
        raise NotStaff(name=repr(name))
    wait = state.pin_waits.get(name)
    typed_at = getattr(pin, "typed_at", None)
    if wait is not None and (typed_at is None or typed_at < wait.until):  # a PIN typed at no known time waits
        left = wait.until - typed_at if typed_at is not None else None
        seconds = math.ceil(left.total_seconds()) if left is not None else None
        if wait.locked:
            raise PinLocked(name, None if seconds is None else math.ceil(seconds / 60))
        raise PinDelayed(name, seconds)
    if not pin_matches(member, pin):
        raise WrongPin(name)
    if roles and member.role not in roles:
        raise RoleNotAllowed(name=name, role=member.role.value, roles=_roles(roles), to=to)
    return member


def known(state: TableState, name: str) -> str:
    """A name that must belong to registered staff (or be on duty, as at a sensor-only table)."""
    if name in state.staff or name in {d.name for d in state.on_duty.values()}:
        return name
    raise NotStaff(name=repr(name))


def _roles(roles: tuple[Role, ...]) -> str:
    return " or ".join(r.value for r in roles) or "member of staff"


def pin_delay(failures: int) -> int:
    """Seconds before a PIN is checked again after `failures` wrong ones in a row: none for the
    first PIN_FREE_TRIES, then 5 s doubling up to 5 min."""
    if failures <= PIN_FREE_TRIES:
        return 0
    return min(PIN_FIRST_DELAY_S * 2 ** (failures - PIN_FREE_TRIES - 1), PIN_LONGEST_DELAY_S)


def _last_pit_boss(state: TableState, name: str, now: datetime) -> bool:
    """Is `name` a pit boss and every other pit boss's PIN locked (or there is none)?"""
    if state.staff[name].role is not Role.PIT_BOSS:
        return False
    return not any(m.role is Role.PIT_BOSS and m.name != name and not _locked(state, m.name, now)
                   for m in state.staff.values())


def _locked(state: TableState, name: str, now: datetime) -> bool:
    wait = state.pin_waits.get(name)
    return wait is not None and wait.locked and now < wait.until


def wrong_pin(state: TableState, now: datetime, *, name: str, lock_minutes: int = PIN_LOCK_MINUTES) -> list[Event]:
    """Record a wrong PIN typed for `name` and how long the PIN now waits; the one that locks the
    PIN raises the alarm with it, unless one for that PIN is still open."""
    failures = state.wrong_pins.get(name, 0) + 1
    lock = failures >= PIN_LOCK_AFTER and not _last_pit_boss(state, name, now)
    wait = lock_minutes * 60 if lock else pin_delay(failures)
    events: list[Event] = [PinRefused(name=name, failures=failures, wait_seconds=wait, locked=lock)]
    open_alarm = any(a.kind is AlarmKind.PIN_LOCKED and a.facts is not None and a.facts.name == name
                     for a in state.alarms.values())
    if lock and not open_alarm:
        events.append(AlarmRaised(
            alarm=state.next_alarm, alarm_kind=AlarmKind.PIN_LOCKED, subject=f"PIN of {name}",
            detail=f"{failures} wrong PINs in a row for {name}: the PIN is locked for {lock_minutes} min, or until a "
                   "pit boss clears this alarm or it is unlocked at the console",
            facts=AlarmFacts(rule="PIN lockout", name=name, minutes=lock_minutes)))
    return events


def pin_attempt_waiting(state: TableState, now: datetime, *, name: str) -> list[Event]:
    """Record a PIN typed for `name` while it waits (delayed or locked): not checked, not counted."""
    return [PinRefused(name=name, failures=state.wrong_pins.get(name, 0), unchecked=True)]


def unlock_pin(state: TableState, now: datetime, *, name: str, operator: str) -> list[Event]:
    """Set a locked or delayed PIN free: at the console, where the table's key is."""
    if name not in state.staff:
        raise NotStaff(name=repr(name))
    if name not in state.wrong_pins and name not in state.pin_waits:
        raise PinNotLocked(name=name)
    # The unlock answers the lockout's alarm: it ends with it, at the table as on the floor.
    ended = [AlarmCleared(alarm=alarm.id, note=f"PIN of {name} unlocked at the console", by=operator,
                          answer=AlarmAnswer.PIN_UNLOCKED)
             for alarm in state.alarms.values()
             if alarm.kind is AlarmKind.PIN_LOCKED and alarm.facts is not None and alarm.facts.name == name]
    return [PinUnlocked(name=name, operator=operator), *ended]


def first_pit_boss_allowed(state: TableState) -> None:
    """A journal gets its first pit boss with no one's authority only while it is new (nothing
    recorded yet): a journal started without staff (`croupier run --headless`) never gets one from
    whoever is at the keyboard."""
    # the clock's standing, recorded as any table starts, leaves a journal new
    started = dataclasses.replace(state, last_event_time=None) != INITIAL
    if started and not any(m.role is Role.PIT_BOSS for m in state.staff.values()):
        raise NoPitBoss()


def register_staff(state: TableState, now: datetime, *, name: str, role: Role, pin: str, salt: bytes,
                   by: str | None = None, by_pin: str | None = None) -> list[Event]:
    """Register staff or set a new PIN. The first registration of a journal is its pit boss and
    needs no authority; every later one is made by a pit boss."""
    name = name.strip()
    if not name:
        raise StaffNotNamed()
    check_pin_format(pin)
    if len(salt) < SALT_BYTES:
        raise SaltTooShort(salt=SALT_BYTES)
    if any(m.role is Role.PIT_BOSS for m in state.staff.values()):
        authorise(state, by, by_pin, Role.PIT_BOSS, to="register staff")
    elif role is not Role.PIT_BOSS:
        raise PitBossFirst()
    else:
        first_pit_boss_allowed(state)
        by = None
    return [StaffRegistered(name=name, role=role, salt=salt.hex(), pin_hash=hash_pin(pin, salt), by=by)]
