"""``make bench``: speed figures, one per line as ``name: value unit``.

Run as ``python -m tests.bench [section ...]``. Sections: ``engine`` (random
play of every game on one core, two policies, with and without ``clone()`` at
every step, through the moves and, where a game has one, its compact form of
actions, also listed by kind: :mod:`tests.bench_engines`), ``http`` (moves
through gunicorn against a one-round-trip ceiling, 32 clients), ``load`` (64
and 256 bots against the same ceiling, and thousands of long-poll waiters),
``par`` (Concerto bots as percent of the double-dummy par), ``matches`` (boards a
match needs to decide, plain against duplicate, fixed-length against the sequential
test: :mod:`tests.bench_matches`), ``callbacks`` (server CPU
per move of callback bots against turn-stream bots, and the dispatcher's share:
:mod:`tests.bench_callbacks`), ``spiel`` (random rollouts through OpenSpiel against
the native engine: :mod:`tests.bench_spiel`) and ``sandbox`` (a hosted seat's cold start,
turn round trip and memory in bubblewrap, and the hosted loop's server CPU per move
against the callback loop's: :mod:`tests.bench_sandbox`). Figures that
compare two things are printed as ratios measured in the same run, because
this host is noisy.
"""

from __future__ import annotations

import importlib
import sys

from server.games import REGISTRY

from .bench_engines import bench_game


def bench_engine() -> None:
    """Every engine of the registry through the one driver, :mod:`tests.bench_engines`."""
    for game_id in sorted(REGISTRY):
        bench_game(game_id)


SECTIONS = {"engine": bench_engine}


def main(argv: list[str]) -> int:
    wanted = argv or [
        "engine",
        "http",
        "load",
        "botloop",
        "par",
        "matches",
        "ladder",
        "callbacks",
        "spiel",
        "sandbox",
    ]
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
