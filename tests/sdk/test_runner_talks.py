"""The runner on a ladder says what happens, and stops at once after its last game.

A small stdlib HTTP server plays the Parlour side over a real socket: it seats the
runner's bot in one ladder game, answers its move with the game still on, then tells
the turn stream the game is over (another seat made the last move) and keeps the
stream open, as the server does until its next heartbeat (up to 15 s). The runner,
told to play one game, must be out within a second, having said: joined the ladder,
the game's result with its rating change, left the ladder. Once, it read on until
the next heartbeat (19 s) and said nothing without ``--verbose``.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from http.server import ThreadingHTTPServer
from typing import Any

import orjson

from client_sdk import Bot, Client
from client_sdk.runner import Runner
from server.services import wire
from tests.sdk.stub_server import JsonHandler

HELD = 8.0
"""Seconds the stream stays open after saying the game is over."""


class FirstMove(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.hooks: list[str] = []

    def choose_move(self, view: dict) -> Any:
        return view["legal_moves"][0]

    def on_game_start(self, view: dict) -> None:
        self.hooks.append(f"start {view['status']}")

    def on_game_over(self, view: dict) -> None:
        self.hooks.append(f"over {view['status']}")


TURN = {
    "game_id": "g1",
    "seat": 0,
    "version": 3,
    "view": {"version": 3, "status": "active", "you": 0, "legal_moves": [{"card": "AS"}]},
}
FINISHED = {"status": "finished", "you": 0, "legal_moves": [], "result": {
    "termination": "normal", "scores": [3, 7, 3, 7], "winners": [1, 3]}}  # fmt: skip
HISTORY = [
    {"games": [{"game_id": "g1"}], "outcome": "lost", "rating": {"ordinal": 1.25}},
    {"games": [{"game_id": "g0"}], "outcome": "won", "rating": {"ordinal": 2.0}},
]


class LadderServer:
    def __init__(self) -> None:
        self.calls: list[str] = []
        outer = self

        class Handler(JsonHandler):
            def do_GET(self) -> None:
                outer.calls.append(f"GET {self.path}")
                if self.path.startswith("/v1/me/turns/stream"):
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for chunk in (
                        wire.message(wire.dumps([TURN]), event="turns"),
                        wire.message(orjson.dumps({"game_id": "g1"}), event="over"),
                    ):
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                        time.sleep(0.2)
                    time.sleep(HELD)  # no heartbeat for a while
                    self.wfile.write(b"0\r\n\r\n")
                elif self.path.startswith("/v1/ladders/L1/entries/p0"):
                    self._json({"player_id": "p0", "history": HISTORY})
                else:  # the game's view: over
                    self._json(FINISHED)

            def do_POST(self) -> None:
                outer.calls.append(f"POST {self.path}")
                self.rfile.read(int(self.headers["Content-Length"]))
                if self.path.startswith("/v1/ladders/L1/entries"):
                    self._json({"player_id": "p0", "name": "ann", "status": "away"})
                else:  # the move: the game goes on, someone else ends it
                    self._json(TURN["view"] | {"version": 4, "legal_moves": []})

            def do_DELETE(self) -> None:
                outer.calls.append(f"DELETE {self.path}")
                self._json({"ladder_id": "L1", "player_id": "p0", "left": True})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_the_runner_says_what_happens_and_leaves_at_once_after_its_last_game(caplog):
    server = LadderServer()
    caplog.set_level(logging.INFO, logger="client_sdk.progress")
    try:
        bot = FirstMove()
        with Client(server.url, "p0.secret") as client:
            runner = Runner(bot, client, ladder="L1", max_games=1, wait=20.0, handle_signals=False)
            began = time.monotonic()
            stats = runner.run()
            took = time.monotonic() - began
    finally:
        server.close()
    assert stats.games_finished == 1 and stats.moves == 1
    assert bot.hooks == ["start active", "over finished"]  # each hook once (runner.Decider)
    assert took < 2.0, f"{took:.1f} s: read on after its last game"
    assert any(c.startswith("DELETE /v1/ladders/L1/entries") for c in server.calls)
    lines = [r.getMessage() for r in caplog.records if r.name == "client_sdk.progress"]
    assert lines == [
        "joined ladder L1 as ann",  # "away" until it asks for turns: not said
        "game g1 finished: lost (scores 3 · 7 · 3 · 7); contest lost, rating 2.00 -> 1.25 (-0.75)",
        "left ladder L1 after 1 games finished",
    ], json.dumps(lines)
