"""A callback bot for the tests: a tiny WSGI server in a thread, on a real socket.

It answers each call with ``behave(call)`` (status, body bytes, seconds to sleep
first); by default the first legal move of the seat's view. It keeps every call it
got (the body, and whether the signature verifies under the secret it was given),
so a test can count the calls per turn. Also: running a :class:`Dispatcher` in a
thread, the clock's timeouts in a thread (what the scheduler does), and creating
clocked games for callback players.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from werkzeug.serving import WSGIRequestHandler, make_server

from server.processes.dispatch import Dispatcher
from server.services.bundle import Services
from server.services.notifications import SIGNATURE_HEADER, verify

Behaviour = Callable[[dict[str, Any]], tuple[int, bytes, float]]


def first_legal(call: dict[str, Any]) -> tuple[int, bytes, float]:
    """A well-behaved bot: the first legal move, at once."""
    return 200, json.dumps({"move": call["view"]["legal_moves"][0]}).encode(), 0.0


@dataclass
class Bot:
    """One callback endpoint; ``secrets`` maps a player id to its callback secret."""

    behave: Behaviour = first_legal
    secrets: dict[str, str] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)
    bad_signatures: int = 0
    in_flight: int = 0
    port: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, host: str = "127.0.0.1", path: str = "/bot") -> str:
        return f"http://{host}:{self.port}{path}"

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        call = json.loads(raw)
        header = environ.get("HTTP_" + SIGNATURE_HEADER.upper().replace("-", "_"), "")
        signed = any(verify(s, header, raw) for s in self.secrets.values())
        with self.lock:
            self.calls.append(call | {"signed": signed, "host": environ.get("HTTP_HOST")})
            self.bad_signatures += not signed
            self.in_flight += 1
        try:
            status, body, sleep = self.behave(call)
            if sleep:
                time.sleep(sleep)
        finally:
            with self.lock:
                self.in_flight -= 1
        start_response(f"{status} X", [("Content-Type", "application/json")])
        return [body]

    def per_turn(self) -> Counter[tuple[str, int, int]]:
        """Calls per (game, version, seat)."""
        with self.lock:
            return Counter((c["game_id"], c["version"], c["seat"]) for c in self.calls)


class _Quiet(WSGIRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as a real bot host would

    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass


@contextmanager
def serving(bot: Bot, tls: tuple[str, str] | None = None) -> Iterator[Bot]:
    """The bot on a free port of 127.0.0.1 while the block runs (``tls``: over HTTPS
    with this certificate and key, PEM files)."""
    server = make_server(
        "127.0.0.1", 0, bot, threaded=True, request_handler=_Quiet, ssl_context=tls
    )
    bot.port = server.server_port
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield bot
    finally:
        server.shutdown()
        thread.join(5)


@contextmanager
def dispatching(dispatcher: Dispatcher) -> Iterator[Dispatcher]:
    """``dispatcher.run`` in a thread while the block runs."""
    stop = threading.Event()
    thread = threading.Thread(target=dispatcher.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield dispatcher
    finally:
        stop.set()
        thread.join(10)
        dispatcher.close()


@contextmanager
def clock_running(svc: Services) -> Iterator[None]:
    """The scheduler's clock duty in a thread: each due game's timeouts applied."""
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            for game_id in svc.clocks.due(time.time()):
                while svc.clocks.timeout(game_id) == "default_move":
                    pass
            stop.wait(0.02)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)


def clocked_game(
    svc: Services, seats: list[str], move_seconds: float, game: str = "cowpoke"
) -> str:
    """A clocked game (default move on a timeout) of ``seats``, started at once."""
    game_id = secrets.token_hex(8)
    options = {"players": len(seats), "hands": 1} if game == "cowpoke" else {"deals": 1}
    svc.games.create_tournament_game(
        game_id=game_id,
        game=game,
        options=options,
        seats=seats,
        seed=None,
        clock={"move_seconds": move_seconds, "timeout_policy": {"kind": "default_move"}},
        tournament={"id": None, "consent": {"kind": "test", "players": sorted(set(seats))}},
    )
    return game_id


def wait_for(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"{what}: not after {timeout} s")
