"""Staff, their roles and their PINs.

A PIN is kept only as a salted scrypt hash (`hashlib.scrypt`), slow on purpose so a copied journal
does not give PINs away cheaply. Only a pit boss corrects a result, changes the limits or the
profile, registers staff and clears an alarm (issue 3, "Roles").
"""
from __future__ import annotations

import hashlib
import hmac
from datetime import datetime

from croupier.table.events import Event, Role, StaffRegistered
from croupier.table.refusal import Refused
from croupier.table.state import StaffMember, TableState

# scrypt cost: 16 MiB and about a tenth of a second per check on a desktop, under a second on a Pi 3.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
PIN_DIGITS = range(4, 9)
SALT_BYTES = 16


def hash_pin(pin: str, salt: bytes) -> str:
    return hashlib.scrypt(pin.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32).hex()


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
    if not pin_matches(member, pin):
        raise Refused(f"wrong PIN for {name}; nothing was recorded", code="wrong-pin", name=name)
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
        by = None
    return [StaffRegistered(time=now, name=name, role=role, salt=salt.hex(), pin_hash=hash_pin(pin, salt), by=by)]
