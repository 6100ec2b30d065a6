"""A finished replay plays again locally (:func:`client_sdk.local.replay_match`).

For every game and table size, a local match of random bots is played, and its
replay alone (no moves recorded) is played again: :func:`moves_of` finds the moves
made, in order, from the seed and the events, even where a move's events hide it
until a later reveal (Cowpoke's face-down put-outs), and the game played again has
the same replay. A replay that is not finished, or whose events no legal move makes,
is refused with a ValueError.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from client_sdk import Bot
from client_sdk.local import moves_of, play_match, replay_match
from server.games import REGISTRY

SHORT: dict[str, dict[str, Any]] = {
    "concerto": {"deals": 1},
    "cowpoke": {"hands": 2},
    "pinochle": {"max_deals": 1},
}
CASES = [(game, n) for game, engine in REGISTRY.items() for n in engine.seats]


class Random(Bot):
    name = "random"

    def choose_move(self, view: dict[str, Any]) -> dict[str, Any]:
        return self.rng.choice(view["legal_moves"])


def _played(game: str, seats: int) -> Any:
    options = dict(SHORT.get(game, {}))
    if REGISTRY[game].seat_option:
        options[REGISTRY[game].seat_option] = seats
    bots = [Random(random.Random(f"{game}/{seats}/{s}")) for s in range(seats)]
    return play_match(game, bots, seed=f"again-{game}-{seats}", options=options)


@pytest.mark.parametrize(("game", "seats"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_replay_plays_again_to_the_same_replay(game: str, seats: int) -> None:
    played = _played(game, seats)
    assert moves_of(played.replay) == [{"seat": m["seat"], "move": m["move"]} for m in played.moves]
    again = replay_match(played.replay)
    assert again.scores == played.scores == played.replay["result"]["scores"]
    assert again.replay == played.replay


def test_a_replay_no_moves_explain_is_refused() -> None:
    played = _played("concerto", 4)
    unfinished = played.replay | {"status": "active", "revealed": None}
    with pytest.raises(ValueError, match="finished"):
        moves_of(unfinished)
    edited = copy.deepcopy(played.replay)
    plays = [e for e in edited["events"] if e["kind"] == "play"]
    plays[0]["data"]["card"], plays[1]["data"]["card"] = (
        plays[1]["data"]["card"],
        plays[0]["data"]["card"],
    )
    with pytest.raises(ValueError, match="no legal moves"):
        moves_of(edited)
