"""Every registered game, at every table size it allows, plays to the end over the API.

Nothing here names a game's rules: if a new engine in ``server.games`` needs
code in the API to be playable, this test is where it shows. The final scores
must equal those of the same moves replayed on a local engine with the same
seed, so the server cannot have played a different game.
"""

from __future__ import annotations

import random

import pytest

from server.games import REGISTRY
from tests.api.play import seat_holders

CASES = [(game_id, n) for game_id, game in REGISTRY.items() for n in game.seats]


@pytest.mark.parametrize(("game_id", "num_seats"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_plays_to_the_end_with_engine_scores(api, players, game_id, num_seats):
    people = players.many(num_seats, prefix=game_id)
    seed = f"every-game-{game_id}-{num_seats}"
    reply = api.post(
        "/v1/games", {"game": game_id, "seats": [p.id for p in people], "seed": seed}, "admin"
    )
    assert reply.status == 201, reply.body
    created = reply.body
    assert len(created["seats"]) == num_seats, created
    game_id_http = created["id"]
    holders = seat_holders(created, people)

    rng = random.Random(seed)
    local = REGISTRY[game_id].new_state(created["options"], seed)
    view = api.view(game_id_http)
    moves = 0
    while view["status"] != "finished":
        seat = view["to_move"][0]
        mine = api.get(f"/v1/games/{game_id_http}", holders[seat], seat=seat).body
        assert mine["legal_moves"] == local.legal_moves(seat)
        move = rng.choice(mine["legal_moves"])
        reply = api.move(game_id_http, holders[seat], move, mine["version"])
        assert reply.status == 200, reply.body
        local.apply(seat, move)
        view = reply.body
        moves += 1
        assert moves < 5000, "the game does not end"

    assert local.is_over()
    assert view["result"]["scores"] == list(local.outcome().scores)
    assert view["result"]["winners"] == list(local.outcome().winners)
    assert view["version"] == moves
