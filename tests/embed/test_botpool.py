"""The server's bot pool: ``"bot:<name>"`` seats are filled, and those bots really play.

The pool is the real one (:class:`server.processes.botpool.BotPool`), talking HTTP to a
live server like any outside bot; a guest plays the open seat over HTTP too.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from server.processes.botpool import BotPool, BotSpec
from tests.api.helpers import Api
from tests.conftest import ADMIN_TOKEN
from tests.embed.conftest import app_game, make_app


@pytest.fixture
def pool(live_server) -> Iterator[BotPool]:
    bots = [BotSpec("concerto_signals", ("concerto",)), BotSpec("random", None)]
    running = BotPool(live_server.url, ADMIN_TOKEN, bots=bots, seats=2, wait=0.5, seed=5)
    running.start(timeout=10)
    yield running
    running.stop()


def play_guest(
    api: Api, game_id: str, token: str, rng: random.Random, timeout: float = 60.0
) -> dict:
    """Play the guest's seat with random legal moves until the game is over."""
    deadline = time.monotonic() + timeout
    last = 0
    while time.monotonic() < deadline:
        view = api.view(game_id, token)
        if view["status"] == "finished":
            return view
        if view["legal_moves"]:
            reply = api.move(game_id, token, rng.choice(view["legal_moves"]), view["version"])
            assert reply.status in (200, 409), reply.body
            continue
        page = api.get(f"/v1/games/{game_id}/events", token, after=last, wait=2).body
        last = page["last"]
    raise AssertionError("the game did not finish")


def test_bot_seats_are_filled_by_the_pool_and_its_bots_move(live_api, pool):
    api = live_api
    listed = api.get("/v1/bots").body["bots"]
    assert {(b["name"], b["seats"]) for b in listed} == {("concerto_signals", 2), ("random", 2)}
    made = app_game(
        api, make_app(api), [None, "bot:concerto_signals", "bot:random", "bot:concerto_signals"]
    )
    seats = made["game"]["seats"]
    bot_ids = [s["player_id"] for s in seats[1:]]
    assert len(set(bot_ids)) == 3 and all(p.startswith("bot") for p in bot_ids)
    assert [i["seat"] for i in made["invitations"]] == [0]

    final = play_guest(api, made["game"]["id"], made["invitations"][0]["token"], random.Random(8))
    assert final["status"] == "finished" and final["result"] is not None
    replay = api.get(f"/v1/games/{made['game']['id']}/replay").body
    movers = {e["data"]["seat"] for e in replay["events"] if e["kind"] in ("play", "pass")}
    assert movers == {0, 1, 2, 3}
    assert pool.moves > 0


def test_the_pool_gets_the_same_identities_and_tokens_every_time(live_api, pool):
    again = BotPool(pool.server, ADMIN_TOKEN, bots=pool.bots, seats=2).register()
    tokens = {p["id"]: p["token"] for b in again for p in b["players"]}
    assert {r.client.requestor.token for r in pool.runners} == set(tokens.values())
    me = live_api.get("/v1/players/me", next(iter(tokens.values())))
    assert me.status == 200 and me.body["name"].startswith(("concerto_signals", "random"))
    refused = live_api.post(
        "/v1/bots", {"bots": [{"name": "random", "count": 1}]}, next(iter(tokens.values()))
    )
    assert refused.status == 403
