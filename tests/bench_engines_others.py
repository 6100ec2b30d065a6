"""Random play through the Seconds, Cowpoke and Pinochle engines, as ``name: value unit`` lines.

Run as ``python -m tests.bench_engines_others [game ...] [--seconds S]``. For
each game it plays whole games on one core under two policies:

* ``kind``: pick one kind of move uniformly among the kinds legal now (play,
  bid, pass, take, ...), then one move of that kind uniformly;
* ``uniform``: one move uniformly among all the legal moves;

each with and without a ``clone()`` of the state before every move, and
through two doors: ``api`` (``legal_moves`` as dicts, ``apply`` returning
events, what the server uses) and ``sim`` (the compact moves a searching bot
uses: ``moves`` and ``play``, no dicts and no events), when the engine has it.
It prints games per second and microseconds per move for each combination,
in CPU time of this process: the host is shared, so wall time says more
about the neighbours than about the engine.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from server.games import REGISTRY, BaseState

CONFIGS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "seconds": [("seconds", {})],
    "cowpoke": [("cowpoke", {}), ("cowpoke 2p", {"players": 2})],
    "pinochle": [
        ("pinochle", {}),
        ("pinochle firehouse", {"variant": "firehouse", "max_deals": 8}),
    ],
}


def _kind_of(move: Any) -> Any:
    return move["type"] if isinstance(move, dict) else move[0]


def _choose(pick: Callable[[], float], moves: Sequence[Any], by_kind: bool) -> Any:
    """One move by the policy; ``pick`` draws uniformly from [0, 1)."""
    if by_kind:
        kinds = sorted({_kind_of(m) for m in moves})
        if len(kinds) > 1:
            kind = kinds[int(pick() * len(kinds))]
            moves = [m for m in moves if _kind_of(m) == kind]
    return moves[int(pick() * len(moves))]


def _doors(state: BaseState) -> dict[str, tuple[Callable[..., Any], Callable[..., Any]]]:
    doors: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
        "api": (type(state).legal_moves, type(state).apply)
    }
    if hasattr(state, "moves") and hasattr(state, "play"):
        doors["sim"] = (type(state).moves, type(state).play)
    return doors


def random_games(
    game_id: str,
    options: dict[str, Any],
    seconds: float,
    *,
    by_kind: bool,
    clone: bool,
    door: str,
) -> tuple[float, float]:
    """(games per second, microseconds per move) of random play for ``seconds``."""
    game = REGISTRY[game_id]
    pick = random.Random(1).random
    games = moves_made = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        state = game.new_state(options, f"bench-{games}")
        legal, apply = _doors(state)[door]
        while not state.is_over():
            if clone:
                state.clone()
            to_move = state.to_move()
            seat = to_move[int(pick() * len(to_move))] if len(to_move) > 1 else to_move[0]
            apply(state, seat, _choose(pick, legal(state, seat), by_kind))
            moves_made += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, elapsed / moves_made * 1e6


def bench(game_id: str, seconds: float) -> None:
    for label, options in CONFIGS[game_id]:
        probe = REGISTRY[game_id].new_state(options, "probe")
        for door in _doors(probe):
            for policy in ("kind", "uniform"):
                for clone in (False, True):
                    rate, per_move = random_games(
                        game_id,
                        options,
                        seconds,
                        by_kind=policy == "kind",
                        clone=clone,
                        door=door,
                    )
                    name = f"{label} {door} {policy}{' clone' if clone else ''}"
                    print(f"{name}: {rate:.1f} games/s", flush=True)
                    print(f"{name}: {per_move:.1f} µs/move", flush=True)


def main(argv: Sequence[str] = ()) -> int:
    args = list(argv)
    seconds = 2.0
    if "--seconds" in args:
        i = args.index("--seconds")
        seconds = float(args[i + 1])
        del args[i : i + 2]
    for game_id in args or list(CONFIGS):
        bench(game_id, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
