"""A local match (``parlour-bot play``) is the server's game: same views, same replay.

For every game and table size, bots play a game locally (:func:`client_sdk.local.play_match`)
from a seed; the same seed, options and moves are then played on the server (the
admin's ``POST /v1/games`` with ``"seed"``, each move by its seat's player). Every
view a local bot was given must be the view the server sends that seat at that
version, and the local replay must be ``GET /v1/games/{id}/replay``, field by field:
only the game's id and who held the seats differ (local seats are held by bots,
named ``local-N``), and the test says so by putting the server's in the local replay
before comparing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from client_sdk import Bot
from client_sdk.local import play_match
from server.games import REGISTRY
from tests.api.play import seat_holders

SHORT: dict[str, dict[str, Any]] = {  # the shortest games each engine allows: one deal
    "concerto": {"deals": 1},
    "cowpoke": {"hands": 1},
    "pinochle": {"max_deals": 1},
}
CASES = [(game, n) for game, engine in REGISTRY.items() for n in engine.seats]


class Recorder(Bot):
    """Draws a legal move from its rng; keeps every view it was asked to act on."""

    name = "recorder"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.views: list[dict[str, Any]] = []

    def choose_move(self, view: dict[str, Any]) -> dict[str, Any]:
        self.views.append(view)
        return self.rng.choice(view["legal_moves"])


def without_holders(shown: dict[str, Any]) -> dict[str, Any]:
    """What a local and a server game share: all but the id and the seats' players."""
    return {k: v for k, v in shown.items() if k not in ("id", "seats")}


@pytest.mark.parametrize(("game", "num_seats"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_local_match_is_the_servers_game(api, players, game, num_seats) -> None:
    seed = f"local-{game}-{num_seats}"
    options = dict(SHORT.get(game, {}))
    if REGISTRY[game].seat_option:
        options[REGISTRY[game].seat_option] = num_seats
    bots = [Recorder(random.Random(f"{seed}/{s}")) for s in range(num_seats)]
    local = play_match(game, bots, seed=seed, options=options)
    asked = {(v["you"], v["version"]): v for bot in bots for v in bot.views}
    assert len(asked) == len(local.moves) > 0

    people = players.many(num_seats, prefix=game)
    body = {"game": game, "options": options, "seats": [p.id for p in people], "seed": seed}
    created = api.post("/v1/games", body, "admin")
    assert created.status == 201, created.body
    game_id, holders = created.body["id"], seat_holders(created.body, people)
    for version, made in enumerate(local.moves):
        seat = made["seat"]
        sent = api.get(f"/v1/games/{game_id}", holders[seat], seat=seat).body
        assert without_holders(sent) == without_holders(asked[(seat, version)])
        reply = api.move(game_id, holders[seat], made["move"], version)
        assert reply.status == 200, reply.body

    served = api.get(f"/v1/games/{game_id}/replay").body
    assert served["status"] == local.replay["status"] == "finished"
    assert local.replay["seats"] == [
        {"seat": s, "player_id": f"local-{s}", "name": "recorder"} for s in range(num_seats)
    ]
    assert local.replay | {"id": served["id"], "seats": served["seats"]} == served
    assert local.replay["revealed"]["seed"] == seed
    assert (local.replay["par"] is not None) == (game == "concerto")
