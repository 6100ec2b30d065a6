"""The SDK's server-sent events parser (client_sdk/sse.py) against the spec, and fuzzed.

The spec is WHATWG HTML, "9.2 Server-sent events", section "Interpreting an event
stream" and its examples. The fuzz builds streams the way the server does
(server/services/wire.py) from JSON holding every character some reader takes
for a line end, SSE field names, quotes and 10,000-character strings, cuts them
at random places, and checks that every message decodes to the JSON sent, with
and without the server's escaping (an older server wrote U+2028 raw).
"""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client_sdk.sse import Message, SseParser, parse
from server.services import wire

LINE_SEPARATORS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character ``str.splitlines`` ends a line at."""


def datas(stream: bytes, chunk_size: int | None = None) -> list[str]:
    return [m.data for m in parse(stream, chunk_size)]


# -- the spec's examples and rules -----------------------------------------------------
def test_data_lines_are_joined_with_line_feeds() -> None:
    assert datas(b"data: YHOO\ndata: +2\ndata: 10\n\n") == ["YHOO\n+2\n10"]


def test_comments_ids_and_one_space_dropped() -> None:
    stream = (
        b": test stream\n\ndata: first event\nid: 1\n\n"
        b"data:second event\nid\n\ndata:  third event\n\n"
    )
    got = parse(stream)
    assert [(m.data, m.id) for m in got] == [
        ("first event", "1"),
        ("second event", ""),  # an empty id field resets the last event id
        (" third event", ""),  # only one space is dropped
    ]


def test_empty_data_and_an_unfinished_message() -> None:
    # the last message has no blank line after it: it is dropped
    assert datas(b"data\n\ndata\ndata\n\ndata:") == ["", "\n"]


def test_a_space_after_the_colon_is_optional() -> None:
    assert datas(b"data:test\n\ndata: test\n\n") == ["test", "test"]


@pytest.mark.parametrize("end", [b"\n", b"\r", b"\r\n"])
def test_every_line_end_of_the_spec_ends_a_line(end: bytes) -> None:
    stream = end.join([b"event: turns", b"id: 4", b"data: a", b"data: b", b"", b""])
    assert parse(stream) == [Message("turns", "a\nb", "4", None)]


def test_mixed_line_ends_and_a_cr_lf_split_between_chunks() -> None:
    stream = b"data: a\r\ndata: b\rdata: c\n\r\n" + b"data: d\r\r"
    whole = parse(stream)
    assert [m.data for m in whole] == ["a\nb\nc", "d"]
    for size in range(1, len(stream) + 1):  # every cut, a CR and its LF apart included
        assert parse(stream, size) == whole, size
    parser = SseParser()
    assert parser.feed(b"data: x\r") == []
    assert parser.feed(b"\n") == []  # the LF of that CR, not a blank line
    assert parser.feed(b"\r") == [Message("message", "x", "", None)]


def test_only_cr_and_lf_end_lines() -> None:
    for char in LINE_SEPARATORS.replace("\n", "").replace("\r", ""):
        data = f"a{char}b{char}data: c"
        assert datas(f"data: {data}\n\n".encode()) == [data], repr(char)


def test_event_retry_bom_nul_in_id_and_unknown_fields() -> None:
    stream = (
        b"\xef\xbb\xbfretry: 1500\nevent: over\nfoo: bar\ndata: 1\n\n"
        b"retry: 2x\nid: 3\0\ndata: 2\n\n"
        b"event\ndata\n\n"
    )
    assert parse(stream) == [
        Message("over", "1", "", 1500),
        Message("message", "2", "", 1500),  # an id holding NUL is ignored, "2x" too
        Message("message", "", "", 1500),  # an empty event name is the default
    ]
    for size in (1, 2, 3):  # the BOM cut in pieces is still skipped
        assert parse(stream, size) == parse(stream)


def test_the_last_event_id_carries_over_and_comments_are_counted() -> None:
    parser = SseParser()
    got = parser.feed(b"id: 9\ndata: a\n\n: heartbeat\n\ndata: b\n\n")
    assert [(m.data, m.id) for m in got] == [("a", "9"), ("b", "9")]
    assert parser.comments == 1 and parser.last_event_id == "9"


def test_bytes_that_are_not_utf8_become_replacement_characters() -> None:
    assert datas(b"data: a\xffb\n\n") == ["a\ufffdb"]


def test_a_message_without_data_is_not_dispatched() -> None:
    assert parse(b"event: turns\nid: 1\n\n") == []


# -- the fuzz ---------------------------------------------------------------------------
HOSTILE = st.sampled_from(
    [*LINE_SEPARATORS, "data:", "data: ", "event: over", "id:", ":", '"', "\\", "\\u2028", " "]
)
TEXT = st.text(max_size=8)
NAMES = st.one_of(
    st.lists(st.one_of(HOSTILE, TEXT), max_size=12).map("".join),
    st.tuples(HOSTILE, st.integers(1, 10_000)).map(lambda p: p[0] * (10_000 // len(p[0]))),
)
PAYLOADS = st.lists(
    st.fixed_dictionaries(
        {
            "game_id": st.text(max_size=10),
            "view": st.fixed_dictionaries(
                {"seats": st.lists(st.fixed_dictionaries({"name": NAMES}), max_size=3)}
            ),
        }
    ),
    min_size=1,
    max_size=3,
)
EVENTS = st.sampled_from(["turns", "over", "invitation", None])


def cut(stream: bytes, points: list[int]) -> list[bytes]:
    """``stream`` in pieces, cut at ``points`` (fractions of its length, in thousandths)."""
    at = sorted({len(stream) * p // 1000 for p in points} | {0, len(stream)})
    return [stream[a:b] for a, b in zip(at, at[1:], strict=False)]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    frames=st.lists(st.tuples(EVENTS, PAYLOADS), min_size=1, max_size=3),
    points=st.lists(st.integers(0, 1000), max_size=20),
    escaped=st.booleans(),
)
def test_every_frame_decodes_to_the_json_sent(frames, points, escaped: bool) -> None:
    stream = b"retry: 2000\n\n"
    for i, (event, payload) in enumerate(frames):
        if escaped:  # as the server writes it
            stream += wire.message(wire.dumps(payload), event=event, id=None if event else i)
        else:  # as the server did before: U+0085, U+2028, U+2029 raw
            head = f"event: {event}\n" if event else f"id: {i}\n"
            stream += head.encode() + b"data: " + orjson.dumps(payload) + b"\n\n"
        stream += b": heartbeat\n\n"
    if escaped:
        assert not any(c.encode() in stream for c in "\x85\u2028\u2029")
    parser = SseParser()
    got = [m for piece in cut(stream, points) for m in parser.feed(piece)]
    assert [json.loads(m.data) for m in got] == [p for _, p in frames]
    assert [m.event for m in got] == [e or "message" for e, _ in frames]
    assert parser.comments == len(frames)
