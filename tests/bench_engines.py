"""Engine speed for any game of the registry: random games per second, µs per move.

``python -m tests.bench_engines GAME [GAME ...]`` (or :func:`bench_game` from
``tests.bench``) prints, per game and option set, one ``name: value unit``
line per figure:

* ``kind-uniform``: at each step one *kind* of move (its ``type``) is drawn
  uniformly among the kinds that are legal, then one move of that kind. This
  is the policy of a naive simulator, so figures compare across engines.
* ``uniform``: one move drawn uniformly over ``legal_moves``.
* each with and without ``clone()`` at every step, the cost a searching bot
  pays for copying the state it explores.

The driver only uses the public engine API (``new_state``, ``to_move``,
``legal_moves``, ``apply`` with ``events=False`` as a simulation does, ``clone``,
``is_over``), so it is the same for every game; the option sets per game are in
:data:`OPTION_SETS`. Time is this process's CPU time, not the wall clock, so
that other work on a shared host weighs less on the figures.
"""

from __future__ import annotations

import inspect
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from server.games import REGISTRY

T = TypeVar("T")
Policy = Callable[[random.Random, list[dict[str, Any]]], dict[str, Any]]

OPTION_SETS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "concerto": [("parlett-2013", {"rules": "parlett-2013"}), ("penguin", {"rules": "penguin"})],
}
"""Option sets measured per game (a label for the output, the options); others: defaults."""


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """One item uniformly (``rng.choice`` without its Python-level rejection loop)."""
    return items[int(rng.random() * len(items))]


def uniform(rng: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    return pick(rng, moves)


def kind_uniform(rng: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A kind of move uniformly among the legal kinds, then one of its moves uniformly."""
    kinds = [move.get("type") for move in moves]
    distinct = list(dict.fromkeys(kinds))
    if len(distinct) == 1:
        return pick(rng, moves)
    kind = pick(rng, distinct)
    return pick(rng, [move for move, k in zip(moves, kinds, strict=True) if k == kind])


POLICIES: dict[str, Policy] = {"kind-uniform": kind_uniform, "uniform": uniform}


def random_games(
    game_id: str, options: dict[str, Any], seconds: float, policy: Policy, clone: bool
) -> tuple[float, float]:
    """(games per second, µs per move) of seeded random games on one core."""
    game = REGISTRY[game_id]
    rng = random.Random(1)
    # A simulation does not read events: skip building them where the engine can.
    probe = game.new_state(options, "probe")
    quiet = {"events": False} if "events" in inspect.signature(probe.apply).parameters else {}
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        state = game.new_state(options, f"bench-{games}")
        while not state.is_over():
            if clone:
                state.clone()
            seat = state.to_move()[0]
            state.apply(seat, policy(rng, state.legal_moves(seat)), **quiet)
            moves += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, 1e6 * elapsed / moves


def bench_game(game_id: str, seconds: float = 3.0) -> None:
    """Print every figure of one game, for each of its option sets."""
    for label, options in OPTION_SETS.get(game_id, [("default", {})]):
        name = game_id if label == "default" else f"{game_id} {label}"
        for policy_name, policy in POLICIES.items():
            for clone in (False, True):
                per_s, us = random_games(game_id, options, seconds, policy, clone)
                what = f"{name} {policy_name}{' with clone' if clone else ''}"
                print(f"{what}: {per_s:.1f} games/s", flush=True)
                print(f"{what}: {us:.2f} µs/move", flush=True)


def main(argv: Sequence[str] | None = None, seconds: float = 3.0) -> int:
    games = list(argv or []) or sorted(REGISTRY)
    for game_id in games:
        bench_game(game_id, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
