"""OpenSpiel random rollouts through :mod:`client_sdk.spiel` against the native engine.

``python -m tests.bench_spiel`` (a section of ``make bench``) plays uniform random games
of each game twice in the same run: through OpenSpiel (``pyspiel`` states of the
adapter: ``legal_actions()``, ``apply_action()``, the seed's chance nodes drawn
uniformly) and on the engine directly (``legal_actions``/``apply_action``, the same
policy), and prints the steps per second of each and their ratio (CPU time of this
process, alternating the two in rounds: the ratio measured in one run is the figure to
trust on a noisy host; the target is at least 0.5).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from client_sdk import spiel
from server.games import REGISTRY

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("concerto", {"deals": 1}),
    ("seconds", {}),
    ("cowpoke", {"players": 4, "hands": 1}),
    ("pinochle", {"variant": "partnership", "max_deals": 1}),
]


def spiel_games(game_id: str, options: dict[str, Any], rng: random.Random, seconds: float) -> int:
    """Random games through OpenSpiel for ``seconds`` of CPU; the steps played."""
    game = spiel.load(game_id, **options)
    steps, end = 0, time.process_time() + seconds
    while time.process_time() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(256))
                continue
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            steps += 1
    return steps


def native_games(game_id: str, options: dict[str, Any], rng: random.Random, seconds: float) -> int:
    """Random games on the engine for ``seconds`` of CPU; the steps played."""
    new_state = REGISTRY[game_id].new_state
    steps, end = 0, time.process_time() + seconds
    while time.process_time() < end:
        state = new_state(options, f"native-{rng.getrandbits(32)}")
        while not state.is_over():
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply_action(seat, actions[rng.randrange(len(actions))])
            steps += 1
    return steps


def measure(game_id: str, options: dict[str, Any], seconds: float = 1.0, rounds: int = 3) -> None:
    """Print the adapter's and the engine's steps/s for one game, and their ratio."""
    rng = random.Random(game_id)
    rates: dict[str, list[float]] = {"openspiel": [], "native": []}
    runs: dict[str, Callable[..., int]] = {"openspiel": spiel_games, "native": native_games}
    for _ in range(rounds):
        for name, run in runs.items():
            rates[name].append(run(game_id, options, rng, seconds) / seconds)
    adapter, native = statistics.median(rates["openspiel"]), statistics.median(rates["native"])
    print(f"spiel {game_id} openspiel random rollouts: {adapter:.0f} steps/s", flush=True)
    print(f"spiel {game_id} native random rollouts: {native:.0f} steps/s", flush=True)
    print(f"spiel {game_id} openspiel/native: {adapter / native:.2f} x", flush=True)


def main() -> int:
    for game_id, options in GAMES:
        measure(game_id, options)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
