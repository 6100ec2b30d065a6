"""A bot that holds only its view over HTTP can build a world to search in.

``REGISTRY[game].from_view(view["options"], view, seat, rng)`` takes ``GET
/v1/games/{id}`` exactly as a seat receives it (the API's envelope around the
engine's view included) and must give a state whose view for that seat is the
seat's view, whose legal moves are the ones the server offers, and from which
the server's own next move can be played. Nothing here is read from the server
but what the seat is shown.
"""

from __future__ import annotations

import random

import pytest

from server.games import REGISTRY
from tests.api.play import seat_holders

CASES = [(game_id, game.seats[-1]) for game_id, game in sorted(REGISTRY.items())]


@pytest.mark.parametrize(("game_id", "num_seats"), CASES, ids=[g for g, _ in CASES])
def test_a_world_from_a_seats_view_agrees_with_the_server(api, players, game_id, num_seats):
    people = players.many(num_seats, prefix=f"world-{game_id}")
    seed = f"worlds-{game_id}"
    reply = api.post(
        "/v1/games", {"game": game_id, "seats": [p.id for p in people], "seed": seed}, "admin"
    )
    assert reply.status == 201, reply.body
    game = reply.body["id"]
    holders = seat_holders(reply.body, people)
    rng = random.Random(seed)
    checked = 0
    for step in range(120):
        view = api.view(game)
        if view["status"] == "finished":
            break
        mover = view["to_move"][0]
        mine = api.get(f"/v1/games/{game}", holders[mover], seat=mover).body
        if step % 10 == 0:
            world = REGISTRY[game_id].from_view(mine["options"], mine, mover, rng)
            engine_view = world.view(mover)
            assert engine_view == {k: mine[k] for k in engine_view}
            assert world.legal_moves(mover) == mine["legal_moves"]
            checked += 1
        move = rng.choice(mine["legal_moves"])
        if step % 10 == 0:
            world.apply(mover, move)  # the server's next move is a move of the world too
        assert api.move(game, holders[mover], move, mine["version"]).status == 200
    assert checked >= 5
