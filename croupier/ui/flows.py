"""What the croupier does through the menu (D) and the golpe nulo key (A): each a short series of
keypad questions ending in one session command. The session decides; a refusal is shown as it says.

A flow takes the app as `TableApp` and calls a command as the session's typed method,
`app.record(app.session.void_spin, reason=..., by=...)`: mypy checks its arguments against the core's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.i18n import N_, _
from croupier.rules.spin import VoidReason
from croupier.ui import bet_flows, colour_flows, staff_flows, text
from croupier.ui.asking import choose

if TYPE_CHECKING:
    from croupier.ui.app import TableApp

# The reasons offered first, in the order croupiers meet them (PT-A 22 lists the first three).
VOID_ORDER = (
    VoidReason.CHIP_FELL, VoidReason.ANOTHER_BALL, VoidReason.FOREIGN_OBJECT, VoidReason.BALL_LEFT_WHEEL,
    VoidReason.SAME_DIRECTION, VoidReason.TOO_FEW_REVOLUTIONS, VoidReason.WHEEL_STOPPED, VoidReason.SENSOR_FAULT,
    VoidReason.CHIPS_SCATTERED,
)


async def void(app: TableApp) -> None:
    """Golpe nulo in two keys: A, then the reason's digit. The screen then says where the ball goes."""
    reason = await choose(app, _("Void spin: why?"), [(text.void_reason(r), r) for r in VOID_ORDER])
    if reason is not None:
        app.record(app.session.void_spin, reason=reason, by=app.croupier())


MENU = (
    (N_("Colours"), colour_flows.menu),
    (N_("Announced and complete bets"), bet_flows.place),
    (N_("Take a colour's bets back"), bet_flows.withdraw),
    (N_("Ball swap"), staff_flows.swap_ball),
    (N_("Relief"), staff_flows.relief),
    (N_("Rebuild the winning bets"), bet_flows.rebuild),
    (N_("Pit boss (PIN)"), staff_flows.pit_boss_menu),
)


async def menu(app: TableApp) -> None:
    from croupier.table.state import Phase

    if app.session.state.phase is Phase.CLOSED:
        await staff_flows.setup(app)
        return
    chosen = await choose(app, _("Menu"), [(_(label), (label, flow)) for label, flow in MENU])
    if chosen is not None:
        label, flow = chosen
        app.flow_begins(_(label), flow)  # a result that closes it says so, and it goes on after
        await flow(app)


FLOWS = {"menu": menu, "void": void, "setup": staff_flows.setup}
