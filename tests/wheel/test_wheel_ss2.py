"""The Slingshot 2 decoder against the developers' guide v2.07 (sections 2.4, 2.5, 4.1)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st
from wheel_lines import feed_all, number, of_type, ss2

from croupier.rules.spin import Direction, VoidReason
from croupier.wheel.events import CommandReply, NumberConflict, WheelFault, WheelPhase, WheelResult, WheelState, WheelVoid
from croupier.wheel.ss2 import Ss2Decoder


def game(spin=7, last=12, result=25, direction=1, with_number_line=True):
    """One game as the guide's example 5.4 shows it: states 2, 3, 4, the number line, state 5."""
    lines = [ss2(2, spin, last, rpm=150, direction=1 - direction), ss2(2, spin, last, rpm=40, direction=direction)]
    lines += [ss2(3, spin, last, direction=direction)] * 3
    lines += [ss2(4, spin, last, direction=direction)] * 4
    if with_number_line:
        lines.append(number(result))
    lines += [ss2(5, spin, result, direction=direction)] * 3
    return lines


def test_a_game_gives_one_result_from_the_number_line():
    events = feed_all(Ss2Decoder(), game())
    results = of_type(events, WheelResult)
    assert results == [WheelResult(25, 4.5, 7, Direction.ANTICLOCKWISE, "number-line")]
    states = [s.state for s in of_type(events, WheelState)]
    assert states == [WheelPhase.PLACE_BETS, WheelPhase.PLACE_BETS, WheelPhase.BALL_IN_RIM, WheelPhase.NO_MORE_BETS, WheelPhase.WINNING_NUMBER]


def test_a_lost_number_line_leaves_the_state_5_line():
    events = feed_all(Ss2Decoder(), game(with_number_line=False))
    assert of_type(events, WheelResult) == [WheelResult(25, 4.5, 7, Direction.ANTICLOCKWISE, "state-5")]


def test_with_no_number_line_a_damaged_first_state_5_line_counts_nothing_and_says_both():
    # Status lines only: the first state-5 line was damaged into another pocket. One line is no
    # proof; the next state-5 line disagrees, so neither counts and the table hears of both.
    lines = game(result=25, with_number_line=False)
    first = lines.index(ss2(5, 7, 25, direction=1))
    lines[first] = ss2(5, 7, 17, direction=1)
    events = feed_all(Ss2Decoder(), lines)
    assert of_type(events, WheelResult) == []
    assert of_type(events, NumberConflict) == [NumberConflict(None, 25, 5.0, 7, Direction.ANTICLOCKWISE, 17)]


def test_with_no_number_line_one_state_5_line_alone_counts_nothing():
    lines = game(result=25, with_number_line=False)[:-2]  # the wheel moved on after one state-5 line
    lines.append(ss2(1, 7, 25))
    assert of_type(feed_all(Ss2Decoder(), lines), WheelResult) == []


def test_a_state_5_line_disagreeing_after_the_count_is_a_fault_not_a_second_result():
    lines = game(result=25) + [ss2(5, 7, 13, direction=1)]
    events = feed_all(Ss2Decoder(), lines)
    assert [r.number for r in of_type(events, WheelResult)] == [25]
    assert any("says 13 after 25" in f.message for f in of_type(events, WheelFault))


def test_a_state_5_line_damaged_into_state_3_does_not_count_the_game_twice():
    # Status lines only, the game counted; one of its state-5 repeats arrives as state 3 (a byte
    # changed): with the same counter and no bets between, it is no launch, so the state-5 lines
    # after it are the same game's, not a second result.
    lines = game(result=25, with_number_line=False)
    lines[-1] = ss2(3, 7, 25, direction=1)
    lines += [ss2(5, 7, 25, direction=1)] * 2
    events = feed_all(Ss2Decoder(), lines)
    assert [(r.game, r.number) for r in of_type(events, WheelResult)] == [(7, 25)]
    assert any("state-3 line after its result 25" in f.message for f in of_type(events, WheelFault))


def test_the_last_number_field_of_states_1_to_4_is_never_a_result():
    lines = [ss2(1, 3, 30), ss2(2, 3, 30), ss2(3, 3, 30), ss2(4, 3, 30)] * 3
    assert of_type(feed_all(Ss2Decoder(), lines), WheelResult) == []


def test_number_line_with_no_ball_in_play_is_ignored():
    decoder = Ss2Decoder()
    events = feed_all(decoder, [number(9), ss2(2, 4, 30), number(9)])
    assert of_type(events, WheelResult) == []
    faults = of_type(events, WheelFault)
    assert len(faults) == 2 and all("not a result" in f.message for f in faults)


def test_a_second_number_line_in_one_game_is_ignored():
    lines = game()
    lines.insert(lines.index(number(25)) + 1, number(3))
    events = feed_all(Ss2Decoder(), lines)
    assert [r.number for r in of_type(events, WheelResult)] == [25]
    assert any("second winning-number line" in f.message for f in of_type(events, WheelFault))


def test_number_line_and_state_5_disagreeing_count_neither():
    # The guide gives the number twice (2.4, 2.5) and neither as the master: a disagreement is
    # shown to the table with both numbers, and no result is counted.
    lines = game(result=17)
    lines[lines.index(number(17))] = number(28)
    events = feed_all(Ss2Decoder(), lines)
    assert of_type(events, WheelResult) == []
    assert of_type(events, NumberConflict) == [NumberConflict(28, 17, 5.0, 7, Direction.ANTICLOCKWISE)]


def test_a_number_line_while_the_ball_is_in_the_rim_is_never_a_result():
    lines = game(result=17)
    lines.insert(3, number(23))  # a stray line in state 3
    events = feed_all(Ss2Decoder(), lines)
    assert [(r.number, r.source) for r in of_type(events, WheelResult)] == [(17, "number-line")]
    assert any("23" in f.message and "not a result" in f.message for f in of_type(events, WheelFault))


def test_stray_number_lines_in_the_rim_never_make_the_results():
    lines = []
    for spin, result in zip(range(1, 6), (4, 15, 0, 32, 19)):
        one = game(spin=spin, last=None, result=result)
        one.insert(3, number(23))
        lines += one
    assert [r.number for r in of_type(feed_all(Ss2Decoder(), lines), WheelResult)] == [4, 15, 0, 32, 19]


def test_a_number_line_not_followed_by_state_5_is_not_a_result():
    lines = game(result=17)
    five = lines.index(number(17)) + 1
    lines[five:] = [ss2(2, 8, 12)]  # the state-5 lines were lost: the wheel starts the next game
    events = feed_all(Ss2Decoder(), lines)
    assert of_type(events, WheelResult) == []
    assert any("never confirmed" in f.message for f in of_type(events, WheelFault))


def test_consecutive_games_each_give_one_result_even_with_the_same_number():
    lines = game(spin=7, last=12, result=25) + game(spin=8, last=25, result=25) + game(spin=9, last=25, result=0)
    results = of_type(feed_all(Ss2Decoder(), lines), WheelResult)
    assert [(r.game, r.number) for r in results] == [(7, 25), (8, 25), (9, 0)]


def test_spin_counter_wraps_from_256_to_1():
    lines = game(spin=256, last=4, result=17) + game(spin=1, last=17, result=17)
    results = of_type(feed_all(Ss2Decoder(), lines), WheelResult)
    assert [(r.game, r.number) for r in results] == [(256, 17), (1, 17)]


@given(st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=30))
def test_bytes_split_anywhere_decode_the_same(cuts):
    stream = b"".join(game())
    pieces, at = [], 0
    for size in cuts:
        pieces.append(stream[at : at + size])
        at += size
    pieces.append(stream[at:])
    results = of_type(feed_all(Ss2Decoder(), pieces, step=0.01), WheelResult)
    assert [(r.number, r.game) for r in results] == [(25, 7)]


@pytest.mark.parametrize("ending", [b"\r\n", b"\n\r", b"\r", b"\n", b"\r\n\r\n"])
def test_any_line_ending(ending):
    stream = b"".join(game()).replace(b"\r\n", ending)
    results = of_type(Ss2Decoder().feed(stream, 1.0), WheelResult)
    assert [r.number for r in results] == [25]


def test_a_result_is_stamped_with_the_time_its_line_ended():
    decoder = Ss2Decoder()
    decoder.feed(ss2(4, 2, 1), 1.0)
    assert decoder.feed(b"2", 2.0) == []
    assert of_type(decoder.feed(b"8\r\n", 3.0), WheelResult) == []  # counted once state 5 agrees
    assert of_type(decoder.feed(ss2(5, 2, 28), 3.4), WheelResult)[0].time == 3.0


def test_resynchronises_on_star_like_the_production_capture():
    decoder = Ss2Decoder()
    events = decoder.feed(b"*X;4;14*X;*X;4;146; 9;0;158;0\r\n", 1.0)
    faults = of_type(events, WheelFault)
    assert [f.raw for f in faults] == ["*X;4;14", "*X;"]
    [state] = of_type(events, WheelState)
    assert (state.state, state.game, state.last_number) == (WheelPhase.NO_MORE_BETS, 146, 9)


@pytest.mark.parametrize(
    "line",
    [
        b"*X;7;007;12;0;170;0",  # the SS2 has no state 7
        b"*X;0;007;12;0;170;0",
        b"*X;2;000;12;0;170;0",  # spins count from 1
        b"*X;2;257;12;0;170;0",
        b"*X;2;07;12;0;170;0",
        b"*X;2;007;37;0;170;0",  # no pocket 37
        b"*X;2;007;00;0;170;0",  # double zero
        b"*X;2;007;05;0;170;0",  # 1-9 are space-padded
        b"*X;2;007;12;a;170;0",  # hex digits are capitals
        b"*X;2;007;12;0;17x;0",
        b"*X;2;007;12;0;170;2",
        b"*X;2;007;12;0;170",
        b"*X;2;007;12;0;170;0;0",
        b"*X;2;007;12;0;170;0 ",
    ],
)
def test_a_status_line_failing_validation_is_a_fault_and_changes_nothing(line):
    decoder = Ss2Decoder()
    events = decoder.feed(line + b"\r\n", 1.0)
    assert len(events) == 1 and isinstance(events[0], WheelFault)
    assert "status line rejected" in events[0].message


def test_a_state_5_line_failing_validation_gives_no_result():
    decoder = Ss2Decoder()
    events = feed_all(decoder, [ss2(4, 3, 1), b"*X;5;003;37;0;170;0\r\n", b"*X;5;003;1 ;0;170;0\r\n"])
    assert of_type(events, WheelResult) == []


@pytest.mark.parametrize("line", [b"5", b"005", b"5 ", b"37", b"00", b"05", b"-1", b"\xb5\xb2"])
def test_a_malformed_number_line_gives_no_result(line):
    decoder = Ss2Decoder()
    decoder.feed(ss2(4, 3, 1), 0.0)
    events = decoder.feed(line + b"\r\n", 1.0)
    assert of_type(events, WheelResult) == [] and of_type(events, WheelFault)


def test_command_replies():
    events = Ss2Decoder().feed(b"*u OK\r\n*P NO\r\n*o BUSY\r\n*T h 60\r\n*  NO\r\n", 1.0)
    assert [(r.command, r.text, r.ok) for r in events] == [
        ("u", "OK", True),
        ("P", "NO", False),
        ("o", "BUSY", False),
        ("T", "h 60", None),
        (" ", "NO", False),
    ]
    assert all(isinstance(r, CommandReply) for r in events)


# -- voids (guide 4.1) ---------------------------------------------------------------------------


def test_flag_2_in_state_3_is_a_same_direction_void():
    lines = [ss2(2, 5, 1), ss2(3, 5, 1, flags=2), ss2(3, 5, 1, flags=2), ss2(3, 5, 1, flags=2)]
    voids = of_type(feed_all(Ss2Decoder(), lines), WheelVoid)
    assert [(v.reason, v.game, v.time) for v in voids] == [(VoidReason.SAME_DIRECTION, 5, 0.5)]


def test_flag_2_in_state_2_is_not_a_void():
    # The production capture has it: the warning comes before the launch.
    lines = [ss2(2, 7, 24, flags=2)] * 10 + [ss2(2, 7, 24, flags=8)] * 10 + [ss2(3, 7, 24)]
    assert of_type(feed_all(Ss2Decoder(), lines), WheelVoid) == []


def test_flag_8_is_ignored_for_the_first_3_seconds_of_state_3():
    decoder = Ss2Decoder()
    early = feed_all(decoder, [ss2(2, 5, 1)] + [ss2(3, 5, 1, flags=8)] * 6, start=-0.5)  # state 3 from 0.0 to 2.5
    assert of_type(early, WheelVoid) == []
    [void] = of_type(decoder.feed(ss2(3, 5, 1, flags=8), 3.0), WheelVoid)
    assert void.reason is VoidReason.TOO_FEW_REVOLUTIONS


def test_flag_8_that_clears_within_3_seconds_is_no_void():
    lines = [ss2(3, 5, 1, flags=8)] * 5 + [ss2(3, 5, 1)] * 10
    assert of_type(feed_all(Ss2Decoder(), lines), WheelVoid) == []


def test_flag_1_in_state_4_voids_only_after_5_seconds():
    decoder = Ss2Decoder()
    early = feed_all(decoder, [ss2(4, 5, 1, flags=1)] * 11)  # 0.0 .. 5.0 s: 5 s exactly is tolerated
    assert of_type(early, WheelVoid) == []
    [void] = of_type(decoder.feed(ss2(4, 5, 1, flags=1), 5.5), WheelVoid)
    assert void.reason is VoidReason.BALL_LEFT_WHEEL and void.game == 5


def test_flag_1_that_comes_and_goes_is_no_void():
    # As in the faults capture: flag 1 set for one line, cleared the next, for 15 s.
    lines = [ss2(4, 1, None, flags=1 if i % 2 == 0 else 0) for i in range(30)]
    assert of_type(feed_all(Ss2Decoder(), lines), WheelVoid) == []


def test_flag_4_during_the_spin_is_a_sensor_fault_void():
    [void] = of_type(feed_all(Ss2Decoder(), [ss2(4, 1, None), ss2(4, 1, None, flags=4)]), WheelVoid)
    assert void.reason is VoidReason.SENSOR_FAULT


def test_flag_4_with_the_table_closed_is_no_void():
    assert of_type(feed_all(Ss2Decoder(), [ss2(6, 1, None, flags=4)] * 4), WheelVoid) == []


def test_a_void_then_the_re_spin_result():
    lines = [ss2(2, 5, 1), ss2(3, 5, 1, flags=2), ss2(3, 5, 1, flags=2)] + game(spin=5, last=1, result=19)
    events = feed_all(Ss2Decoder(), lines)
    kinds = [(type(e).__name__, getattr(e, "game", None)) for e in events if isinstance(e, (WheelVoid, WheelResult))]
    assert kinds == [("WheelVoid", 5), ("WheelResult", 5)]


# -- a reader that restarts or reconnects --------------------------------------------------------


def test_after_a_reconnect_the_repeated_state_5_is_not_reported_again():
    decoder = Ss2Decoder()
    lines = game()
    first = feed_all(decoder, lines[:-2])  # up to the first state-5 line
    decoder.feed(b"*X;5;0", 5.0)  # cut by the unplug
    decoder.resync()
    again = feed_all(decoder, [ss2(5, 7, 25, direction=1)] * 4, start=10.0)
    assert len(of_type(first, WheelResult)) == 1
    assert of_type(again, WheelResult) == [] and of_type(again, WheelFault) == []


def test_a_fresh_decoder_told_the_journal_does_not_repeat_the_last_game():
    decoder = Ss2Decoder()
    decoder.mark_reported(7, 25)
    assert of_type(feed_all(decoder, [ss2(5, 7, 25)] * 3), WheelResult) == []
    # The next game is reported.
    assert [r.number for r in of_type(feed_all(decoder, game(spin=8, last=25, result=3)), WheelResult)] == [3]


def test_a_game_seen_in_play_is_reported_even_if_it_matches_the_journal():
    # A wheel powered off and on counts from 1 again: game 2 with 28 is a new game if we saw it run.
    decoder = Ss2Decoder()
    decoder.mark_reported(2, 28)
    results = of_type(feed_all(decoder, game(spin=2, last=None, result=28, with_number_line=False)), WheelResult)
    assert [(r.game, r.number) for r in results] == [(2, 28)]


def test_a_fresh_decoder_meeting_two_state_5_lines_that_differ_reports_neither():
    events = feed_all(Ss2Decoder(), [ss2(5, 149, 21, direction=1), ss2(5, 149, 27, direction=1), ss2(5, 149, 27)])
    assert of_type(events, WheelResult) == []
    assert [(c.first_state_five, c.state_five) for c in of_type(events, NumberConflict)] == [(21, 27)]


def test_a_fresh_decoder_reports_a_game_met_in_state_5():
    results = of_type(feed_all(Ss2Decoder(), [ss2(5, 149, 21, direction=1)] * 3), WheelResult)
    assert [(r.game, r.number, r.direction) for r in results] == [(149, 21, Direction.ANTICLOCKWISE)]
