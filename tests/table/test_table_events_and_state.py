"""The canonical encoding the hash chain covers, and the state as a small, snapshot-able fold."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from croupier.rules.spin import Direction, VoidReason
from croupier.table import bets, colours, cycle, payouts
from croupier.table.clock import FakeClock
from croupier.table.codec import CodecError
from croupier.table.events import EVENT_TYPES, PlayerWaiting, Stake, decode, encode
from croupier.table.refusal import Refused
from croupier.table.state import decode_state, encode_state, fold

from table_kit import opened, seat

times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                     timezones=st.just(timezone.utc))
st.register_type_strategy(datetime, times)
st.register_type_strategy(Decimal, st.decimals(allow_nan=False, allow_infinity=False, places=2,
                                               min_value=-10**9, max_value=10**9))
st.register_type_strategy(Fraction, st.fractions(max_denominator=4))


@settings(max_examples=30)
@given(st.sampled_from(sorted(EVENT_TYPES)).flatmap(lambda kind: st.builds(EVENT_TYPES[kind], time=times)))
def test_every_event_reads_back_equal_from_its_canonical_bytes(event):
    data = encode(event)
    assert decode(data) == event
    record = json.loads(data)
    assert data == json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert record["kind"] == event.kind


ODD_VALUES = (2**64 + 1, -2**63 - 1, 10**30, 2**63, 1.0, 2.5, float("nan"), float("inf"), "\ud800", -0, True)


@settings(max_examples=80)
@given(st.sampled_from(sorted(EVENT_TYPES)).flatmap(lambda kind: st.builds(EVENT_TYPES[kind], time=times)),
       st.data())
def test_an_event_reads_the_same_with_orjson_as_with_the_standard_json(event, data):
    from croupier.table import events

    record = json.loads(encode(event))
    name = data.draw(st.sampled_from(sorted(record)))
    record[name] = data.draw(st.sampled_from(ODD_VALUES + (record[name],)))  # beyond 64 bits orjson reads a float
    text = json.dumps(record).encode()  # NaN and Infinity as json writes them; a lone surrogate escaped

    def read() -> object:
        try:
            return decode(text)
        except CodecError as exc:
            return str(exc)

    fast = read()
    kept, events._orjson_loads = events._orjson_loads, None
    try:
        assert fast == read()
    finally:
        events._orjson_loads = kept


def test_money_and_chips_are_written_as_exact_strings_never_floats():
    from croupier.table.events import ColourCashedOut, LateChipsExchanged

    late = LateChipsExchanged(time=datetime(2025, 1, 1, tzinfo=timezone.utc), colour="red", chips=3,
                              chip_value=Decimal("2.50"), amount=Decimal("7.50"), by="Ana")
    assert b'"amount":"7.50"' in encode(late) and b'"chip_value":"2.50"' in encode(late)
    cashed = ColourCashedOut(time=datetime(2025, 1, 1, tzinfo=timezone.utc), colour="red", player="p", chips=1,
                             expected_chips=Fraction(3, 2), chip_value=Decimal(5), amount=Decimal(5),
                             reason="left", by="Ana")
    assert b'"expected_chips":"3/2"' in encode(cashed)
    with pytest.raises(CodecError, match="float 2.5 cannot be recorded exactly"):
        encode(LateChipsExchanged(time=late.time, colour="red", chips=3, chip_value=2.5, amount=Decimal(1), by="x"))


def test_an_event_recorded_before_a_field_was_added_keeps_its_canonical_bytes():
    # An alarm as journals held it before alarms carried their facts: its hash must still match.
    before = (b'{"alarm":1,"alarm_kind":"wheel-fault","detail":"nothing from the wheel for 3 s",'
              b'"kind":"alarm-raised","subject":"wheel sensor link","time":"2025-01-01T00:00:00.000000+00:00"}')
    assert decode(before).facts is None and encode(decode(before)) == before


def test_a_limit_cut_reads_back_typed_from_the_bytes_it_was_recorded_as_when_its_reason_was_a_string():
    from croupier.rules.limits import LimitOutcome, LimitReason

    recorded = (b'{"colour":"red","cuts":[{"colour":"red","facts":{"back":"5","bet":"17","held":"0","kind":"plein",'
                b'"maximum":"100","most":"10","position":"17"},"outcome":"adjusted","reason":"maximum",'
                b'"rule":"PT-A 26"}],"kind":"bets-placed","notes":["17: cut"],"spin":1,'
                b'"stakes":[{"bet":"17","chips":10}],"time":"2025-01-01T00:00:00.000000+00:00"}')
    (cut,) = decode(recorded).cuts
    assert cut.reason is LimitReason.MAXIMUM and cut.outcome is LimitOutcome.ADJUSTED
    assert encode(decode(recorded)) == recorded


def test_times_are_utc_with_microseconds_whatever_zone_they_come_in():
    lisbon_summer = timezone(timedelta(hours=1))
    event = PlayerWaiting(time=datetime(2025, 7, 1, 21, 30, tzinfo=lisbon_summer), player="p")
    assert b'"time":"2025-07-01T20:30:00.000000+00:00"' in encode(event)
    with pytest.raises(CodecError, match="no time zone"):
        encode(PlayerWaiting(time=datetime(2025, 7, 1), player="p"))


@pytest.mark.parametrize("bad, why", [
    (b"not json", "not JSON"),
    (b'{"kind":"meteor-strike","time":"2025-01-01T00:00:00+00:00"}', "unknown event kind 'meteor-strike'"),
    (b'{"kind":"player-waiting","time":"2025-01-01T00:00:00+00:00"}', "missing 1 required keyword-only"),
    (b'{"kind":"player-waiting","player":7,"time":"2025-01-01T00:00:00+00:00"}', "expected str, found 7"),
    (b'{"kind":"player-waiting","player":"p","time":"yesterday"}', "'yesterday' is not a time"),
    (b'{"kind":"player-waiting","player":"p","time":"2025-01-01T00:00:00+00:00","x":1}', "has no field 'x'"),
])
def test_a_damaged_event_is_refused_naming_what_is_wrong(bad, why):
    with pytest.raises(CodecError, match=why):
        decode(bad)


ACTIONS = st.lists(st.sampled_from(["bet", "launch", "close", "enter", "confirm", "void", "pay", "count", "withdraw",
                                    "wait"]), max_size=60)


@settings(max_examples=25)
@given(ACTIONS, st.integers(0, 36))
def test_any_sequence_of_commands_leaves_a_state_its_snapshot_restores(actions, number):
    clock = FakeClock()
    table = opened("mt-fair", clock)
    seat(table, "red")
    commands = {
        "bet": (bets.place_bets, dict(colour="red", stakes=(Stake(bet="red", chips=1),))),
        "launch": (cycle.launch, dict(direction=Direction.CLOCKWISE)),
        "close": (cycle.close_bets, {}),
        "enter": (cycle.enter_result, dict(number=number)),
        "confirm": (cycle.confirm_result, {}),
        "void": (cycle.void_spin, dict(reason=VoidReason.CHIP_FELL)),
        "pay": (cycle.payouts_done, {}),
        "withdraw": (bets.withdraw_bets, dict(colour="red")),
    }
    for action in actions:
        if action == "wait":
            clock.advance(minutes=7)
            continue
        if action == "count":  # the winners counted at the payouts: a plein on the number, 5 chips (FR)
            command, arguments = payouts.record_payouts, dict(
                spin=table.state.spin - 1, paid={"red": (Stake(bet=str(number), chips=5),)}, played=("red",))
        else:
            command, arguments = commands[action]
        try:
            table.do(command, **arguments)
        except Refused:
            pass
    assert decode_state(encode_state(table.state)) == table.state
    assert fold(table.events) == table.state  # the state is the fold of what was recorded


def test_the_state_stays_the_same_size_however_long_the_shift(clock):
    table = opened("pt-americana", clock)
    seat(table, "red")
    sizes = []
    for spins in (50, 500):
        while table.state.counted < spins:
            table.do(bets.place_bets, colour="red", stakes=(Stake(bet="red", chips=1),))
            last = table.state.last_direction
            table.do(cycle.launch, direction=last.opposite() if last else Direction.CLOCKWISE)
            table.do(cycle.enter_result, number=table.state.counted % 37)
            table.do(cycle.confirm_result)
            table.do(cycle.payouts_done)
            clock.advance(seconds=90)
            table.do(colours.issue_chips, colour="red", chips=1, by="Ana")
        sizes.append(len(encode_state(table.state)))
    assert len(table.state.recent) == 12
    assert abs(sizes[1] - sizes[0]) < 200  # counters grow by digits, nothing else


def test_alarms_nobody_clears_do_not_grow_the_state_without_bound(clock):
    from croupier.table.events import AlarmKind, AlarmRaised
    from croupier.table.state import OPEN_ALARMS, apply

    table = opened("pt-americana", clock)
    state = table.state
    for n in range(1, OPEN_ALARMS + 51):
        state = apply(state, AlarmRaised(time=clock.now(), alarm=n, alarm_kind=AlarmKind.DIRECTION_REPEATED,
                                         subject=f"spin {n}", detail="again"))
    assert len(state.alarms) == OPEN_ALARMS and min(state.alarms) == 51 and state.next_alarm == OPEN_ALARMS + 51


def test_no_command_sets_an_events_time_the_table_clock_stamps_them_all():
    # `stamped` (run by commands.execute for every command) is the one place an event gets its time.
    import ast
    from pathlib import Path

    import croupier

    names = {cls.__name__ for cls in EVENT_TYPES.values()}
    found = []
    for path in Path(croupier.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in names
                    and any(keyword.arg == "time" for keyword in node.keywords)):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_every_event_of_a_command_carries_the_clock_s_time():
    clock = FakeClock()
    table = opened(clock=clock)
    clock.advance(minutes=3)
    events = table.do(cycle.launch, direction=Direction.CLOCKWISE)
    assert events and all(event.time == clock.now() for event in events)
