"""The arena: bots play each other locally, duplicate style, on many seeded deals.

No server is involved: the pure engine (``server.games.REGISTRY[...]``) holds
the game and each bot gets ``state.view(seat)`` — the same view dict the
server sends, with ``id``, ``game``, ``status``, ``options`` and ``you`` added
and the other service fields (version, seats, deadline, commitment) left out.
So a bot never sees more here than it would through the API.

**Duplicate.** Luck of the deal dominates a card game, so each deal is played
twice with the sides swapped: bot A holds the North–South cards in the first
play and the East–West cards in the second. The per-deal difference
``((A − B) in play 1 + (A − B) in play 2) / 2`` cancels the cards, leaving the
play. Reported with a 95% confidence interval (normal approximation, fine
for the hundreds of deals an arena run uses).

Run: ``python -m bots.arena concerto --bots signals,greedy --deals 200``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from client_sdk import Bot
from client_sdk.cli import load_bot
from server.games import REGISTRY, IllegalMove
from server.games.base import BaseState

ALIASES = {"greedy": "concerto_greedy", "signals": "concerto_signals"}
"""Short names accepted by ``--bots``."""

DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    # One deal per game and a target nobody reaches: a play's score is exactly
    # the deal's hand points plus its left-over bonus (RULES.md §1), with no
    # game bonus to swamp the comparison.
    "concerto": {"deals": 1, "target": 10000},
}

BotFactory = Callable[[random.Random], Bot]


class BotMadeIllegalMove(AssertionError):
    """A bot chose a move that is not in its view's ``legal_moves``."""


def arena_view(state: BaseState, seat: int, game_id: str, play_id: str,
               options: Mapping[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The view a seat gets: the engine's ``view(seat)`` plus the fields bots rely on."""
    return {
        "id": play_id,
        "game": game_id,
        "options": dict(options),
        "status": "finished" if state.is_over() else "active",
        "you": seat,
        **state.view(seat),
    }


def play_game(
    game_id: str,
    bots: Sequence[Bot],
    seed: str,
    options: Mapping[str, Any],
    play_id: str = "arena",
) -> list[int]:
    """Play one game with ``bots[seat]`` in each seat; return the final score per seat.

    Raises:
        BotMadeIllegalMove: with the seat, the move and the engine's reason.
    """
    state = REGISTRY[game_id].new_state(dict(options), seed)
    started: set[int] = set()
    while not state.is_over():
        seat = state.to_move()[0]
        view = arena_view(state, seat, game_id, play_id, options)
        bot = bots[seat]
        if seat not in started:
            started.add(seat)
            bot.on_game_start(view)  # type: ignore[arg-type]
        move = bot.choose_move(view)  # type: ignore[arg-type]
        try:
            state.apply(seat, move)
        except IllegalMove as exc:
            raise BotMadeIllegalMove(
                f"{bot.name} at seat {seat} played {move!r} in {play_id}: {exc}"
            ) from exc
    for seat in sorted(started):
        bots[seat].on_game_over(arena_view(state, seat, game_id, play_id, options))  # type: ignore[arg-type]
    outcome = state.outcome()
    assert outcome is not None
    return list(outcome.scores)


@dataclass
class Interval:
    """A mean with the half-width of its 95% confidence interval."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, math.inf)
        return cls(mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values)))

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.half_width:.2f}"


@dataclass
class DuplicateReport:
    """Scores of a duplicate match: per play for each bot, and per-deal differences."""

    names: tuple[str, str]
    scores_a: list[int] = field(default_factory=list)
    scores_b: list[int] = field(default_factory=list)
    differences: list[float] = field(default_factory=list)
    """Per deal: ((A − B) with A North–South + (A − B) with A East–West) / 2."""

    @property
    def deals(self) -> int:
        return len(self.differences)

    @property
    def difference(self) -> Interval:
        return Interval.of(self.differences)

    def summary(self) -> str:
        a, b = self.names
        diff = self.difference
        wins = sum(d > 0 for d in self.differences)
        losses = sum(d < 0 for d in self.differences)
        width = max(len(a), len(b))
        sa, sb = Interval.of(self.scores_a), Interval.of(self.scores_b)
        return "\n".join([
            f"{self.deals} deals, each played twice with the sides swapped",
            f"  {a:<{width}}  {sa.mean:6.2f} ± {sa.half_width:.2f} points per deal (95% CI)",
            f"  {b:<{width}}  {sb.mean:6.2f} ± {sb.half_width:.2f} points per deal (95% CI)",
            f"  {a} − {b} per deal: {diff} (95% CI); "
            f"ahead on {wins}, behind on {losses}, level on {self.deals - wins - losses}",
        ])  # fmt: skip


def duplicate_match(
    game_id: str,
    make_a: BotFactory,
    make_b: BotFactory,
    deals: int,
    *,
    seed: str = "arena",
    options: Mapping[str, Any] | None = None,
    names: tuple[str, str] = ("A", "B"),
) -> DuplicateReport:
    """Play ``deals`` seeded deals twice each, bot A on North–South then on East–West.

    Each seat gets its own bot instance (partners share no memory: they talk
    only through the table), seeded from the deal, the play and the seat.
    Only partnership games with seats 0 & 2 against 1 & 3 are supported.
    """
    opts = dict(DEFAULT_OPTIONS.get(game_id, {}) if options is None else options)
    report = DuplicateReport(names)
    for deal in range(deals):
        deal_seed = f"{seed}/{deal}"
        diff = 0.0
        for play, a_side in enumerate((0, 1)):
            bots = [
                (make_a if seat % 2 == a_side else make_b)(
                    random.Random(f"{deal_seed}/{play}/{seat}")
                )
                for seat in range(4)
            ]
            scores = play_game(game_id, bots, deal_seed, opts, f"{deal_seed}/{play}")
            a_score, b_score = scores[a_side], scores[1 - a_side]
            report.scores_a.append(a_score)
            report.scores_b.append(b_score)
            diff += a_score - b_score
        report.differences.append(diff / 2)
    return report


def factory(name: str) -> BotFactory:
    """A bot factory from a ``--bots`` name (``random``, ``greedy``, ``signals``, mod:Class)."""
    spec = ALIASES.get(name, name)
    load_bot(spec)  # fail early on a bad name
    return lambda rng: load_bot(spec, rng)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(DEFAULT_OPTIONS), help="the game")
    parser.add_argument("--bots", default="signals,greedy", help="two bots, comma-separated")
    parser.add_argument("--deals", "--games", type=int, default=200, dest="deals",
                        help="deals, each played twice with the sides swapped")  # fmt: skip
    parser.add_argument("--seed", default="arena", help="seed of the deals and the bots")
    parser.add_argument("--rules", default=None, help="Concerto edition (parlett-2013, penguin)")


def cmd_arena(args: argparse.Namespace) -> int:
    """Run a duplicate match and print the report; 2 on a bad bot name."""
    names = args.bots.split(",")
    try:
        if len(names) != 2:
            raise ValueError("--bots takes exactly two names, e.g. signals,greedy")
        make_a, make_b = factory(names[0]), factory(names[1])
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    options = dict(DEFAULT_OPTIONS[args.game])
    if args.rules:
        options["rules"] = args.rules
    report = duplicate_match(
        args.game, make_a, make_b, args.deals, seed=args.seed, options=options,
        names=(names[0], names[1]),
    )  # fmt: skip
    print(f"{args.game} {options}")
    print(report.summary())
    return 0


def add_arena_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``arena`` to an ``add_subparsers()`` object (for ``parlour arena ...``)."""
    parser = subparsers.add_parser("arena", help="bots against bots locally, duplicate style")
    _arguments(parser)
    parser.set_defaults(func=cmd_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bots.arena", description="bots against bots, duplicate style"
    )
    _arguments(parser)
    return cmd_arena(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
