"""A name could kill bots (an outside probe's finding).

orjson leaves U+0085, U+2028 and U+2029 unescaped, and the SDK split its stream
with ``str.splitlines``: a visitor named ``v\\x85isitor`` cut a turn frame in two,
the house bot's runner thread died and was never restarted, and every later
visitor game that needed that bot stalled at version 0. Here every hostile name
plays a whole visitor game against the real bot pool over a real socket; no bot
may stop, and a bot whose runner does die is started again.
"""

from __future__ import annotations

import logging
import random
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import requests

from client_sdk import Client, InvalidRequest
from client_sdk.runner import Runner
from server.processes.botpool import BotPool, BotSpec
from server.store import keys
from tests import typescript
from tests.api.helpers import Api
from tests.conftest import ADMIN_TOKEN, LiveServer

HOSTILE_NAMES = [
    "v\u0085isitor",
    "v\u2028isitor",
    "v\u2029isitor",
    "data: x",
    'q"uo\\te\\"\\\\',
    "x\u2028data: {}\u2029\u0085event: over\u0085\u0085x",
    "<" + "\u2029\u0085\u2028" * 12 + ">",
]
"""Names that split a line for ``str.splitlines`` or look like an SSE field (a name is
cut to 40 characters for a visitor; the parser's own tests use 10,000)."""


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """Streams that stay open, as in production (the security default ends them at once)."""
    return app_config | {"SSE_HEARTBEAT": 0.2, "SSE_MAX_SECONDS": 20.0}


@pytest.fixture
def pool(live_server: LiveServer) -> Iterator[BotPool]:
    """Three random house bots: every seat of a four-player visitor game but the visitor's."""
    running = BotPool(
        live_server.url, ADMIN_TOKEN, bots=[BotSpec("random", None)], seats=3, wait=0.5, seed=7
    )
    running.start(timeout=10)
    yield running
    running.stop(timeout=5)


def legacy_name(redis_client, game_id: str, seats: list[int], name: str) -> None:
    """Give ``seats`` of a game, and their players, ``name`` as stored before names were
    restricted. For names a rule on new names refuses: those already stored keep
    reaching the streams, which must carry them whole."""
    for seat in seats:
        entry = orjson.loads(redis_client.hget(keys.game_seats(game_id), str(seat)))
        entry["name"] = name
        redis_client.hset(keys.game_seats(game_id), str(seat), orjson.dumps(entry))
        redis_client.hset(keys.player(entry["player_id"]), "name", name)


def play_visitor(api: Api, made: dict, rng: random.Random, timeout: float = 30.0) -> dict:
    """Play the visitor's seat with random legal moves until the game is over; fail if the
    bots stop moving for ``timeout`` seconds."""
    game_id, token = made["game"]["id"], made["token"]
    last_progress, version = time.monotonic(), -1
    while True:
        view = api.view(game_id, token)
        if view["status"] == "finished":
            return view
        if view["version"] != version:
            last_progress, version = time.monotonic(), view["version"]
        assert time.monotonic() - last_progress < timeout, f"stalled at version {version}"
        if view["legal_moves"]:
            reply = api.move(game_id, token, rng.choice(view["legal_moves"]), view["version"])
            assert reply.status in (200, 409), reply.body
        else:
            time.sleep(0.05)


def test_hostile_visitor_names_play_whole_games_and_no_house_bot_stops(
    live_server: LiveServer, app, redis_client, pool: BotPool, caplog: pytest.LogCaptureFixture
) -> None:
    app.extensions["parlour"].visitors.configure(
        enabled=True, max_live=50, per_client=0, period=3600
    )
    api = Api(base_url=live_server.url)
    rng = random.Random(34)
    for name in HOSTILE_NAMES:
        body = {"game": "concerto", "options": {"deals": 1}, "name": name}
        made = api.post("/v1/visitors/games", body)
        if made.status == 400:  # a rule on names refuses it...
            made = api.post("/v1/visitors/games", body | {"name": "visitor"})
        assert made.status == 201, made.body
        if made.body["game"]["seats"][0]["name"] != name:  # ...or changes it: stored before
            legacy_name(redis_client, made.body["game"]["id"], [0], name)
        seats = api.view(made.body["game"]["id"])["seats"]
        assert seats[0]["name"] == name[:40]  # the name reached the bots' views as is
        final = play_visitor(api, made.body, rng)
        assert final["status"] == "finished", name
    # the repro of the issue, in Seconds: the game needs the same three bots again
    made = api.post("/v1/visitors/games", {"game": "seconds", "name": "v\u0085isitor"})
    if made.status == 400:  # names refuse control characters now: one stored before
        made = api.post("/v1/visitors/games", {"game": "seconds", "name": "visitor"})
        legacy_name(redis_client, made.body["game"]["id"], [0], "v\u0085isitor")
    assert made.status == 201, made.body
    assert api.get(f"/v1/games/{made.body['game']['id']}").body["version"] >= 0
    stopped = [r.getMessage() for r in caplog.records if "stopped" in r.getMessage()]
    assert stopped == []
    assert all(t.is_alive() for t in pool._threads)
    assert pool.moves > 0


def test_a_house_bot_whose_runner_dies_is_started_again(
    live_server: LiveServer,
    pool: BotPool,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A runner that raises (any bug, any frame) is logged and run again after a pause;
    the pool goes on playing its seats."""
    real_run = Runner.run
    failures: list[str] = []
    lock = threading.Lock()

    def fails_once_per_bot(self: Runner) -> Any:
        token = self.client.requestor.token or ""
        with lock:
            first = token not in failures
            if first:
                failures.append(token)
        if first:
            raise RuntimeError("a frame this runner could not read")
        return real_run(self)

    pool.stop(timeout=5)
    monkeypatch.setattr(Runner, "run", fails_once_per_bot)
    running = BotPool(
        live_server.url, ADMIN_TOKEN, bots=[BotSpec("random", None)], seats=3, wait=0.5, seed=8
    )
    running.start(timeout=10)
    try:
        api = Api(base_url=live_server.url)
        made = api.post("/v1/visitors/games", {"game": "concerto", "options": {"deals": 1}})
        assert made.status == 201, made.body
        assert play_visitor(api, made.body, random.Random(9), 15)["status"] == "finished"
    finally:
        running.stop(timeout=5)
    assert len(failures) == 3
    restarts = [r for r in caplog.records if r.name == "botpool" and "restarting" in r.message]
    assert len(restarts) == 3 and all(r.levelno == logging.WARNING for r in restarts)
    assert all(r.exc_info for r in restarts)  # the operator sees what failed


def test_the_visitor_name_reaches_the_bots_streams_escaped(
    live_server: LiveServer, app, redis_client, pool: BotPool
) -> None:
    """On the wire the bots' frames hold no raw U+0085/U+2028/U+2029: ``\\u0085`` etc."""
    app.extensions["parlour"].visitors.configure(
        enabled=True, max_live=50, per_client=0, period=3600
    )
    pool.stop(timeout=5)  # read a bot's stream ourselves, nobody moves
    tokens = {p["id"]: p["token"] for b in pool.register() for p in b["players"]}
    api = Api(base_url=live_server.url)
    hostile = "a\u0085b\u2028c\u2029d"
    made = api.post("/v1/visitors/games", {"game": "concerto", "name": hostile})
    if made.status == 400:  # names refuse control characters now: one stored before
        made = api.post("/v1/visitors/games", {"game": "concerto", "name": "visitor"})
        legacy_name(redis_client, made.body["game"]["id"], [0], hostile)
    assert made.status == 201, made.body
    game_id, guest = made.body["game"]["id"], made.body["token"]
    while (view := api.view(game_id, guest))["legal_moves"]:  # until a bot is to move
        assert api.move(game_id, guest, view["legal_moves"][0], view["version"]).status == 200
    bot = view["seats"][view["to_move"][0]]["player_id"]
    raw = b""
    with requests.get(
        f"{live_server.url}/v1/me/turns/stream",
        headers={"Authorization": f"Bearer {tokens[bot]}"},
        stream=True,
        timeout=10,
    ) as reply:
        for chunk in reply.iter_content(chunk_size=None):
            raw += chunk
            if b"a\\u0085b" in raw or b"\xc2\x85" in raw or len(raw) > 200_000:
                break
    assert b"a\\u0085b\\u2028c\\u2029d" in raw
    for bad in ("\u0085", "\u2028", "\u2029"):
        assert bad.encode() not in raw


def test_the_typescript_example_bot_plays_a_player_named_data_x(
    live_server: LiveServer, redis_client
) -> None:
    """The JavaScript example bot split a message at ``"data: "``: a name holding it cut
    every turn, and the bot reconnected for ever. Its successor, bots/examples/random_bot.ts
    on the TypeScript client, is held to the same: the name is in all four seats."""
    typescript.build()
    url = live_server.url
    name = "data: x\u2028\u0085"
    try:
        player = Client(url).players.register(name)
    except InvalidRequest:  # a rule on names refuses it: stored before the rule
        player = Client(url).players.register("js")
    client = Client(url, player["token"])
    game = client.games.create(
        "concerto", {"deals": 1}, [player["id"]] * 4, allow_multiple_seats=True
    )
    legacy_name(redis_client, game["id"], [0, 1, 2, 3], name)
    assert [s["name"] for s in client.games.view(game["id"])["seats"]] == [name] * 4
    proc = subprocess.run(
        ["node", str(typescript.EXAMPLE_BOT), "--server", url,
         "--token", player["token"], "--games", "1", "--wait", "1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    final = client.games.view(game["id"])
    assert final["status"] == "finished"
    assert f"{final['version']} moves, 1 games finished" in proc.stdout


def test_json_answers_escape_the_line_separators_too(client, redis_client) -> None:
    """Cheap insurance for embedders that put an answer into a page's script or a log line:
    the API's answers carry the same escapes as the streams, and decode to the same name."""
    hostile = "a\u0085b\u2028c\u2029d"
    made = client.post("/v1/players", json={"name": hostile})
    if made.status_code == 400:  # names refuse control characters now: one stored before
        made = client.post("/v1/players", json={"name": "ab"})
        redis_client.hset(keys.player(made.json["id"]), "name", hostile)
    assert made.status_code == 201
    me = client.get("/v1/players/me", headers={"Authorization": f"Bearer {made.json['token']}"})
    raw = me.get_data()
    assert b"a\\u0085b\\u2028c\\u2029d" in raw
    assert not any(c.encode() in raw for c in "\u0085\u2028\u2029")
    assert me.json["name"] == hostile
