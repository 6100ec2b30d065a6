"""Play games through the API with random legal moves (test helper)."""

from __future__ import annotations

import random
from typing import Any

from tests.api.helpers import Api
from tests.conftest import Player


def seat_holders(view: dict[str, Any], players: list[Player]) -> dict[int, Player]:
    by_id = {p.id: p for p in players}
    return {s["seat"]: by_id[s["player_id"]] for s in view["seats"] if s["player_id"] in by_id}


def play_random_moves(
    api: Api, game_id: str, players: list[Player], rng: random.Random, limit: int | None = None
) -> dict[str, Any]:
    """Play random legal moves (each by the seat's own token) until the end or ``limit``."""
    view = api.view(game_id)
    holders = seat_holders(view, players)
    played = 0
    while view["status"] != "finished" and (limit is None or played < limit):
        seat = view["to_move"][0]
        mine = api.get(f"/v1/games/{game_id}", holders[seat], seat=seat).body
        reply = api.move(game_id, holders[seat], rng.choice(mine["legal_moves"]), mine["version"])
        assert reply.status == 200, reply.body
        view = reply.body
        played += 1
    return view
