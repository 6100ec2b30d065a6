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

The **ceiling** line is the most any adapter could reach: a hollow OpenSpiel game
(:class:`HollowState`, no engine: a step is a counter) is played the same way, and
its cost per step, OpenSpiel's own calls into Python, is added to the engine's step
measured in the same run: ``ceiling = native step / (native step + hollow step)``.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pyspiel

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


HOLLOW_LENGTH = 50
"""Steps of a hollow game (about a deal of Concerto)."""


class HollowState(pyspiel.State):  # type: ignore[misc]
    """A game of :data:`HOLLOW_LENGTH` steps of one player and two legal actions, whose
    steps do nothing but count: what remains of a step is OpenSpiel's part."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.left = HOLLOW_LENGTH

    def current_player(self) -> int:
        return 0 if self.left else int(pyspiel.PlayerId.TERMINAL)

    def legal_actions(self, player: int | None = None) -> list[int]:
        return [0, 1] if self.left else []  # answered in Python, as the adapter does

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def is_chance_node(self) -> bool:
        return False

    def _apply_action(self, action: int) -> None:
        self.left -= 1

    def is_terminal(self) -> bool:
        return not self.left

    def returns(self) -> list[float]:
        return [0.0]


class HollowGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: Any = None) -> None:
        info = pyspiel.GameInfo(
            num_distinct_actions=2, max_chance_outcomes=0, num_players=1,
            min_utility=0.0, max_utility=0.0, utility_sum=0.0,
            max_game_length=HOLLOW_LENGTH,
        )  # fmt: skip
        super().__init__(_HOLLOW_TYPE, info, params or {})

    def new_initial_state(self) -> HollowState:
        return HollowState(self)


_HOLLOW_TYPE = pyspiel.GameType(
    short_name="python_parlour_bench_hollow",
    long_name="Parlour bench: a hollow game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)


def hollow_step_seconds(rng: random.Random, seconds: float) -> float:
    """CPU seconds per step of :class:`HollowGame`, played as :func:`spiel_games` plays."""
    if _HOLLOW_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_HOLLOW_TYPE, HollowGame)
    steps, took = spiel_games(pyspiel.load_game(_HOLLOW_TYPE.short_name), rng, seconds)
    return took / steps


def measure(game_id: str, options: dict[str, Any]) -> float:
    """Print the adapter's and the engine's steps/s for one game, and their ratio."""
    game = spiel.load(game_id, **options)
    rounds: dict[str, list[tuple[int, float]]] = {"openspiel": [], "native": []}
    # Untimed games first: what an engine builds once, lazily (Concerto's table of hand
    # ranks, ~0.3 s), would otherwise fall on the adapter's first round alone.
    spiel_games(game, random.Random("warm-up"), 0.05)
    native_games(game_id, options, random.Random("warm-up"), 0.05)
    for k in range(ROUNDS):
        rng = f"{game_id}-{k}"  # the same random stream for both sides of a round
        rounds["openspiel"].append(spiel_games(game, random.Random(rng), SECONDS / ROUNDS))
        rounds["native"].append(
            native_games(game_id, options, random.Random(rng), SECONDS / ROUNDS)
        )
    adapter, native = _rate(rounds["openspiel"]), _rate(rounds["native"])
    hollow = hollow_step_seconds(random.Random(game_id), SECONDS / 3)
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
    print(
        f"spiel {game_id} ceiling (the engine's step plus OpenSpiel's calls alone):"
        f" {(1 / native) / (1 / native + hollow):.2f} x",
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
