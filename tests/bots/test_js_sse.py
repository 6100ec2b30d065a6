"""The TypeScript client's server-sent events reader, fuzzed under node like the SDK's.

``sseMessages`` of client_sdk/typescript (src/sse.ts, compiled) reads the turn stream
for the example bots and the tutorial's bot. The JavaScript examples before it split a
message at ``"data: "``, so an opponent named ``data: x`` cut every turn and the bot
reconnected for ever. One node process answers every example: it reads a case per
line (the stream's chunks, base64) and writes back the messages it parsed.
"""

from __future__ import annotations

import base64
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.services import wire
from tests import typescript
from tests.sdk.test_sse import EVENTS, PAYLOADS, cut

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorials" / "javascript-bot.md"
EXAMPLE = ROOT / "bots" / "examples" / "random_bot.ts"

HARNESS = """
import readline from "node:readline";
const { sseMessages } = await import(process.argv[2]);
async function* chunks(list) { for (const c of list) yield Buffer.from(c, "base64"); }
const rl = readline.createInterface({ input: process.stdin });
const queue = [];
let busy = false;
rl.on("line", (line) => { queue.push(line); drain(); });
async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const got = [];
    for await (const m of sseMessages(chunks(JSON.parse(queue.shift())))) {
      got.push(m.type === "comment" ? { event: "comment" } : { event: m.event, data: m.data });
    }
    process.stdout.write(JSON.stringify(got) + "\\n");
  }
  busy = false;
}
"""


class Node:
    """One node process running :data:`HARNESS` over the example's parser."""

    def __init__(self, tmp: Path) -> None:
        harness = tmp / "harness.mjs"
        harness.write_text(HARNESS, encoding="utf-8")
        self.proc = subprocess.Popen(
            ["node", str(harness), (typescript.PACKAGE / "dist" / "sse.js").as_uri()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def parse(self, chunks: list[bytes]) -> list[dict]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        line = json.dumps([base64.b64encode(c).decode() for c in chunks])
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, "node exited"
        return json.loads(answer)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)


@pytest.fixture(scope="module")
def node(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    typescript.build()
    running = Node(tmp_path_factory.mktemp("node"))
    yield running
    running.close()


def test_the_examples_read_streams_with_the_client() -> None:
    """No hand-written stream reader left to drift: the example bot and the tutorial's bot
    take their turns from the client's ``runBot`` (its ``TurnSource`` reads the stream)."""
    for text in (EXAMPLE.read_text(encoding="utf-8"), TUTORIAL.read_text(encoding="utf-8")):
        assert 'from "parlour-client"' in text and "runBot(" in text
        assert "sseMessages" not in text and 'split("data: ")' not in text


def test_the_spec_cases(node: Node) -> None:
    stream = (
        b": test stream\r\n\r\ndata: first\rid: 1\r\rdata:second\n\ndata:  third\n\n"
        b"event: turns\ndata: YHOO\ndata: +2\n\ndata: \xe2\x80\xa8 data: x \xc2\x85\n\ndata:"
    )
    expected = [
        {"event": "comment"},
        {"event": "message", "data": "first"},
        {"event": "message", "data": "second"},
        {"event": "message", "data": " third"},
        {"event": "turns", "data": "YHOO\n+2"},
        {"event": "message", "data": "\u2028 data: x \x85"},
    ]
    assert node.parse([stream]) == expected
    for size in (1, 2, 3, 7):  # every CR apart from its LF, every UTF-8 character cut
        assert node.parse([stream[i : i + size] for i in range(0, len(stream), size)]) == expected


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    frames=st.lists(st.tuples(EVENTS, PAYLOADS), min_size=1, max_size=3),
    points=st.lists(st.integers(0, 1000), max_size=20),
    escaped=st.booleans(),
)
def test_every_frame_decodes_to_the_json_sent(node: Node, frames, points, escaped: bool) -> None:
    stream = b"retry: 2000\n\n"
    for event, payload in frames:
        if escaped:  # as the server writes it
            stream += wire.message(wire.dumps(payload), event=event)
        else:  # as it did before: U+0085, U+2028, U+2029 raw
            stream += (f"event: {event}\n" if event else "").encode()
            stream += b"data: " + orjson.dumps(payload) + b"\n\n"
        stream += b": heartbeat\n\n"
    got = [m for m in node.parse(cut(stream, points)) if m["event"] != "comment"]
    assert [json.loads(m["data"]) for m in got] == [p for _, p in frames]
    assert [m["event"] for m in got] == [e or "message" for e, _ in frames]
