"""The runner against hostile turn streams over a real socket: it plays every turn sent,
whatever the names in it, and a frame it cannot read never ends it.

A small stdlib HTTP server writes a turn stream the way the server does
(server/services/wire.py), in HTTP chunks cut at random places (so a CR and its
LF, or a UTF-8 character, may arrive apart), and answers each move with the game
over. Once, a name holding U+0085 cut a frame for ``requests.iter_lines`` and
the runner died.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
from http.server import ThreadingHTTPServer
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client_sdk import Bot, Client
from client_sdk.runner import Runner
from server.services import wire
from tests.sdk.stub_server import JsonHandler
from tests.sdk.test_sse import NAMES, cut


class FirstMove(Bot):
    def choose_move(self, view: dict) -> Any:
        return view["legal_moves"][0]


class TurnServer:
    """Serves ``streams`` (each a list of byte chunks) one per ``GET /v1/me/turns/stream``,
    then an empty stream; ``turns`` for ``GET /v1/me/turns``; records every move."""

    def __init__(self, streams: list[list[bytes]], turns: list[dict] | None = None) -> None:
        self.streams = list(streams)
        self.turns = turns or []
        self.moves: list[tuple[str, dict]] = []
        self.polls = 0
        outer = self

        class Handler(JsonHandler):
            def do_GET(self) -> None:
                if self.path.startswith("/v1/me/turns/stream"):
                    chunks = outer.streams.pop(0) if outer.streams else [b": heartbeat\n\n"]
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for chunk in chunks:  # one HTTP chunk each: the client reads them apart
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                elif self.path.startswith("/v1/me/turns"):
                    outer.polls += 1
                    turns, outer.turns = outer.turns, []
                    self._json({"turns": turns})
                else:  # a game's view: over
                    self._json({"status": "finished", "legal_moves": [], "result": None})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.moves.append((self.path.split("/")[3], body))
                self._json({"status": "finished", "legal_moves": [], "result": None})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def turn(game_id: str, names: list[str], version: int = 3) -> dict:
    seats = [{"player_id": f"p{i}", "name": n} for i, n in enumerate(names)]
    view = {"version": version, "status": "active", "seats": seats, "legal_moves": [{"n": names}]}
    return {"game_id": game_id, "seat": 0, "version": version, "view": view}


def run_until(runner: Runner, games: int, timeout: float = 20.0) -> None:
    """Run in a thread until ``games`` finished; fail if the runner died or hangs."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            runner.run()
        except BaseException as exc:  # noqa: BLE001 - reported below
            failure.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    runner.stop()
    thread.join(5)
    assert not failure, failure
    assert runner.stats.games_finished == games


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    names=st.lists(st.lists(NAMES, min_size=1, max_size=3), min_size=1, max_size=3),
    points=st.lists(st.integers(0, 1000), max_size=12),
    escaped=st.booleans(),
)
def test_the_runner_plays_every_turn_whatever_the_names(
    names: list[list[str]], points: list[int], escaped: bool
) -> None:
    turns = [turn(f"g{i}", seat_names) for i, seat_names in enumerate(names)]
    stream = b"retry: 2000\n\n"
    for one in turns:
        if escaped:  # as the server writes it now
            stream += wire.message(wire.dumps([one]), event="turns")
        else:  # as it did before: U+0085, U+2028, U+2029 raw
            stream += b"event: turns\ndata: " + orjson.dumps([one]) + b"\n\n"
        stream += b": heartbeat\n\n"
    server = TurnServer([cut(stream, points)])
    try:
        client = Client(server.url, "t", max_retries=0)
        runner = Runner(FirstMove(), client, wait=0.5, handle_signals=False, max_games=len(turns))
        run_until(runner, len(turns))
    finally:
        server.close()
    assert [(game, body["move"]) for game, body in server.moves] == [
        (t["game_id"], t["view"]["legal_moves"][0]) for t in turns
    ]
    assert runner.stats.bad_frames == 0


def test_a_frame_the_runner_cannot_read_is_logged_and_its_turns_long_polled(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hostile = ["v\x85isitor", "data: x", "x\u2028y"]
    bad = b'event: turns\ndata: [{"game_id": "g0", "view\n\n'  # cut: not JSON
    shapeless = wire.message(wire.dumps({"turns": "no"}), event="turns")  # JSON, not turns
    later = wire.message(wire.dumps([turn("g2", hostile)]), event="turns")
    server = TurnServer([[bad], [shapeless], [later]], turns=[turn("g0", hostile)])
    try:
        client = Client(server.url, "t", max_retries=0)
        runner = Runner(FirstMove(), client, wait=0.5, handle_signals=False, max_games=2)
        with caplog.at_level(logging.WARNING, "client_sdk.runner"):
            run_until(runner, 2)
    finally:
        server.close()
    assert [game for game, _ in server.moves] == ["g0", "g2"]
    assert runner.stats.bad_frames == 2 and server.polls == 2
    warned = [r.getMessage() for r in caplog.records if r.name == "client_sdk.runner"]
    assert any("not JSON" in w for w in warned) and any("another shape" in w for w in warned)


def test_a_stream_that_is_not_chunked_is_read_as_it_arrives() -> None:
    """Behind some proxies a stream is one body ended by closing the connection, not HTTP
    chunks: each message must still come out when it arrives, not at the end."""
    listener = socket.create_server(("127.0.0.1", 0))
    read_in_time: list[bool] = []
    first_read = threading.Event()

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
            conn.sendall(b'event: turns\r\ndata: ["v\xc2\x85isitor"]\r\n\r\n')
            read_in_time.append(first_read.wait(5))
            conn.sendall(b"event: over\ndata: {}\n\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        client = Client(f"http://127.0.0.1:{listener.getsockname()[1]}", "t", max_retries=0)
        stream = client.requestor.stream("/v1/me/turns/stream")
        assert next(stream) == {"event": "turns", "data": ["v\x85isitor"]}
        first_read.set()
        assert list(stream) == [{"event": "over", "data": {}}]
    finally:
        thread.join(5)
        listener.close()
    assert read_in_time == [True]
