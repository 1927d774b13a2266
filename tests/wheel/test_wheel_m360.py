"""The Mercury 360 decoders against integration guide 1051-INT-02-L (sections 4 and 5)."""
import pytest
from wheel_lines import feed_all, m360, m360x, number, of_type, ss2

from croupier.rules.spin import Direction, VoidReason
from croupier.wheel.events import BallPosition, CommandReply, NumberConflict, VoidSpinNumber, WheelFault, WheelPhase, WheelResult, WheelState, WheelVoid
from croupier.wheel.m360 import M360AdvancedDecoder, M360BasicDecoder, M360ExtendedDecoder
from croupier.wheel.ss2 import Ss2Decoder


def advanced_game(games=4, last=12, result=31, direction=0, flags_in_play=0):
    lines = [m360(1, games, last, direction=direction), m360(2, games, last, direction=direction)]
    lines += [m360(3, games, last, flags=flags_in_play, direction=direction)] * 3
    lines += [m360(4, games, last, direction=direction)] * 3
    lines.append(number(result))
    lines += [m360(5, (games + 1) % 256, result, direction=direction)] * 3  # the game counts once completed
    return lines


def test_advanced_game_gives_one_result_numbered_as_the_game_in_play():
    results = of_type(feed_all(M360AdvancedDecoder(), advanced_game()), WheelResult)
    # 4 games completed when this one started: it is game 5, and state 5 shows 005.
    assert [(r.number, r.game, r.direction, r.source) for r in results] == [(31, 5, Direction.CLOCKWISE, "number-line")]


def test_advanced_lost_number_line_result_from_state_5():
    lines = [line for line in advanced_game() if line != number(31)]
    results = of_type(feed_all(M360AdvancedDecoder(), lines), WheelResult)
    assert [(r.number, r.game, r.source) for r in results] == [(31, 5, "state-5")]


@pytest.mark.parametrize("line", [m360, m360x])
def test_advanced_and_extended_with_no_number_line_count_only_two_agreeing_state_5_lines(line):
    decoder = M360AdvancedDecoder() if line is m360 else M360ExtendedDecoder()
    play = [line(3, 4, 12), line(4, 4, 12), line(5, 5, 13), line(5, 5, 31), line(5, 5, 31)]
    events = feed_all(decoder, play)
    assert of_type(events, WheelResult) == []
    assert [(c.first_state_five, c.state_five, c.game) for c in of_type(events, NumberConflict)] == [(13, 31, 5)]
    # The next game, its first two state-5 lines agreeing, counts.
    results = of_type(feed_all(decoder, [line(1, 5, 31), line(3, 5, 31), line(5, 6, 8), line(5, 6, 8)]), WheelResult)
    assert [(r.number, r.game, r.source) for r in results] == [(8, 6, "state-5")]


def test_a_counter_that_does_not_move_at_state_5_still_gives_one_result():
    # The guide does not say when the count moves; either way a game has one result.
    lines = [line.replace(b"*X;5;005;", b"*X;5;004;") for line in advanced_game()]
    assert len(of_type(feed_all(M360AdvancedDecoder(), lines), WheelResult)) == 1


def test_the_game_count_wraps_at_255():
    lines = advanced_game(games=254, result=3) + advanced_game(games=255, last=3, result=8)
    results = of_type(feed_all(M360AdvancedDecoder(), lines), WheelResult)
    # 255 games completed, the next is counted 0 (8 bits).
    assert [(r.number, r.game) for r in results] == [(3, 255), (8, 0)]


def test_flag_1_is_rotor_speed_on_the_mercury_and_voids_nothing():
    lines = [m360(3, 0, None, flags=1), m360(4, 0, None, flags=1)] * 20
    assert of_type(feed_all(M360AdvancedDecoder(), lines), WheelVoid) == []
    # The same bytes on the SS2 are the ball removed for over 5 s.
    ss2_lines = [ss2(4, 1, None, flags=1)] * 20
    assert [v.reason for v in of_type(feed_all(Ss2Decoder(), ss2_lines), WheelVoid)] == [VoidReason.BALL_LEFT_WHEEL]


def test_flag_2_is_a_same_direction_void_in_states_3_and_4():
    for state in (3, 4):
        [void] = of_type(feed_all(M360AdvancedDecoder(), [m360(state, 2, 1, flags=2)] * 3), WheelVoid)
        assert void.reason is VoidReason.SAME_DIRECTION and void.game == 3


def test_flag_8_voids_at_once_unlike_the_ss2_launch_retry():
    [void] = of_type(M360AdvancedDecoder().feed(m360(3, 2, 1, flags=8), 0.0), WheelVoid)
    assert void.reason is VoidReason.TOO_FEW_REVOLUTIONS  # a slow launch, judged in state 3
    [void] = of_type(M360AdvancedDecoder().feed(m360(4, 2, 1, flags=8), 0.0), WheelVoid)
    assert void.reason is VoidReason.BALL_LEFT_WHEEL  # the ball removed during no more bets
    assert of_type(Ss2Decoder().feed(ss2(3, 2, 1, flags=8), 0.0), WheelVoid) == []


def test_flag_4_is_a_sensor_fault_void():
    [void] = of_type(M360AdvancedDecoder().feed(m360(4, 2, 1, flags=0xC), 0.0), WheelVoid)[:1]
    assert void.reason is VoidReason.SENSOR_FAULT


def test_state_7_dealer_lock_keeps_the_ball_in_play():
    lines = [m360(4, 0, None), m360(7, 0, None), number(17), m360(5, 1, 17)]
    results = of_type(feed_all(M360AdvancedDecoder(), lines), WheelResult)
    assert [(r.number, r.game) for r in results] == [(17, 1)]


def test_rotor_speed_000_means_out_of_range_not_stopped():
    [state] = of_type(M360AdvancedDecoder().feed(m360(2, 0, None, rpm=0), 0.0), WheelState)
    assert state.rotor_rpm is None
    [state] = of_type(Ss2Decoder().feed(ss2(2, 1, None, rpm=0), 0.0), WheelState)
    assert state.rotor_rpm == 0.0


@pytest.mark.parametrize("text, value", [(" 5", 5), ("05", 5), (" 0", 0), ("36", 36)])
def test_mercury_number_line_padding(text, value):
    decoder = M360AdvancedDecoder()
    decoder.feed(m360(4, 0, None), 0.0)
    decoder.feed(text.encode() + b"\r\n", 1.0)
    assert [r.number for r in of_type(decoder.feed(m360(5, 1, value), 1.2), WheelResult)] == [value]


def test_double_zero_is_refused():
    decoder = M360AdvancedDecoder()
    decoder.feed(m360(4, 0, None), 0.0)
    events = decoder.feed(b"00\r\n", 1.0)
    assert of_type(events, WheelResult) == [] and "double-zero" in of_type(events, WheelFault)[0].message


def test_advanced_decoder_refuses_an_extended_line_and_back():
    assert of_type(M360AdvancedDecoder().feed(m360x(2, 0, None), 0.0), WheelFault)
    assert of_type(M360ExtendedDecoder().feed(m360(2, 0, None), 0.0), WheelFault)


def test_bare_replies_of_the_box_are_replies():
    events = M360AdvancedDecoder().feed(b"OK\r\nLOCKED\r\n# 040\r\n", 0.0)
    assert [(type(e), e.text, e.ok) for e in events] == [
        (CommandReply, "OK", True),
        (CommandReply, "LOCKED", False),
        (CommandReply, "# 040", None),
    ]


# -- extended protocol ---------------------------------------------------------------------------


def extended_spin(revolutions, games=0, last=9, result=14, ball="1", direction=0, ext=0x012):
    """States 3 and 4 with the ball counted round the track, then the ball in a pocket."""
    lines = [m360x(2, games, last, ext=ext | 0x80, direction=direction)]
    lines += [
        m360x(3 if i < 2 else 4, games, last, revolutions=min(i + 1, revolutions), ball=ball, period="0A000", ext=ext,
              direction=direction)
        for i in range(max(revolutions, 3))
    ]
    lines.append(number(result))
    lines.append(m360x(5, games + 1, result, revolutions=revolutions, ext=ext | 0x100, ball_pocket=result,
                       direction=direction))
    return lines


def test_extended_fields_are_read():
    decoder = M360ExtendedDecoder()
    [state] = of_type(decoder.feed(m360x(3, 0, 9, revolutions=0x1A, ball="1", period="0A000"), 0.0), WheelState)
    assert (state.ball_revolutions, state.ball_direction, state.ball_rpm) == (26, Direction.ANTICLOCKWISE, 48.0)
    # 0x0A000 = 40960 units of 1/32768 s per revolution: 1966080 / 40960 = 48 rpm (guide 4.6.4).


@pytest.mark.parametrize("minimum, revolutions, void", [(5, 4, True), (5, 5, False), (3, 2, True), (3, 3, False), (None, 1, False)])
def test_fewer_revolutions_than_the_profile_minimum_is_a_void_before_the_result(minimum, revolutions, void):
    events = feed_all(M360ExtendedDecoder(min_ball_revolutions=minimum), extended_spin(revolutions))
    found = [e for e in events if isinstance(e, (WheelVoid, WheelResult))]
    void_numbers = of_type(events, VoidSpinNumber)
    if void:  # RU 4.12, SRIJ 23: the launch is void, and where its ball stopped is not a result
        assert [type(e) for e in found] == [WheelVoid]
        assert found[0].reason is VoidReason.TOO_FEW_REVOLUTIONS
        assert [(n.number, n.reason) for n in void_numbers] == [(14, VoidReason.TOO_FEW_REVOLUTIONS)]
    else:
        assert [type(e) for e in found] == [WheelResult] and void_numbers == []


def test_ball_turning_with_the_rotor_is_a_void_without_any_flag():
    events = feed_all(M360ExtendedDecoder(), extended_spin(8, ball="0", direction=0))
    assert [v.reason for v in of_type(events, WheelVoid)] == [VoidReason.SAME_DIRECTION]


def test_rotor_stopped_during_the_spin_is_a_void():
    events = feed_all(M360ExtendedDecoder(), [m360x(4, 0, 9, ext=0x011, revolutions=6, ball="1")])
    assert [v.reason for v in of_type(events, WheelVoid)] == [VoidReason.WHEEL_STOPPED]


def test_flag_8_with_no_ball_in_the_wheel_is_the_ball_leaving():
    events = M360ExtendedDecoder().feed(m360x(3, 0, 9, flags=8, ext=0x092), 0.0)
    assert [v.reason for v in of_type(events, WheelVoid)] == [VoidReason.BALL_LEFT_WHEEL]


def test_after_a_void_the_ball_back_in_the_previous_pocket_is_confirmed():
    lines = [
        m360x(3, 0, 9, flags=2, revolutions=1, ball="0", direction=0),
        m360x(3, 0, 9, flags=2, ext=0x112, ball_pocket=9),  # the croupier puts it back in 9
        m360x(3, 0, 9, flags=2, ext=0x112, ball_pocket=9),
    ] + extended_spin(8, last=9, result=14)[1:]
    events = feed_all(M360ExtendedDecoder(), lines)
    [position] = of_type(events, BallPosition)
    assert (position.pocket, position.expected, position.in_previous_pocket) == (9, 9, True)
    # The flags back to 0 with the ball in play: the re-spin, a new launch (guide 5.3).
    [result] = of_type(events, WheelResult)
    assert (result.number, result.game) == (14, 1) and of_type(events, VoidSpinNumber) == []


def test_after_a_void_the_ball_in_another_pocket_is_shown_as_wrong():
    lines = [m360x(4, 0, 9, flags=8, ext=0x092), m360x(4, 0, 9, flags=8, ext=0x112, ball_pocket=22)]
    [position] = of_type(feed_all(M360ExtendedDecoder(), lines), BallPosition)
    assert (position.pocket, position.expected, position.in_previous_pocket) == (22, 9, False)


def test_no_ball_position_without_a_void():
    lines = [m360x(1, 0, 9, ext=0x112, ball_pocket=9), m360x(3, 0, 9, ext=0x112, ball_pocket=9)]
    assert of_type(feed_all(M360ExtendedDecoder(), lines), BallPosition) == []


@pytest.mark.parametrize(
    "line",
    [
        b"*X;3;000; 9;0;250;0;0200;05;1;0A000;??",  # bits 9-15 of the extended flags are never set
        b"*X;3;000; 9;0;250;0;0012;5;1;0A000;??",
        b"*X;3;000; 9;0;250;0;0012;05;2;0A000;??",
        b"*X;3;000; 9;0;250;0;0012;05;1;0A00;??",
        b"*X;3;000; 9;0;250;0;0012;05;1;00000;??",
        b"*X;3;000; 9;0;250;0;0012;05;1;0A000;?",
        b"*X;3;000; 9;0;250;0;0012;05;1;0A000;37",
        b"*X;8;000; 9;0;250;0;0012;05;1;0A000;??",
        b"*X;3;256; 9;0;250;0;0012;05;1;0A000;??",
    ],
)
def test_extended_line_validation(line):
    events = M360ExtendedDecoder().feed(line + b"\r\n", 0.0)
    assert len(events) == 1 and isinstance(events[0], WheelFault)


# -- basic protocol ------------------------------------------------------------------------------


def test_basic_protocol_game():
    events = feed_all(M360BasicDecoder(), [b"*S\r\n", b"*N\r\n", b"*W 17\r\n"])
    assert [s.state for s in of_type(events, WheelState)] == [WheelPhase.BEFORE_GAME, WheelPhase.NO_MORE_BETS]
    assert of_type(events, WheelResult) == [WheelResult(17, 1.0, None, None, "basic")]


def test_basic_protocol_second_w_without_a_game_start_is_ignored():
    events = feed_all(M360BasicDecoder(), [b"*W 17\r\n", b"*W 17\r\n", b"*S\r\n", b"*W  4\r\n"])
    assert [r.number for r in of_type(events, WheelResult)] == [17, 4]
    assert len(of_type(events, WheelFault)) == 1


@pytest.mark.parametrize("line", [b"*W 37", b"*W17", b"*W 1", b"*W 00", b"17"])
def test_basic_protocol_bad_lines(line):
    events = M360BasicDecoder().feed(line + b"\r\n", 0.0)
    assert of_type(events, WheelResult) == [] and of_type(events, WheelFault)


def test_w_means_a_statistics_reply_on_the_ss2():
    [reply] = Ss2Decoder().feed(b"*W BUSY\r\n", 0.0)
    assert isinstance(reply, CommandReply) and reply.ok is False
    [reply] = Ss2Decoder().feed(b"*W 17\r\n", 0.0)
    assert isinstance(reply, CommandReply)  # on the SS2 not a result


def test_a_void_spin_that_ends_without_a_re_spin_gives_no_result():
    lines = [m360(4, 0, 9, flags=8), m360(4, 0, 9, flags=8), number(14), m360(5, 1, 14)]
    events = feed_all(M360AdvancedDecoder(), lines)
    assert of_type(events, WheelResult) == []
    [void_number] = of_type(events, VoidSpinNumber)
    assert (void_number.number, void_number.reason) == (14, VoidReason.BALL_LEFT_WHEEL)


def test_after_a_re_spin_a_new_void_is_proposed_again():
    lines = [m360(3, 0, 9, flags=2), m360(3, 0, 9), m360(3, 0, 9, flags=2), m360(4, 0, 9)]
    voids = of_type(feed_all(M360AdvancedDecoder(), lines), WheelVoid)
    assert [v.reason for v in voids] == [VoidReason.SAME_DIRECTION, VoidReason.SAME_DIRECTION]


def test_an_ss2_flag_that_clears_does_not_undo_its_void():
    lines = [ss2(3, 4, 9, flags=2), ss2(3, 4, 9), ss2(4, 4, 9), number(14), ss2(5, 4, 14)]
    events = feed_all(Ss2Decoder(), lines)
    assert of_type(events, WheelResult) == []
    assert [(n.number, n.reason) for n in of_type(events, VoidSpinNumber)] == [(14, VoidReason.SAME_DIRECTION)]
