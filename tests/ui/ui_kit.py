"""A table for the screen tests: a journal with staff and their PINs, opened under a fake clock, and
helpers to press keys and read the screen as the croupier sees it."""
from __future__ import annotations

import dataclasses
import shutil
from decimal import Decimal
from pathlib import Path

from croupier.config import Config, StaffMember, default_config
from croupier.session import TableSession
from croupier.table.events import Ball, Role

PINS = {"Marta": "9000", "Ana": "1111", "Rui": "2222", "Ines": "3333"}
ROLES = {"Marta": Role.PIT_BOSS, "Ana": Role.CROUPIER, "Rui": Role.CROUPIER, "Ines": Role.INSPECTOR}
COLOURS = ("red", "green", "blue", "yellow")
BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))
POSTED = (Decimal(10), Decimal(20), Decimal(200))  # colour values posted at the table besides the minimum (PT-A 9)


def config_for(folder: Path, *, wheel: bool = False, language: str = "en", profile: str = "pt-americana") -> Config:
    config = default_config(environ={})
    staff = tuple(StaffMember(name=name, role=role.value) for name, role in ROLES.items())
    return dataclasses.replace(
        config, staff=staff, colours=COLOURS, wheel=config.wheel if wheel else None,
        table=dataclasses.replace(config.table, language=language, profile=profile),
        journal_path=folder / "journal.db",
    )


def register_staff(session: TableSession) -> None:
    session.register_staff(name="Marta", role=Role.PIT_BOSS, pin=PINS["Marta"])
    for name, role in ROLES.items():
        if name != "Marta":
            session.register_staff(name=name, role=role, pin=PINS[name], by="Marta", by_pin=PINS["Marta"])


def staffed_journal(template: Path, folder: Path) -> Path:
    """A copy of the template journal (staff registered once: scrypt is slow on purpose), with its
    head witness and the table's keys."""
    path = folder / "journal.db"
    for name in ("journal.db", "journal.db.head", "table.key", "table-signing.key", "table-signing.pub"):
        shutil.copy(template.with_name(name), folder / name)
    return path


def open_table(session: TableSession, profile: str = "pt-americana", seats: bool = True) -> None:
    session.open_table(profile=profile, minimum=Decimal(5), colours=COLOURS, balls=BALLS, croupier="Ana", pin="1111",
                       inspector="Ines", posted_values=POSTED, by="Marta")
    if seats:
        session.assign_colour(colour="red", player="seat 1", chip_value=Decimal(5), chips=100, by="Ana")
        session.assign_colour(colour="blue", player="seat 4", chip_value=Decimal(10), chips=50, by="Ana")


def screen_text(app) -> str:
    """The screen as the croupier sees it, as plain text."""
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


def asked_note(app) -> str:
    """The note of the question on screen (a refusal that asks again is its note), in one line."""
    notes = app.screen.query(".form-note")
    return " ".join(str(note.render()) for note in notes).replace("\n", " ")


def flat(text: str) -> str:
    """The screen's words in one line: a sentence wrapped over two lines reads whole."""
    return " ".join(text.split())


async def press(pilot, *keys: str) -> None:
    """Press keys one by one, letting the app (and the flows' workers) settle after each."""
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        await pilot.pause()


def kinds(session: TableSession, after: int = 0) -> list[str]:
    return [entry.event.kind for entry in session.journal.entries(after)]


def play_spins(session: TableSession, *numbers: int) -> None:
    """Whole spins through the session, launches alternating: launch, result typed, payouts done."""
    from croupier.rules.spin import Direction

    for number in numbers:
        last = session.state.last_direction
        session.launch(direction=Direction.CLOCKWISE if last is None else last.opposite())
        session.enter_result(number=number, by="Ana")
        session.confirm_result(by="Ana")
        session.payouts_done(by="Ana")


def burst(app, *keys: str) -> None:
    """Keys typed back to back, faster than the screen handles them: all are in the app's queue
    before the first is handled (as a croupier's fast hands, or a keypad's buffer, deliver them)."""
    from textual import events

    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app._driver.send_message(event)


async def settle(pilot, rounds: int = 6) -> None:
    """Let the app, its screens and the flows' workers handle everything queued."""
    for _round in range(rounds):
        await pilot.pause()
