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

SHORT = {
    "concerto": {"deals": 1},
    "cowpoke": {"players": 4, "hands": 1},
    "pinochle": {"variant": "partnership", "max_deals": 1},
}
"""Shorter games than a game's first option set, for speed."""

GAMES = [
    (game_id, SHORT.get(game_id, dict(REGISTRY[game_id].option_sets[0]))) for game_id in REGISTRY
]
"""Every registered game: a new one at the first options it is judged by."""


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, calls: Counter[str]) -> None:
    """Count the calls of ``owner.name`` (still doing its work)."""
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


def core_size(state: spiel.ParlourState) -> int:
    """The pickled size of what the adapter holds for ``state``, the engine's state and
    the current player aside."""
    core = state.core
    kept = {k: getattr(core, k) for k in core.__slots__ if k not in ("engine", "player")}
    return len(pickle.dumps(kept))


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_random_rollout_copies_no_engine_state_and_builds_no_view_or_event(
    monkeypatch, game_id, options
):
    game = spiel.load(game_id, **options)
    engine_class = type(REGISTRY[game_id].new_state(game.spec.options, "probe"))
    calls: Counter[str] = Counter()
    for name in ("clone", "view", "state_view", "apply"):
        counting(monkeypatch, engine_class, name, calls)
    ids: Counter[str] = Counter()
    counting(monkeypatch, engine_class, "legal_action_ids", ids)
    rng = random.Random(game_id)

    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    dealt = [list(hand) for hand in state.engine.hands]
    at_the_deal = core_size(state)
    steps = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        steps += 1
    assert calls == Counter()
    # the engine numbers the legal actions, once a step; the adapter keeps no log of the
    # moves (OpenSpiel's history is the log): what it holds besides the engine state
    # does not grow with the game
    assert ids["legal_action_ids"] == steps > 20
    assert core_size(state) == at_the_deal

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


def _play(followed: Any, late: list[Any], rng: random.Random, steps: int = -1) -> None:
    """The same random actions on ``followed`` and every ``late`` state (``steps`` moves
    after any chance node, or to the end); ``followed``'s information states asked for
    at every step, the others' not."""
    seats = range(followed.get_game().num_players())
    while not followed.is_terminal() and steps != 0:
        if followed.is_chance_node():
            action = rng.randrange(256)
        else:
            actions = followed.legal_actions()
            action = actions[rng.randrange(len(actions))]
            steps -= 1
        for state in (followed, *late):
            state.apply_action(action)
        for seat in seats:
            followed.information_state_string(seat)


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_information_states_asked_late_say_what_they_say_step_by_step(game_id, options):
    """Built from OpenSpiel's history when asked for: asked only at the end, on a clone
    taken midway, after serialisation, or in a world drawn midway, an information state
    is the one followed at every step."""
    game = spiel.load(game_id, **options)
    rng = random.Random(f"late-{game_id}")
    followed, late = game.new_initial_state(), game.new_initial_state()
    _play(followed, [late], rng, steps=15)
    world = spiel.resample(followed, followed.current_player(), random.Random(1))
    world_late = world.clone()
    _play(world, [world_late], random.Random(2), steps=15)
    clone = late.clone()
    _play(followed, [late, clone], rng)
    back = game.deserialize_state(late.serialize())  # OpenSpiel replays its history
    for seat in range(game.num_players()):
        expected = followed.information_state_string(seat)
        assert late.information_state_string(seat) == expected, seat
        assert clone.information_state_string(seat) == expected, seat
        assert back.information_state_string(seat) == expected, seat
        assert world_late.information_state_string(seat) == world.information_state_string(seat)
