"""What an OpenSpiel step of :mod:`client_sdk.spiel` costs: a random rollout (the bench's
loop) does the engine's own work and no more. No copy of the engine state at the deal,
no view, no event, no parameter read per game; what the information states need is
built when they are asked for, and says the same."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter
from typing import Any

import pytest

from client_sdk import spiel
from server.games import REGISTRY

GAMES = [
    ("concerto", {"deals": 1}),
    ("seconds", {}),
    ("cowpoke", {"players": 4, "hands": 1}),
    ("pinochle", {"variant": "partnership", "max_deals": 1}),
]


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, calls: Counter[str]) -> None:
    """Count the calls of ``owner.name`` (still doing its work)."""
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_random_rollout_copies_no_engine_state_and_builds_no_view_or_event(
    monkeypatch, game_id, options
):
    game = spiel.load(game_id, **options)
    engine_class = type(REGISTRY[game_id].new_state(game.spec.options, "probe"))
    calls: Counter[str] = Counter()
    for name in ("clone", "view", "state_view", "apply"):
        counting(monkeypatch, engine_class, name, calls)
    rng = random.Random(game_id)

    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    dealt = [list(hand) for hand in state.engine.hands]
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    assert calls == Counter()

    # asked for, the information states start at that deal: each seat's hand as dealt
    for seat, hand in enumerate(dealt):
        info = state.information_state_string(seat)
        assert all(json.dumps(card) in info for card in hand), (seat, hand)


def test_a_new_state_reads_no_parameters_but_an_unpickled_game_still_knows_its_own(
    monkeypatch,
):
    game = spiel.load("cowpoke", players=3, hands=1)
    calls: Counter[str] = Counter()
    counting(monkeypatch, spiel, "engine_params", calls)
    states = [game.new_initial_state() for _ in range(5)]
    assert calls == Counter()
    assert {s.core.game.options["players"] for s in states} == {3}

    again = pickle.loads(pickle.dumps(game))  # a game with no Python attribute but its class
    assert again.new_initial_state().core.game is game.spec
    read = calls["engine_params"]  # its parameters, read once
    again.new_initial_state()
    assert calls["engine_params"] == read
