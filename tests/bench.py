"""``make bench``: speed figures, one per line as ``name: value unit``.

Run as ``python -m tests.bench [section ...]``. Sections: ``engine`` (random
play on one core, with and without ``clone()`` at every step), ``http`` (moves
through gunicorn against a one-round-trip ceiling, 32 clients), ``load`` (64
and 256 bots against the same ceiling, and thousands of long-poll waiters) and
``par`` (Concerto bots as percent of the double-dummy par). Figures that
compare two things are printed as ratios measured in the same run, because
this host is noisy.
"""

from __future__ import annotations

import importlib
import random
import sys
import time

from server.games import REGISTRY


def random_games(game_id: str, options: dict, seconds: float, clone_every_step: bool) -> float:
    """Full games per second with uniformly random legal moves (one core)."""
    game = REGISTRY[game_id]
    rng = random.Random(1)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = game.new_state(options, f"bench-{games}")
        while not state.is_over():
            if clone_every_step:
                state.clone()
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        games += 1
    return games / (time.perf_counter() - start)


def bench_engine(seconds: float = 4.0) -> None:
    for rules in ("parlett-2013", "penguin"):
        plain = random_games("concerto", {"rules": rules}, seconds, clone_every_step=False)
        cloned = random_games("concerto", {"rules": rules}, seconds, clone_every_step=True)
        print(f"concerto {rules} random play: {plain:.1f} games/s", flush=True)
        print(f"concerto {rules} random play with clone: {cloned:.1f} games/s", flush=True)
        print(f"concerto {rules} clone overhead ratio: {cloned / plain:.2f}", flush=True)


SECTIONS = {"engine": bench_engine}


def main(argv: list[str]) -> int:
    wanted = argv or ["engine", "http", "load", "par", "ladder"]
    for name in wanted:
        if name in SECTIONS:
            SECTIONS[name]()
            continue
        try:
            module = importlib.import_module(f"tests.bench_{name}")
        except ModuleNotFoundError:
            print(f"# bench section {name!r} is not available", flush=True)
            continue
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
