"""Cammegh Slingshot 2, advanced protocol (SS2 developers' guide v2.07, sections 2.4, 2.5, 4.1).

    *X;<state>;<spin>;<last number>;<flags>;<rpm x 10>;<direction>     every 500 ms
    32                                                                  the winning number, once

Where the SS2 and the Mercury 360 give the same bytes different meanings:

- `*X;` second field: on the SS2 the number of spins since power on, 1-256, the same from state 2
  to the end of state 5 of one game. On the M360 the number of games completed, 0-255 (see m360.py).
- Warning flags: SS2 1 = ball removed (void only if it lasts over 5 s of state 4, guide 4.1),
  2 = ball turning with the wheel (void in state 3), 4 = sensor, motor or encoder fault,
  8 = failed launch being retried (ignored for the first 3 s of state 3). On the M360 flag 1 is only
  a rotor speed out of limits (the game plays on) and flag 8 is a void game.
- Rotor speed: the SS2 reports the real speed, whatever it is (`953` = 95.3 rpm while the wheel
  spins up); the M360 reports `000` for anything below 2 or above 60 rpm.
- `*W`, `*S`, `*X` as replies: on the SS2 `*W` is the winning-number statistics table and `*S` the
  firmware version; in the M360 basic protocol `*W nn` IS the winning number and `*S` the game
  start. The SS2 has no state 7 and no `*N`.
- The winning-number line is two characters, a space before 0-9 (" 5"); "00" would be a
  double-zero rotor, which this single-zero table refuses.
"""
from __future__ import annotations

import re

from croupier.rules.spin import VoidReason
from croupier.wheel import fields
from croupier.wheel.events import WheelPhase
from croupier.wheel.status import Status, StatusLineDecoder, split_status, state_field

FLAG_BALL_REMOVED = 0x1
FLAG_SAME_DIRECTION = 0x2
FLAG_SENSOR_FAULT = 0x4
FLAG_LAUNCH_FAILED = 0x8

LAUNCH_GRACE_S = 3.0  # guide 4.1: ignore flag 8 for the first 3 s of state 3
BALL_REMOVED_GRACE_S = 5.0  # guide 4.1: ignore flag 1 for 5 s (10 status lines) of state 4


class Ss2Decoder(StatusLineDecoder):
    protocol = "cammegh-ss2"
    bare_replies = re.compile(r"T OK")  # the guide's `*T c` reply lacks its '*'

    def parse_status(self, text: str) -> Status:
        state, spin, last, flags, rpm, direction = split_status(text, 7, "SS2")
        return Status(
            state=state_field(state, range(1, 7)),
            counter=fields.decimal(spin, "spin number", 3, range(1, 257)),
            last_number=fields.pocket(last, "winning number"),
            flags=fields.hexadecimal(flags, "warning flags", 1),
            rotor_rpm=fields.decimal(rpm, "wheel speed", 3, range(0, 1000)) / 10,
            direction=fields.direction(direction, "wheel direction"),
        )

    def void_checks(self, status, spin, time):
        found: list[tuple[VoidReason, str]] = []
        flags = status.flags
        if status.state == WheelPhase.BALL_IN_RIM:
            if flags & FLAG_SAME_DIRECTION:
                found.append((VoidReason.SAME_DIRECTION, "flag 2 in state 3: the ball turns the same way as the wheel"))
            if flags & FLAG_LAUNCH_FAILED and spin.rim_since is not None and time - spin.rim_since >= LAUNCH_GRACE_S:
                found.append(
                    (VoidReason.TOO_FEW_REVOLUTIONS, "flag 8 still set 3 s into state 3: the ball launch failed")
                )
        if status.state == WheelPhase.NO_MORE_BETS and flags & FLAG_BALL_REMOVED:
            if spin.flag1_since is None:
                spin.flag1_since = time
            elif time - spin.flag1_since > BALL_REMOVED_GRACE_S:
                found.append((VoidReason.BALL_LEFT_WHEEL, "flag 1 for over 5 s in state 4: the ball was removed"))
        else:
            spin.flag1_since = None
        if status.state in (WheelPhase.BALL_IN_RIM, WheelPhase.NO_MORE_BETS) and flags & FLAG_SENSOR_FAULT:
            found.append((VoidReason.SENSOR_FAULT, "flag 4 during the spin: sensor, motor or encoder fault"))
        return found
