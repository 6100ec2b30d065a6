"""A whole Concerto game played by four tokens over a real socket, checked against the engine.

Each player loops on ``GET /v1/me/turns`` like a bot and moves with its own
token. A local engine, dealt from the same (admin-chosen) seed, plays the same
moves: every view the server sends must equal the local engine's view for that
seat, and the final scores must be the engine's.
"""

from __future__ import annotations

import random

import orjson
import pytest

from server.games import REGISTRY
from tests.api.helpers import assert_error


def _json(value):
    return orjson.loads(orjson.dumps(value))


@pytest.mark.parametrize("rules", ["parlett-2013", "penguin"])
def test_full_game_over_a_socket(live_api, live_players, rules):
    four = live_players.many(4)
    options, seed = {"rules": rules}, f"full-game-{rules}"
    created = live_api.create("admin", [p.id for p in four], options=options, seed=seed)
    gid = created["id"]
    mirror = REGISTRY["concerto"].new_state(options, seed)
    rng = random.Random(rules)
    moves = 0
    while not mirror.is_over():
        seat = mirror.to_move()[0]
        (turn,) = live_api.get("/v1/me/turns", four[seat], wait=2).body["turns"]
        assert (turn["game_id"], turn["seat"], turn["version"]) == (gid, seat, moves)
        view = turn["view"]
        expected = _json(mirror.view(seat))
        assert {k: view[k] for k in expected} == expected
        if moves % 25 == 0:  # the others have nothing to do
            others = [p for s, p in enumerate(four) if s != seat]
            assert all(live_api.get("/v1/me/turns", p).body == {"turns": []} for p in others)
        move = rng.choice(view["legal_moves"])
        reply = live_api.move(gid, four[seat], move, view["version"])
        assert reply.status == 200, reply.body
        assert reply.body["version"] == moves + 1 and reply.body["you"] == seat
        mirror.apply(seat, move)
        moves += 1
    final = live_api.view(gid, four[0])
    outcome = mirror.outcome()
    assert final["status"] == "finished" and final["to_move"] == []
    assert final["result"] == _json(outcome.to_dict())
    assert final["scores"] == list(outcome.scores)
    assert final["state"]["deal_results"] == _json(mirror.state_view()["deal_results"])
    assert moves >= 4 * 20  # at least one deal's 40 cards by both sides
    assert_error(live_api.move(gid, four[0], {"type": "pass"}), 409, "game_over")
    for p in four:
        assert live_api.get("/v1/me/turns", p).body == {"turns": []}
