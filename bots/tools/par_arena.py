"""The par arena: how close each Concerto bot comes to double-dummy par.

Every bot plays the same seeded deals, all four seats itself (its two copies
on a side share nothing but the table), through the pure engine exactly like
``bots.tools.arena``. Each side's hand points are compared with its par — the most
its four hands could have scored had both partners seen each other's cards
(``server.games.analysis.concerto_par``) — so the figure measures play, not cards:
"percent of par" = total hand points / total par over all deals and sides,
with a 95% confidence interval (the ratio's delta method over deals).

Then, duplicate style (``bots.tools.arena.duplicate_match``), the search bot against
the signals bot: each deal twice with the sides swapped, the per-deal score
difference (hand points and left-over bonus) with its 95% interval.

Run: ``python -m bots.tools.par_arena --deals 1000`` (``--bots``, ``--rules``,
``--budget-ms`` for the search bot, ``--against none`` to skip the duplicate).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from client_sdk import Bot
from client_sdk.cli import bot_factory
from server.games import REGISTRY, IllegalMove, concerto
from server.games.analysis.concerto_par import deal_par
from server.games.concerto import SIDE_NAMES

from ..concerto_search import DEFAULT_BUDGET_MS
from ..concerto_search import make_bot as make_search
from .arena import (
    BotFactory,
    BotMadeIllegalMove,
    Progress,
    arena_view,
    duplicate_match,
    progress_printer,
)

ALIASES = {"greedy": "concerto_greedy", "signals": "concerto_signals", "search": "concerto_search"}
DEFAULT_BOTS = "random,greedy,signals,search"


@dataclass
class ParReport:
    """One bot's hand points and par, per deal (both sides added)."""

    name: str
    points: list[int] = field(default_factory=list)
    par: list[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def percent(self) -> float:
        return 100 * sum(self.points) / sum(self.par)

    @property
    def half_width(self) -> float:
        """95% half-width of :attr:`percent`: delta method for a ratio of means."""
        n = len(self.par)
        if n < 2:
            return math.inf
        ratio = sum(self.points) / sum(self.par)
        residuals = [p - ratio * q for p, q in zip(self.points, self.par, strict=True)]
        return 100 * 1.96 * statistics.stdev(residuals) / math.sqrt(n) / statistics.fmean(self.par)

    def summary(self, width: int = 8) -> str:
        sides = 2 * len(self.par)
        return (f"par arena {self.name:<{width}}: {self.percent:5.1f} % of par "
                f"(± {self.half_width:.1f}, 95% CI; {sum(self.points) / sides:.1f} of "
                f"{sum(self.par) / sides:.1f} hand points per side; "
                f"{self.seconds / len(self.par):.2f} s per deal)")  # fmt: skip


def play_deal(bots: Sequence[Bot], seed: str, options: dict[str, Any]) -> tuple[int, int]:
    """One deal with ``bots[seat]`` in each seat: (hand points, par), both sides added.

    Raises:
        BotMadeIllegalMove: a bot chose a move not in its legal moves.
    """
    state = cast(concerto.State, REGISTRY["concerto"].new_state(options, seed))
    dealt, dealer, rules = [list(h) for h in state.hands], state.dealer, state.options.rules
    while not state.is_over():
        seat = state.to_move()[0]
        move = bots[seat].choose_move(arena_view(state, seat, "concerto", seed, options))  # type: ignore[arg-type]
        try:
            state.apply(seat, move)
        except IllegalMove as exc:
            raise BotMadeIllegalMove(f"{bots[seat].name} at seat {seat}: {exc}") from exc
    points = state.deal_results[-1]["hand_points"]
    par = deal_par(dealt, dealer, rules)
    return (sum(points[s] for s in SIDE_NAMES), sum(par[s].max_hands for s in SIDE_NAMES))


def par_report(name: str, make: BotFactory, deals: int, seed: str, options: dict[str, Any],
               progress: Progress | None = None) -> ParReport:  # fmt: skip
    """``deals`` seeded deals played by four copies of one bot (``progress``: after each)."""
    report = ParReport(name)
    start = time.perf_counter()
    for deal in range(deals):
        deal_seed = f"{seed}/{deal}"
        bots = [make(random.Random(f"{deal_seed}/{seat}")) for seat in range(4)]
        points, par = play_deal(bots, deal_seed, options)
        report.points.append(points)
        report.par.append(par)
        if progress is not None:
            progress(deal + 1, deals)
    report.seconds = time.perf_counter() - start
    return report


def factory(name: str, budget_ms: float) -> BotFactory:
    """A bot factory from a short name, a ``bots`` module name or ``module:Class``."""
    spec = ALIASES.get(name, name)
    if spec == "concerto_search":
        return lambda rng: make_search(rng, budget_ms)
    make = bot_factory(spec)  # the name resolved once, not per game
    make(None)  # fail early on a bad name
    return make


def main(argv: Sequence[str] | None = None) -> int:
    """Print each bot's percent of par, then search against signals in duplicate."""
    parser = argparse.ArgumentParser(
        prog="python -m bots.tools.par_arena", description="Concerto bots against double-dummy par"
    )
    parser.add_argument("--deals", type=int, default=200, help="seeded deals per bot")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help="comma-separated bot names")
    parser.add_argument("--seed", default="par-arena", help="seed of the deals and the bots")
    parser.add_argument("--rules", default="parlett-2013", help="parlett-2013 or penguin")
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS,
                        help="the search bot's time per searched decision")  # fmt: skip
    parser.add_argument("--against", default="signals",
                        help="search's duplicate rival ('none': skip)")  # fmt: skip
    args = parser.parse_args(argv)
    options = {"deals": 1, "target": 10000, "rules": args.rules}
    try:
        factories = {name: factory(name, args.budget_ms) for name in args.bots.split(",")}
        rival = None if args.against == "none" else factory(args.against, args.budget_ms)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"concerto {args.rules}, {args.deals} deals (seed {args.seed!r}), "
          f"search budget {args.budget_ms:g} ms", flush=True)  # fmt: skip
    width = max(len(n) for n in factories)
    for name, make in factories.items():
        report = par_report(name, make, args.deals, args.seed, options,
                            progress_printer(f"par arena {name}, deals"))  # fmt: skip
        print(report.summary(width), flush=True)
    if rival is not None:
        start = time.perf_counter()
        duplicate = duplicate_match("concerto", factory("search", args.budget_ms), rival,
                                    args.deals, seed=args.seed, options=options,
                                    names=("search", args.against),
                                    progress=progress_printer("duplicate, deals"))  # fmt: skip
        print(f"duplicate, search against {args.against} "
              f"({(time.perf_counter() - start) / args.deals:.2f} s per deal):")  # fmt: skip
        print(duplicate.summary(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
