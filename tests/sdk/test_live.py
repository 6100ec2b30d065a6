"""The SDK, the runner and the bots against the real Parlour server over a real socket.

Uses ``tests/conftest.py``: ``live_server`` (the app in a werkzeug thread),
``app_config`` and ``redis_client`` (a real Redis, flushed per test). Every
player is registered through the SDK itself.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from bots.concerto_greedy import GreedyBot
from bots.concerto_signals import SignalsBot
from client_sdk import Bot, Client, RunStats, run
from client_sdk.cli import add_bot_commands
from client_sdk.errors import (
    AlreadySeated,
    Forbidden,
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidRequest,
    NoOpenSeat,
    NotFound,
    NotYourTurn,
    SeatTaken,
    StaleVersion,
    Unauthorized,
)
from client_sdk.types import Event, EventsPage, NewPlayer, Replay, Turn, View
from server.api import create_app
from tests import typescript
from tests.conftest import ADMIN_TOKEN

ROOT = Path(__file__).resolve().parents[2]
SHORT = {"deals": 1, "target": 10000}  # one deal: about 50 moves


def register(url: str, name: str) -> NewPlayer:
    return Client(url).players.register(name)


def assert_shape(typed: Any, obj: dict) -> None:
    """The response has every required key of the TypedDict and no unknown key."""
    assert typed.__required_keys__ <= obj.keys(), typed.__required_keys__ - obj.keys()
    assert obj.keys() <= typed.__required_keys__ | typed.__optional_keys__


class Runners:
    """One runner thread per (bot, token); each with its own Client (one session each)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.threads: list[threading.Thread] = []
        self.stats: list[RunStats | None] = []
        self.errors: list[BaseException] = []

    def start(self, bot: Bot, token: str, **options: Any) -> None:
        index = len(self.stats)
        self.stats.append(None)
        options = {"wait": 1.0, "max_games": 1, "recheck_every": 0.5, "handle_signals": False,
                   "max_outage_pause": 0.5} | options  # fmt: skip

        def target() -> None:
            try:
                with Client(self.url, token, backoff=0.1) as client:
                    self.stats[index] = run(bot, client, **options)
            except BaseException as exc:  # reported by join()
                self.errors.append(exc)

        thread = threading.Thread(target=target, daemon=True)
        self.threads.append(thread)
        thread.start()

    def join(self, timeout: float = 90) -> list[RunStats]:
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(0.1, deadline - time.monotonic()))
        assert not self.errors, self.errors
        assert not any(t.is_alive() for t in self.threads), "a runner did not finish"
        return [s for s in self.stats if s is not None]


def seated_game(url: str, bots: list[Bot], options: dict | None = None) -> tuple[str, list[str]]:
    """Register one player per bot, seat them in a new Concerto game; return id and tokens."""
    players = [register(url, f"{bot.name}{i}") for i, bot in enumerate(bots)]
    creator = Client(url, ADMIN_TOKEN)  # the admin seats players without invitations
    view = creator.games.create("concerto", options or {}, [p["id"] for p in players])
    assert view["status"] == "active"
    return view["id"], [p["token"] for p in players]


# -- a full game --------------------------------------------------------------------


@pytest.mark.parametrize("push", [True, False], ids=["turn-stream", "long-poll"])
def test_four_sdk_bots_play_a_full_game(live_server, push: bool) -> None:
    """Pushed turns (the default) and the long-poll fallback: the same game, nothing lost."""
    url = live_server.url
    bots: list[Bot] = [SignalsBot(), GreedyBot(), SignalsBot(), GreedyBot()]
    game_id, tokens = seated_game(url, bots)  # the default game: up to 4 deals, target 100
    watcher = Client(url, tokens[0])
    (turn,) = [t for token in tokens for t in Client(url, token).turns.wait(0)["turns"]]
    assert_shape(Turn, turn)
    assert_shape(View, turn["view"])

    runners = Runners(url)
    for bot, token in zip(bots, tokens, strict=True):
        runners.start(bot, token, push=push)
    stats = runners.join()

    final = watcher.games.view(game_id)
    assert_shape(View, final)
    assert final["status"] == "finished" and final["result"] is not None
    assert [s.games_finished for s in stats] == [1, 1, 1, 1]
    assert [list(s.finished_games) for s in stats] == [[game_id]] * 4
    assert sum(s.illegal_moves for s in stats) == 0
    # every accepted action is one move of one runner: none lost, none applied twice
    assert sum(s.moves for s in stats) == final["version"]
    page = watcher.games.events(game_id, after=0)
    assert_shape(EventsPage, page)
    for event in page["events"]:
        assert_shape(Event, event)
    replay = watcher.games.replay(game_id)
    assert_shape(Replay, replay)
    assert replay["revealed"] is not None


def test_a_409_makes_the_runner_re_read_the_view(live_server, caplog) -> None:
    """Someone else (here the same player's second client) moves first: 409, re-read, go on,
    quietly: a stale version is normal racing, logged at DEBUG only (a bot pool playing
    several seats of a Cowpoke game meets dozens)."""
    caplog.set_level(logging.DEBUG, logger="client_sdk.runner")
    url = live_server.url
    player = register(url, "solo")
    creator = Client(url, player["token"])
    game = creator.games.create("concerto", SHORT, [player["id"]] * 4, allow_multiple_seats=True)

    class Sneaky(GreedyBot):
        def __init__(self) -> None:
            super().__init__()
            self.other = Client(url, player["token"])
            self.sneaked = 0

        def choose_move(self, view: View) -> dict:
            move = super().choose_move(view)
            others = [m for m in view["legal_moves"] if m != move]
            if self.sneaked < 3 and others:
                self.other.games.move(view["id"], others[0], version=view["version"],
                                      seat=view["you"])  # fmt: skip
                self.sneaked += 1
            return move

    bot = Sneaky()
    runners = Runners(url)
    runners.start(bot, player["token"])
    (stats,) = runners.join()
    assert bot.sneaked == 3
    assert stats.conflicts == 3
    said = [r for r in caplog.records if "re-reading the view" in r.getMessage()]
    assert len(said) == 3 and {r.levelno for r in said} == {logging.DEBUG}
    assert stats.games_finished == 1 and stats.illegal_moves == 0
    assert creator.games.view(game["id"])["status"] == "finished"


# -- every typed error, raised by the real server --------------------------------------


def test_each_typed_exception_for_its_documented_error(live_server) -> None:
    url = live_server.url
    ann, bob, cat, dan, eve = (register(url, n) for n in ("ann", "bob", "cat", "dan", "eve"))
    a, b, e = (Client(url, p["token"]) for p in (ann, bob, eve))

    with pytest.raises(Unauthorized):
        Client(url, "nobody.nothing").players.me()
    with pytest.raises(InvalidRequest) as caught:
        a.games.create("concerto", {"deals": "four"})
    assert "options" in caught.value.details
    with pytest.raises(NotFound):
        a.games.view("no-such-game")

    waiting = a.games.create("concerto", SHORT, [ann["id"], None, None, None])
    with pytest.raises(GameNotStarted):
        a.games.move(waiting["id"], {"type": "play", "card": "AS"})
    with pytest.raises(AlreadySeated):
        a.games.join(waiting["id"])
    with pytest.raises(SeatTaken):
        b.games.join(waiting["id"], seat=0)
    b.games.join(waiting["id"])
    Client(url, cat["token"]).games.join(waiting["id"])
    Client(url, dan["token"]).games.join(waiting["id"])
    with pytest.raises(NoOpenSeat):
        e.games.join(waiting["id"])

    game_id = waiting["id"]
    clients = {0: a, 1: b, 2: Client(url, cat["token"]), 3: Client(url, dan["token"])}
    to_move = a.games.view(game_id)["to_move"][0]
    mover, idle = clients[to_move], clients[(to_move + 1) % 4]

    with pytest.raises(Forbidden):
        e.games.move(game_id, {"type": "pass"})
    with pytest.raises(NotYourTurn):
        idle.games.move(game_id, {"type": "pass"})
    mover_view = mover.games.view(game_id)
    not_mine = next(c for c in view_all_cards() if c not in mover_view["hand"])
    with pytest.raises(IllegalMove) as caught:
        mover.games.move(game_id, {"type": "play", "card": not_mine},
                         version=mover_view["version"])  # fmt: skip
    assert caught.value.legal_moves == mover_view["legal_moves"]
    with pytest.raises(StaleVersion):
        mover.games.move(game_id, mover_view["legal_moves"][0], version=mover_view["version"] + 5)
    # the same move and version twice: the second answer is the view, not an error
    after = mover.games.move(game_id, mover_view["legal_moves"][0], version=mover_view["version"])
    again = mover.games.move(game_id, mover_view["legal_moves"][0], version=mover_view["version"])
    assert again["version"] == after["version"] == mover_view["version"] + 1


def view_all_cards() -> list[str]:
    return [r + s for s in "SHDC" for r in "AKQJT98765432"]


def test_game_over_is_raised_after_the_end(live_server) -> None:
    url = live_server.url
    player = register(url, "solo")
    client = Client(url, player["token"])
    game = client.games.create("concerto", SHORT, [player["id"]] * 4, allow_multiple_seats=True)
    while True:
        turns = client.turns.wait(0)["turns"]
        if not turns:
            break
        turn = turns[0]
        client.games.move(turn["game_id"], turn["view"]["legal_moves"][0],
                          version=turn["version"], seat=turn["seat"])  # fmt: skip
    assert client.games.view(game["id"])["status"] == "finished"
    with pytest.raises(GameOver):
        client.games.move(game["id"], {"type": "pass"}, seat=0)


# -- restarts and dropped connections ------------------------------------------------


class RestartableServer:
    """The real app behind a werkzeug server on a fixed port, which can be restarted."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        # A fresh app each time, as a restarted process would build: only Redis persists.
        self.server = make_server("127.0.0.1", self.port, create_app(self.config), threaded=True)
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


@pytest.fixture
def restartable(app, app_config) -> Iterator[RestartableServer]:
    server = RestartableServer(app_config)
    yield server
    server.stop()


def test_runners_finish_a_game_while_the_server_restarts(restartable) -> None:
    url = restartable.url
    bots: list[Bot] = [GreedyBot(), SignalsBot(), GreedyBot(), SignalsBot()]
    game_id, tokens = seated_game(url, bots, SHORT)
    runners = Runners(url)
    for bot, token in zip(bots, tokens, strict=True):
        runners.start(bot, token)

    watcher = Client(url, tokens[0])
    deadline = time.monotonic() + 30
    while watcher.games.view(game_id)["version"] < 15:
        assert time.monotonic() < deadline, "the game did not start moving"
        time.sleep(0.05)
    assert watcher.games.view(game_id)["status"] == "active"
    restartable.stop()  # mid-game: every runner now gets refused connections
    time.sleep(2.0)
    restartable.start()

    stats = runners.join()
    final = watcher.games.view(game_id)
    assert final["status"] == "finished"
    assert [s.games_finished for s in stats] == [1, 1, 1, 1]
    assert sum(s.outages for s in stats) >= 1, "the restart went unnoticed"
    assert sum(s.moves for s in stats) == final["version"]  # no turn lost, none doubled
    assert sum(s.illegal_moves for s in stats) == 0


# -- the command line ---------------------------------------------------------------


def _env() -> dict[str, str]:
    return os.environ | {"PYTHONPATH": str(ROOT)}


def test_register_prints_a_token_that_works(live_server, capsys) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="parlour")
    add_bot_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bot", "register", "--server", live_server.url, "--name", "zed"])
    assert args.func(args) == 0
    token = capsys.readouterr().out.strip()
    assert Client(live_server.url, token).players.me()["name"] == "zed"


def test_python_m_bots_play_a_game_as_separate_processes(live_server) -> None:
    url = live_server.url
    names = ["concerto_signals", "uniform", "concerto_signals", "concerto_greedy"]  # modules
    players = [register(url, n) for n in names]
    Client(url, ADMIN_TOKEN).games.create("concerto", SHORT, [p["id"] for p in players])
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                f"bots.{name}",
                "--server",
                url,
                "--token",
                p["token"],
                "--games",
                "1",
                "--wait",
                "1",
            ],
            cwd=ROOT,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for name, p in zip(names, players, strict=True)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=90)
        assert proc.returncode == 0, err
        assert "1 games finished" in out and "0 illegal" in out


def test_sigterm_stops_a_waiting_bot_at_once(live_server) -> None:
    player = register(live_server.url, "idle")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bots.uniform", "--server", live_server.url,
         "--token", player["token"], "--wait", "4"],
        cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    time.sleep(1.5)  # imported, and waiting in GET /v1/me/turns
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert time.monotonic() - started < 2.5, "it waited for the long-poll to end"
    assert "0 moves" in out


def test_ctrl_c_during_a_move_finishes_the_move_and_stops(live_server) -> None:
    """The runner runs in this (main) thread with its own SIGINT handler installed."""
    url = live_server.url
    player = register(url, "solo")
    client = Client(url, player["token"])
    game = client.games.create("concerto", SHORT, [player["id"]] * 4, allow_multiple_seats=True)

    class Interrupted(GreedyBot):
        calls = 0

        def choose_move(self, view: View) -> dict:
            self.calls += 1
            if self.calls == 3:
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while this move is in hand
            return super().choose_move(view)

    before = signal.getsignal(signal.SIGINT)
    stats = run(Interrupted(), Client(url, player["token"]), wait=1.0)
    assert stats.moves == 3  # the third move was still sent...
    assert client.games.view(game["id"])["version"] == 3  # ...and nothing after it
    assert signal.getsignal(signal.SIGINT) is before  # the runner put the old handler back


def test_the_typescript_bot_plays_a_whole_game(live_server) -> None:
    """bots/examples/random_bot.ts, compiled, holds all four seats of one game to the end."""
    typescript.build()
    url = live_server.url
    player = register(url, "js")
    client = Client(url, player["token"])
    game = client.games.create("concerto", SHORT, [player["id"]] * 4, allow_multiple_seats=True)
    proc = subprocess.run(
        ["node", str(typescript.EXAMPLE_BOT), "--server", url,
         "--token", player["token"], "--games", "1", "--wait", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    final = client.games.view(game["id"])
    assert final["status"] == "finished"
    assert f"{final['version']} moves, 1 games finished" in proc.stdout


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="needs curl, jq")
def test_the_curl_walk_through_plays_one_move(live_server) -> None:
    proc = subprocess.run(
        ["bash", str(ROOT / "bots" / "examples" / "one_move.sh")],
        env=os.environ | {"SERVER": live_server.url}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "now version 1" in lines[3]
    assert lines[4] == "sent again: version 1 (not applied twice)"
    assert lines[5] == '{"stale":"stale_version"}'


# -- the server-sent events stream ----------------------------------------------------


def test_the_stream_resumes_after_a_drop_without_loss_or_repeat(live_server) -> None:
    """Through the SDK: read part of a seat's stream, drop it, resume from the last id.

    What the two connections deliver together must be exactly what the
    long-poll feed gives the same seat: the same events, in order, once each.
    """
    url = live_server.url
    bots: list[Bot] = [GreedyBot(), GreedyBot(), GreedyBot(), GreedyBot()]
    game_id, tokens = seated_game(url, bots, {"deals": 1})
    runners = Runners(url)
    for bot, token in zip(bots, tokens, strict=True):
        runners.start(bot, token)
    runners.join()

    seat0 = Client(url, tokens[0])
    expected = seat0.games.events(game_id, after=0)["events"]
    assert len(expected) > 20

    stream = seat0.games.stream(game_id)
    first = [next(stream) for _ in range(7)]
    stream.close()  # the connection drops mid-game-record
    rest = list(seat0.games.stream(game_id, last_event_id=first[-1]["id"]))

    assert rest[-1]["event"] == "end" and rest[-1]["data"] == {"status": "finished"}
    delivered = [e["data"] for e in first + rest[:-1]]
    assert delivered == expected
    assert [int(e["id"]) for e in first + rest[:-1]] == [e["seq"] for e in expected]


def without_turn_streams(app: Any) -> Any:
    """The app as a server from before turn streams answers: 404 on that route."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        if environ["PATH_INFO"] == "/v1/me/turns/stream":
            start_response("404 NOT FOUND", [("Content-Type", "application/json")])
            return [b'{"error": {"code": "not_found", "message": "no such route"}}']
        return app(environ, start_response)

    return wsgi


def test_runners_fall_back_to_the_long_poll_without_turn_streams(app) -> None:
    server = make_server("127.0.0.1", 0, without_turn_streams(app), threaded=True)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        bots: list[Bot] = [GreedyBot(), SignalsBot(), GreedyBot(), SignalsBot()]
        game_id, tokens = seated_game(url, bots, SHORT)
        runners = Runners(url)
        for bot, token in zip(bots, tokens, strict=True):
            runners.start(bot, token)  # push=True by default: the stream is tried first
        stats = runners.join()
        final = Client(url, tokens[0]).games.view(game_id)
        assert final["status"] == "finished"
        assert sum(s.moves for s in stats) == final["version"]
    finally:
        server.shutdown()
        thread.join(5)
