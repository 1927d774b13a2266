"""Questions a flow asks on the keypad, one screen each; every one returns None when the croupier
backs out with *. Run them from a worker (`app.start_flow`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, TypeVar

from croupier.i18n import _
from croupier.table.events import Role
from croupier.ui import text
from croupier.ui.choice_screen import ChoiceScreen
from croupier.ui.flow_memory import NOT_GIVEN
from croupier.ui.number_screen import NumberScreen

if TYPE_CHECKING:
    from croupier.ui.app import TableApp

Value = TypeVar("Value")
PIN_DIGITS = 8


async def ask(app: TableApp, question):
    """Put `question` on screen and wait for its answer. A refusal still on screen was about the
    answer before: it does not stand under the next question. A flow going on after a result takes
    the answers given before it (`FlowMemory`) without showing their questions."""
    memory = app.flow_memory
    given = memory.given(question)
    if given is not NOT_GIVEN:
        return given
    app.clear_refusal()
    if memory.asking_a_pin_again(question):
        question.note = _("The PIN typed before the result is not kept: type it again")
    answer = await app.push_screen_wait(question)
    memory.answered(question, answer)
    return answer


async def choose(app: TableApp, title: str, options: Sequence[tuple[str, Value]], note: str = "") -> Value | None:
    if not options:
        app.say(_("{title}: there is nothing to choose").format(title=title), error=True)
        return None
    return await ask(app, ChoiceScreen(title, options, note))


async def number(app: TableApp, title: str, prompt: str, *, note: str = "", most: int | None = None,
                 least: int = 0, max_digits: int = 6, initial: int | None = None) -> int | None:
    """A whole number from `least` to `most`; a number out of range is asked again. `initial`: a
    number offered, taken with # or typed over."""
    while True:
        typed = await ask(app, NumberScreen(title, prompt, note=note, max_digits=max_digits,
                                                        initial="" if initial is None else str(initial)))
        initial = None
        if typed is None:
            return None
        value = int(typed)
        if value >= least and (most is None or value <= most):
            return value
        app.bell()
        note = _("{value} is not between {least} and {most}").format(value=value, least=least, most=most) \
            if most is not None else _("{value} is below {least}").format(value=value, least=least)


async def pin(app: TableApp, title: str, name: str) -> str | None:
    return await ask(app, NumberScreen(title, _("PIN of {name}:").format(name=name), secret=True,
                                                   max_digits=PIN_DIGITS))


async def new_pin(app: TableApp, name: str) -> str | None:
    """A new PIN typed twice, for `name`."""
    title, note = _("New PIN for {name}").format(name=name), ""
    while True:
        first = await ask(app, NumberScreen(title, _("PIN (4 to 8 digits):"), note=note, secret=True,
                                                        max_digits=PIN_DIGITS))
        if first is None:
            return None
        again = await ask(app, NumberScreen(title, _("The same PIN again:"), secret=True,
                                                        max_digits=PIN_DIGITS))
        if again is None:
            return None
        if first == again:
            return first
        app.bell()
        note = _("The two PINs differ: type them again")


async def staff_member(app: TableApp, title: str, role: Role, *, besides: str | None = None) -> str | None:
    names = [name for name, member in app.session.state.staff.items() if member.role is role and name != besides]
    return await choose(app, title, [(name, name) for name in names])


async def pit_boss(app: TableApp, to: str) -> tuple[str, str] | None:
    """A pit boss's name and PIN, checked now (`to` says what for); None when refused or backed out."""
    name = await staff_member(app, _("Pit boss"), Role.PIT_BOSS)
    if name is None:
        return None
    typed = await pin(app, _("Pit boss"), name)
    if typed is None:
        return None
    if not app.check(lambda _state: app.session.authorise(name, typed, Role.PIT_BOSS, to=to)):  # wrong ones recorded
        return None
    app.say("")  # a refusal of an earlier PIN no longer stands
    return name, typed


async def colour_in_play(app: TableApp, title: str) -> str | None:
    state = app.session.state
    return await choose(app, title, [(f"{text.colour_name(c)} · {a.player}", c) for c, a in state.accounts.items()])
