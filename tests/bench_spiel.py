"""OpenSpiel random rollouts through :mod:`client_sdk.spiel` against the native engine.

``python -m tests.bench_spiel`` (a section of ``make bench``) plays uniform random games
of each game both ways in the same run:

* **openspiel**: ``pyspiel`` states of the adapter, as an OpenSpiel user plays them:
  ``new_initial_state()``, the four chance nodes (``apply_action`` of a seed byte),
  then ``is_terminal()``, ``is_chance_node()``, ``legal_actions()`` and
  ``apply_action(id)`` at every step (each ``apply_action`` goes through OpenSpiel's
  C++ ``State::ApplyAction``, which calls the adapter's ``current_player`` and
  ``_apply_action`` back in Python);
* **native**: the engine alone, the same work without OpenSpiel: ``new_state`` of the
  same seed, then ``is_over()``, ``to_move()``, ``legal_actions(seat)`` and
  ``apply_action(seat, action)`` at every step.

Both draw from the same random stream (the same deals; the same choice at each step
where the two orders of legal actions agree) and count the steps of the players (the
chance nodes are not steps). The two alternate in short rounds (CPU time of this
process), so that a burst of load on this shared host falls on both; the figure is
the adapter's steps per second over the engine's, over all the rounds, with the
smallest and largest of it over three thirds of the rounds (the target is at least
0.5).
"""

from __future__ import annotations

import random
import time
from typing import Any

from client_sdk import spiel
from server.games import REGISTRY

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("concerto", {"deals": 1}),
    ("seconds", {}),
    ("cowpoke", {"players": 4, "hands": 1}),
    ("pinochle", {"variant": "partnership", "max_deals": 1}),
]

ROUNDS = 30
"""Rounds per game, each side playing ``SECONDS / ROUNDS`` of CPU per round."""
SECONDS = 3.0
"""CPU seconds per side and game."""


def spiel_games(game: Any, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Random games through OpenSpiel for ``seconds`` of CPU: the steps played and the
    CPU time they took."""
    steps, start = 0, time.process_time()
    end = start + seconds
    while (now := time.process_time()) < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(256))
                continue
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            steps += 1
    return steps, now - start


def native_games(
    game_id: str, options: dict[str, Any], rng: random.Random, seconds: float
) -> tuple[int, float]:
    """Random games on the engine for ``seconds`` of CPU (the seeds the chance nodes
    would draw from ``rng``): the steps played and the CPU time they took."""
    new_state = REGISTRY[game_id].new_state
    steps, start = 0, time.process_time()
    end = start + seconds
    while (now := time.process_time()) < end:
        seed = "openspiel-" + "".join(f"{rng.randrange(256):02x}" for _ in range(4))
        state = new_state(options, seed)
        while not state.is_over():
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply_action(seat, actions[rng.randrange(len(actions))])
            steps += 1
    return steps, now - start


def measure(game_id: str, options: dict[str, Any]) -> float:
    """Print the adapter's and the engine's steps/s for one game, and their ratio."""
    game = spiel.load(game_id, **options)
    rounds: dict[str, list[tuple[int, float]]] = {"openspiel": [], "native": []}
    for k in range(ROUNDS):
        rng = f"{game_id}-{k}"  # the same random stream for both sides of a round
        rounds["openspiel"].append(spiel_games(game, random.Random(rng), SECONDS / ROUNDS))
        rounds["native"].append(
            native_games(game_id, options, random.Random(rng), SECONDS / ROUNDS)
        )
    adapter, native = _rate(rounds["openspiel"]), _rate(rounds["native"])
    third = ROUNDS // 3
    thirds = [
        _rate(rounds["openspiel"][i : i + third]) / _rate(rounds["native"][i : i + third])
        for i in range(0, third * 3, third)
    ]
    print(f"spiel {game_id} openspiel random rollouts: {adapter:.0f} steps/s", flush=True)
    print(f"spiel {game_id} native random rollouts: {native:.0f} steps/s", flush=True)
    print(
        f"spiel {game_id} openspiel/native: {adapter / native:.2f} x"
        f" (thirds of the run: {min(thirds):.2f} to {max(thirds):.2f})",
        flush=True,
    )
    return adapter / native


def _rate(rounds: list[tuple[int, float]]) -> float:
    """Steps per CPU second over ``rounds`` of (steps, CPU seconds)."""
    return sum(steps for steps, _ in rounds) / sum(took for _, took in rounds)


def main() -> int:
    for game_id, options in GAMES:
        measure(game_id, options)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
