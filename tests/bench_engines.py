"""Engine speed for any game of the registry: random games per second, µs per move.

``python -m tests.bench_engines GAME [GAME ...]`` (or :func:`bench_game` from
``tests.bench``) prints, per game and option set, one ``name: value unit``
line per figure:

* ``kind-uniform``: at each step one *kind* of move (its ``type``) is drawn
  uniformly among the kinds that are legal, then one move of that kind. This
  is the policy of a naive simulator, so figures compare across engines.
* ``uniform``: one move drawn uniformly over the legal moves.
* each with and without ``clone()`` at every step, the cost a searching bot
  pays for copying the state it explores;
* each through the two forms of the engine API: the moves as the API serves
  them (``legal_moves``, a dict per move, and ``apply`` with ``events=False``
  as a simulation does), and the compact form a searching bot would use
  (``legal_actions`` and ``apply_action``; suffix ``compact``). A game without
  its own compact form gets the kit's default, its moves themselves.

The driver only uses the public engine API (``new_state``, ``to_move``,
``legal_moves``/``apply`` or ``legal_actions``/``apply_action``, ``clone``,
``is_over``, the class's ``action_kinds``), so it is the same for every game;
the option sets per game are in :data:`OPTION_SETS`. Time is this process's
CPU time, not the wall clock, so that other work on a shared host weighs less
on the figures.
"""

from __future__ import annotations

import inspect
import operator
import random
import sys
import time
from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any, TypeVar

from server.games import REGISTRY

T = TypeVar("T")
Kind = Callable[[Any], Any]
Policy = Callable[[random.Random, list[Any], Kind], Any]
NewState = Callable[[dict[str, Any], str], Any]

OPTION_SETS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "concerto": [("parlett-2013", {"rules": "parlett-2013"}), ("penguin", {"rules": "penguin"})],
}
"""Option sets measured per game (a label for the output, the options); others: defaults."""


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """One item uniformly (``rng.choice`` without its Python-level rejection loop)."""
    return items[int(rng.random() * len(items))]


def uniform(rng: random.Random, moves: list[Any], kind: Kind) -> Any:
    return moves[int(rng.random() * len(moves))]  # pick(), inlined


def kind_uniform(rng: random.Random, moves: list[Any], kind: Kind) -> Any:
    """A kind of move uniformly among the legal kinds, then one of its moves uniformly.

    ``kind`` gives a move's kind: its ``type`` for a dict, the game's
    ``action_kinds`` for an action of its compact form. Written with C-level
    steps (``map``, ``count``, ``dict.fromkeys``, ``compress``) and ``pick`` inlined: the
    policy is part of every simulated move, so its own cost counts too.
    """
    kinds = list(map(kind, moves))
    if kinds.count(kinds[0]) == len(kinds):  # one kind only
        return moves[int(rng.random() * len(moves))]
    distinct = list(dict.fromkeys(kinds))
    chosen = distinct[int(rng.random() * len(distinct))]
    count = kinds.count(chosen)
    if count == 1:
        return moves[kinds.index(chosen)]
    same = list(compress(moves, map(chosen.__eq__, kinds)))
    return same[int(rng.random() * count)]


POLICIES: dict[str, Policy] = {"kind-uniform": kind_uniform, "uniform": uniform}
TYPE: Kind = operator.itemgetter("type")


def play(
    new_state: NewState,
    options: dict[str, Any],
    seconds: float,
    policy: Policy,
    *,
    clone: bool = False,
    compact: bool = False,
) -> tuple[float, float]:
    """(games per second, µs per move) of seeded random games on one core.

    ``new_state`` is a game's ``new_state``: the registry's, or an older
    engine's when comparing versions in one run.
    """
    rng = random.Random(1)
    probe = new_state(options, "probe")
    kinds = getattr(type(probe), "action_kinds", None)  # older engines: none
    kind: Kind = kinds.__getitem__ if compact and kinds is not None else TYPE
    # A simulation does not read events: skip building them where the engine can.
    quiet = {"events": False} if "events" in inspect.signature(probe.apply).parameters else {}
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        state = new_state(options, f"bench-{games}")
        # to_move() is empty once the game is over (the engine contract).
        if compact:
            while to_move := state.to_move():
                if clone:
                    state.clone()
                seat = to_move[0]
                state.apply_action(seat, policy(rng, state.legal_actions(seat), kind))
                moves += 1
        else:
            while to_move := state.to_move():
                if clone:
                    state.clone()
                seat = to_move[0]
                state.apply(seat, policy(rng, state.legal_moves(seat), kind), **quiet)
                moves += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, 1e6 * elapsed / moves


def random_games(
    game_id: str,
    options: dict[str, Any],
    seconds: float,
    policy: Policy,
    clone: bool,
    compact: bool = False,
) -> tuple[float, float]:
    """:func:`play` for a game of the registry."""
    return play(REGISTRY[game_id].new_state, options, seconds, policy, clone=clone, compact=compact)


def bench_game(game_id: str, seconds: float = 3.0) -> None:
    """Print every figure of one game, for each of its option sets."""
    for label, options in OPTION_SETS.get(game_id, [("default", {})]):
        name = game_id if label == "default" else f"{game_id} {label}"
        for compact in (False, True):
            for policy_name, policy in POLICIES.items():
                for clone in (False, True):
                    per_s, us = random_games(game_id, options, seconds, policy, clone, compact)
                    what = (
                        f"{name} {policy_name}{' with clone' if clone else ''}"
                        f"{' compact' if compact else ''}"
                    )
                    print(f"{what}: {per_s:.1f} games/s", flush=True)
                    print(f"{what}: {us:.2f} µs/move", flush=True)


def main(argv: Sequence[str] | None = None, seconds: float = 3.0) -> int:
    games = list(argv or []) or sorted(REGISTRY)
    for game_id in games:
        bench_game(game_id, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
