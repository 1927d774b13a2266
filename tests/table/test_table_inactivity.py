"""`PT-A 12`: a colour that does not bet for 3 consecutive spins while others wait loses it. With the
winners counted after the result, a colour that won played; one that lost is known only if the
croupier marks it played on the payout sheet."""
from __future__ import annotations

from fractions import Fraction

from croupier.rules.spin import Direction
from croupier.table import colours, cycle
from croupier.table.events import CashOutReason, Source
from croupier.table.notices import ExchangeColour, notices

from table_kit import opened, seat, spin_to
from test_table_payouts import chips, pay


def test_pt_a_12_a_colour_that_won_or_was_marked_played_is_not_idle(clock):
    table = opened("pt-americana", clock)
    for colour in ("red", "green", "blue"):
        seat(table, colour)
    table.do(colours.join_waiting_list, player="Maria")
    for number in (4, 5, 6):
        spin_to(table, number)
        # red wins on its column every spin; green lost on the layout and the croupier marks it
        pay(table, {"red": chips((f"column{(number - 1) % 3 + 1}", 1))}, played=("green",))
    idle = {colour: account.idle_spins for colour, account in table.state.accounts.items()}
    assert idle == {"red": 0, "green": 0, "blue": 3}
    (notice,) = [n for n in notices(table.state, clock.now()) if isinstance(n, ExchangeColour)]
    assert (notice.colour, notice.spins) == ("blue", 3)
    table.refused(colours.cash_out, r"inactivity rule does not apply \(PT-A 12\)", colour="green", chips=100,
                  by="Ana", reason=CashOutReason.INACTIVE)
    table.do(colours.cash_out, colour="blue", chips=100, by="Ana", reason=CashOutReason.INACTIVE)


def test_pt_a_12_idle_spins_are_counted_once_the_payouts_are_done_not_at_the_result(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    seat(table, "green")
    table.do(colours.join_waiting_list, player="Maria")
    for number in (4, 5):
        spin_to(table, number)
        pay(table, {})
    spin_to(table, 7)
    # red won on 7 and is being paid: the table must not tell the croupier to take its colour
    assert table.state.accounts["red"].idle_spins == 2
    assert not [n for n in notices(table.state, clock.now()) if isinstance(n, ExchangeColour)]
    pay(table, {"red": chips(("7", 1))})
    assert {c: a.idle_spins for c, a in table.state.accounts.items()} == {"red": 0, "green": 3}


def test_an_unmarked_payout_the_wheel_ends_counts_only_the_recorded_bets(clock):
    """The wheel launched the next spin before the croupier confirmed the sheet."""
    table = opened("pt-americana", clock)
    seat(table, "red")
    spin_to(table, 17)
    table.do(cycle.launch, direction=Direction.ANTICLOCKWISE, source=Source.SENSOR)
    assert table.state.accounts["red"].idle_spins == 1 and table.state.accounts["red"].won == Fraction(0)
