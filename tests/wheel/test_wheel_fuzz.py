"""Random and mutated bytes never crash a decoder, and never make a result of an invalid line."""
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.wheel.events import EVENT_TYPES, WheelResult
from croupier.wheel.games import SimulatedWheel
from croupier.wheel.protocols import PROTOCOL_NAMES, make_decoder

# What may report a result, from the guides: the two-character number line (SS2 2.4, M360 4.3), a
# state-5 status line (SS2 2.5, M360 4.5/4.6), the basic `*W nn` (M360 4.4.3), a bare number (line).
POCKET = r"(?: \d|[12]\d|3[0-6])"
VALID_RESULT_LINE = {
    "cammegh-ss2": re.compile(rf"{POCKET}|\*X;5;(?:00[1-9]|0[1-9]\d|1\d\d|2[0-4]\d|25[0-6]);{POCKET};[0-9A-F];\d{{3}};[01]"),
    "cammegh-m360-advanced": re.compile(
        rf"{POCKET}|0[1-9]|\*X;5;(?:[01]\d\d|2[0-4]\d|25[0-5]);(?:{POCKET}|0[1-9]);[0-9A-F];\d{{3}};[01]"
    ),
    "cammegh-m360-extended": re.compile(
        rf"{POCKET}|0[1-9]|\*X;5;(?:[01]\d\d|2[0-4]\d|25[0-5]);(?:{POCKET}|0[1-9]);[0-9A-F];\d{{3}};[01]"
        rf";0[01][0-9A-F]{{2}};[0-9A-F]{{2}};[?01];(?:\?{{5}}|(?!00000)[0-9A-F]{{5}});(?:\?\?|{POCKET}|0[1-9])"
    ),
    "cammegh-m360-basic": re.compile(rf"\*W (?:{POCKET}|0[1-9])"),
    "line": re.compile(rf"{POCKET}|\d|0[1-9]"),
}


def sample_stream(protocol: str, seed: int) -> bytes:
    wheel = SimulatedWheel(protocol, random.Random(seed))
    data = b"".join(e.data for e in wheel.opening())
    for _ in range(2):
        data += b"".join(e.data for e in wheel.play().emissions)
    return data


SAMPLES = {name: sample_stream(name, 1) for name in PROTOCOL_NAMES}


def mutate(data: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    out = bytearray(data)
    for kind, position, value in edits:
        if not out:
            break
        i = position % len(out)
        if kind == 0:
            out[i] = value  # change a byte
        elif kind == 1:
            del out[i]  # drop a byte
        else:
            out.insert(i, value)  # add a byte
    return bytes(out)


def last_line_before(data: bytes, end: int) -> str:
    """The line the framer ends at byte `end`: from the previous CR/LF or the last '*' before it."""
    start = max(data.rfind(b"\r", 0, end), data.rfind(b"\n", 0, end)) + 1
    star = data.rfind(b"*", start, end)
    return data[star if star >= 0 else start : end].decode("latin-1")


def check_results_come_from_valid_lines(protocol: str, data: bytes) -> None:
    """Feed one byte at a time, stamped with its index: a result's time then names the byte that
    ended its line, and that line must pass the guide's syntax."""
    decoder = make_decoder(protocol, min_ball_revolutions=5)
    for index in range(len(data)):
        for event in decoder.feed(data[index : index + 1], float(index)):
            assert type(event) in EVENT_TYPES
            if isinstance(event, WheelResult):
                line = last_line_before(data, int(event.time))
                assert VALID_RESULT_LINE[protocol].fullmatch(line), (protocol, line)
                assert 0 <= event.number <= 36


@settings(max_examples=60)
@given(st.sampled_from(PROTOCOL_NAMES), st.binary(max_size=400), st.lists(st.integers(1, 64), max_size=20))
def test_random_bytes_in_random_chunks_never_crash(protocol, data, cuts):
    decoder = make_decoder(protocol, min_ball_revolutions=3)
    at, time = 0, 0.0
    for size in cuts + [len(data)]:
        for event in decoder.feed(data[at : at + size], time):
            assert type(event) in EVENT_TYPES
        at, time = at + size, time + 0.25
    decoder.resync()
    decoder.feed(b"\r\n", time)


@settings(max_examples=40)
@given(
    st.sampled_from(PROTOCOL_NAMES),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10**6), st.integers(0, 255)), max_size=40),
)
def test_mutated_wheel_output_yields_results_only_from_valid_lines(protocol, edits):
    check_results_come_from_valid_lines(protocol, mutate(SAMPLES[protocol], edits))


@settings(max_examples=60)
@given(
    st.sampled_from(PROTOCOL_NAMES),
    st.lists(
        st.one_of(
            st.sampled_from([b"\r", b"\n", b"*", b";", b" ", b"*X;", b"*X;5;", b"*W "]),
            st.binary(min_size=1, max_size=6),
            st.text(alphabet="0123456789 ;*X?AF\r\n", min_size=1, max_size=8).map(str.encode),
        ),
        max_size=60,
    ),
)
def test_wheel_like_noise_yields_results_only_from_valid_lines(protocol, pieces):
    check_results_come_from_valid_lines(protocol, b"".join(pieces))


def test_the_check_sees_the_results_of_clean_output():
    # Guards the two tests above against checking nothing: two games, two results, each checked.
    for protocol, data in SAMPLES.items():
        decoder = make_decoder(protocol)
        results = [e for i in range(len(data)) for e in decoder.feed(data[i : i + 1], float(i)) if isinstance(e, WheelResult)]
        assert len(results) == 2, protocol
        check_results_come_from_valid_lines(protocol, data)
