"""The ingester's own readings of what nats-py hands it: headers and stream sequences."""
from types import SimpleNamespace

import pytest
from hypothesis import example, given, strategies as st
from nats.aio.client import Client
from nats.aio.msg import Msg

from croupier.floor.pull import stream_seq
from croupier.floor.wire import Link, WireError, header_lines

HEADERS = [
    b"Nats-Msg-Id: T7:12:0123456789abcdef\r\nNats-Expected-Last-Subject-Sequence: 41\r\n\r\n",
    b"Name:Value\r\nName2:\tTabbed \r\n\r\n",
    b"No colon here\r\n: empty name\r\nBad Name: dropped\r\nOdd\x1cName: dropped too\r\n\r\n",
    "Caf\u00e9: non-ascii name\r\nValue: caf\u00e9 \xff\r\n".encode("latin-1"),
    b"Nats-Msg-Id: a\r\nNats-Msg-Id: b\r\n",  # the last one wins in both
    b"",
]


@pytest.mark.parametrize("raw", HEADERS)
def test_headers_read_as_nats_py_reads_them(raw):
    assert header_lines(raw) == Client._parse_header_lines(raw)


def test_stream_sequence_from_either_reply_form():
    v1 = SimpleNamespace(reply="$JS.ACK.CROUPIER_EVENTS.croupier-floor.1.417.12.1700000000000000000.3")
    v2 = SimpleNamespace(reply="$JS.ACK._.ACCHASH.CROUPIER_EVENTS.croupier-floor.1.418.12.1700000000000000000.3.tok")
    stand_in = SimpleNamespace(reply=None, metadata=SimpleNamespace(sequence=SimpleNamespace(stream=9)))
    assert [stream_seq(m) for m in (v1, v2)] == [Msg.Metadata._from_reply(m.reply).sequence.stream for m in (v1, v2)]
    assert (stream_seq(v1), stream_seq(v2), stream_seq(stand_in), stream_seq(SimpleNamespace(reply=""))) == (417, 418, 9, 0)


@pytest.mark.parametrize("body", ['{"x": NaN}', '{"x": "\\ud800"}'])
def test_a_body_jsonb_would_refuse_is_kept_as_text_only(body):
    """PostgreSQL's jsonb refuses these, which the standard json reads: the batch's COPY would fail."""
    from croupier.floor.pg_schema import typed

    assert typed("2026-01-01T00:00:00+00:00", body)[1] is None


def test_a_fetch_returns_what_the_stream_holds_without_waiting_for_the_batch_to_fill(tmp_path):
    """Also without waiting at all: a backlog whole, and nothing when nothing is there."""
    import asyncio

    from nats.js.api import AckPolicy, ConsumerConfig, StreamConfig

    from croupier.floor.broker import LocalBroker
    from croupier.floor.pull import Pull
    from croupier.floor.wire import close_quietly, connect

    async def scenario(url: str) -> tuple[int, int]:
        nc = await connect([url])
        try:
            js = nc.jetstream()
            await js.add_stream(StreamConfig(name="S", subjects=["s.>"]))
            await js.add_consumer("S", ConsumerConfig(durable_name="D", ack_policy=AckPolicy.EXPLICIT,
                                                      max_ack_pending=20000))
            for n in range(3):
                await js.publish("s.x", str(n).encode())
            pull = await Pull(nc, "S", "D").start()
            held = await asyncio.wait_for(pull.fetch(8000, 60.0), 20)  # a batch that never fills
            later = asyncio.create_task(pull.fetch(8000, 60.0))
            await asyncio.sleep(0.2)
            await js.publish("s.x", b"3")  # one that comes while a fetch waits
            came = await asyncio.wait_for(later, 20)
            for n in range(3000):  # more than the broker sends within a short expiry
                await js.publish("s.x", b"x" * 1000)
            now = await asyncio.wait_for(pull.fetch(8000, 0), 20)
            none = await asyncio.wait_for(pull.fetch(8000, 0), 20)
            return len(held), len(came), len(now), len(none)
        finally:
            await close_quietly(nc)

    with LocalBroker(tmp_path / "nats") as broker:
        assert asyncio.run(scenario(broker.url)) == (3, 1, 3000, 0)


def test_a_batch_answered_in_one_write_acknowledges_terminates_and_hands_back_each_message(tmp_path):
    """Every message answered: none left pending (a lost acknowledgement would be), the terminated one
    never offered again, the handed-back ones offered again; headers read as nats-py reads them."""
    import asyncio

    from nats.js.api import AckPolicy, ConsumerConfig, StreamConfig

    from croupier.floor.broker import LocalBroker
    from croupier.floor.pull import Pull
    from croupier.floor.wire import close_quietly, connect

    async def scenario(url: str):
        nc = await connect([url])
        try:
            js = nc.jetstream()
            await js.add_stream(StreamConfig(name="S", subjects=["s.>"]))
            await js.add_consumer("S", ConsumerConfig(durable_name="D", ack_policy=AckPolicy.EXPLICIT, ack_wait=30))
            for n in range(6):
                await js.publish("s.x", str(n).encode(), headers={"Nats-Msg-Id": f"m{n}", " Odd": " kept "})
            pull = await Pull(nc, "S", "D").start()
            first = await asyncio.wait_for(pull.fetch(4, 5.0), 20)
            headers = [(msg.headers, Client._parse_header_lines(b"Nats-Msg-Id: m%d\r\n Odd:  kept \r\n" % n))
                       for n, msg in enumerate(first)]
            await nc.acknowledge(first, terminate={id(first[1])})
            await nc.hand_back((await asyncio.wait_for(pull.fetch(2, 5.0), 20)))  # 4 and 5, offered again at once
            again = await asyncio.wait_for(pull.fetch(8, 5.0), 20)
            await nc.acknowledge(again)
            await nc.flush()
            for _ in range(50):  # the broker takes acknowledgements in on its own queue, after the flush's PONG
                info = await js.consumer_info("S", "D")
                if info.num_ack_pending == 0:
                    break
                await asyncio.sleep(0.1)
            return headers, [msg.data for msg in again], info
        finally:
            await close_quietly(nc)

    with LocalBroker(tmp_path / "nats") as broker:
        headers, again, info = asyncio.run(scenario(broker.url))
    assert all(got == expected for got, expected in headers)
    assert sorted(again) == [b"4", b"5"]  # the terminated message 1 is not among them
    assert (info.num_ack_pending, info.num_pending, info.ack_floor.stream_seq) == (0, 0, 6)
    assert info.num_redelivered == 0  # redelivered messages acknowledged no longer count


def test_a_message_without_a_reply_subject_gets_no_answer_in_the_batch():
    """Not a JetStream delivery (someone published to the inbox): nothing to answer, and no PUB
    without a subject, which the broker would refuse, in the batch's write."""
    import asyncio
    from types import SimpleNamespace

    from croupier.floor.client import client_class

    written: list[bytes] = []
    client = client_class()()
    client._send_command = lambda command: asyncio.sleep(0, written.append(command))
    client._flush_queue = None
    stray, delivered = SimpleNamespace(reply=""), SimpleNamespace(reply="$JS.ACK.S.D.1.7.7.1.0")
    asyncio.run(client.acknowledge([stray, delivered], terminate={id(stray)}))
    assert written == [b"PUB $JS.ACK.S.D.1.7.7.1.0 4\r\n+ACK\r\n"]


LINE_PARTS = st.sampled_from([b"Nats-Msg-Id", b" Nats-Msg-Id", b"Nats-Msg-Id ", b"nats-msg-id", b"X-Nats-Msg-Id",
                              b":", b": ", b"T7:12:0123456789abcdef", b" ", b"\t", b"\r", b"\n", b"\xff", b"Name"])


LINES = st.one_of(st.sampled_from([b"Nats-Msg-Id: T7:12:0123456789abcdef", b"Nats-Msg-Id: b", b" Nats-Msg-Id: c",
                                    b"Nats-Msg-Id:", b"Nats-Expected-Last-Subject-Sequence: 41"]),
                  st.lists(LINE_PARTS, max_size=5).map(b"".join))


@given(st.lists(LINES, max_size=5).map(b"\r\n".join), st.sampled_from([b"", b"\r\n", b"\r\n\r\n"]))
def test_the_message_id_read_alone_is_the_one_the_headers_give(block, end):
    """The ingester reads a message's id without its other headers: always the id they give."""
    from croupier.floor.client import HEADERS_AT, Delivered

    raw = b"NATS/1.0\r\n" + block + end
    expected = (header_lines(raw[HEADERS_AT:]) or {}).get("Nats-Msg-Id")
    assert Delivered(None, "s", "r", b"", raw).msg_id == expected


ROW_FIELDS = ("seq", "time", "kind", "body", "prev_hash", "hash", "mac", "after", "sig")
VALUES = st.one_of(st.integers(-3, 3), st.sampled_from(["", "5", "x", "2026-01-01T00:00:00+00:00"]), st.booleans(),
                   st.none(), st.floats(allow_nan=False, allow_infinity=False, width=16), st.just([]))


ROW = {"seq": 2, "time": "t", "kind": "k", "body": "{}", "prev_hash": "p", "hash": "h", "mac": "m", "after": 1, "sig": "s"}


@given(st.one_of(st.dictionaries(st.sampled_from(ROW_FIELDS + ("extra",)), VALUES),
                 st.fixed_dictionaries({name: st.one_of(st.just(value), VALUES) for name, value in ROW.items()})))
@example(ROW)
@example({**ROW, "seq": True})
@example({**ROW, "after": 1.0})
def test_a_row_is_read_as_each_of_its_fields_converted(record):
    """The ingester takes a row sent as a table sends it as it is: the same link as each field converted."""
    import json

    def converted():
        return Link(int(record["seq"]), str(record["time"]), str(record["kind"]), str(record["body"]),
                    str(record["prev_hash"]), str(record["hash"]), str(record["mac"]),
                    int(record.get("after", int(record["seq"]) - 1)), str(record.get("sig", "")))

    try:
        expected: Link | None = converted()
    except (ValueError, KeyError, TypeError):
        expected = None
    data = json.dumps(record).encode()
    if expected is None:
        with pytest.raises(WireError):
            Link.decode(data)
    else:
        got = Link.decode(data)
        assert (got, [type(getattr(got, name)) for name in ROW_FIELDS]) == (
            expected, [type(getattr(expected, name)) for name in ROW_FIELDS])
