"""``flat_mc``: any game of the registry, by flat Monte Carlo over the engines.

It knows no rules of its own. On its turn, with more than one legal move, it
builds a world from its view (``from_view``: what it cannot see dealt at random,
consistently with what it has seen; docs/engines.md, "A world from a view") and
draws more worlds from that one (``determinize``). In every world it tries every
legal move, then lets every seat play at random to the end of the deal, and
plays the move whose rollouts scored best on average:

* **the random policy is kind-uniform** (``legal_actions_by_kind``): a kind of
  move first, then an action of it, so a "pass" or a bid is not drowned by the
  thirteen cards beside it;
* **a rollout ends with the deal** (the engines' ``deal_number`` moves on) or the
  game, or after :data:`STEP_CAP` actions for a game that counts no deals: deals
  are what the scores are made of, and playing further adds noise and time;
* **a rollout scores** the bot's seat score minus the best opponent's
  (``seat_scores``; in partnership games, ``Game.two_sides``, a seat shows its
  side's score and the partner is no opponent), so a move counts for what it
  gains over the field, whatever the game's points are worth;
* **common random numbers**: every candidate move is tried in the same worlds,
  each with the same random rollout seed, so the comparison sees the moves'
  differences and not the luck of the draws.

A decision takes ``budget_ms`` (100 ms by default): at least ``min_worlds``
worlds, then more while the budget lasts, at most ``max_worlds``. With
``min_worlds == max_worlds`` the clock plays no part, and the same ``rng``
gives the same moves.

Run it: ``python -m bots.flat_mc --server URL --token T [--budget-ms 100]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from client_sdk import Bot
from client_sdk.cli import bot_main
from client_sdk.types import Move, View
from server.games import REGISTRY
from server.games.kit.base import BaseState

DEFAULT_BUDGET_MS = 100.0
MIN_WORLDS = 4
MAX_WORLDS = 1000
STEP_CAP = 2000
"""Actions at most in one rollout (every game of the registry ends a deal well before)."""


def rollout(world: BaseState, rng: random.Random, deal: Any) -> None:
    """Play ``world`` on at random (kind-uniform) until its deal is no longer ``deal``."""
    for _ in range(STEP_CAP):
        seats = world.to_move()
        if not seats or getattr(world, "deal_number", None) != deal:
            return
        kinds = world.legal_actions_by_kind(seats[0])
        kind = kinds[rng.randrange(len(kinds))]
        world.apply_action(seats[0], kind[rng.randrange(len(kind))])


def margin(scores: Sequence[int], seat: int, two_sides: bool) -> int:
    """``seat``'s score minus the best opponent's (partners are no opponents).

    >>> margin([5, 9, 7], 0, False), margin([10, 4, 10, 4], 2, True)
    (-4, 6)
    """
    others = [
        s for j, s in enumerate(scores) if j != seat and not (two_sides and j % 2 == seat % 2)
    ]
    return scores[seat] - max(others)


class FlatMCBot(Bot):
    """Flat Monte Carlo: each legal move scored by random rollouts in sampled worlds.

    Args:
        rng: draws the worlds and the rollouts.
        budget_ms: time allowed per decision with more than one legal move.
        min_worlds: worlds always sampled, whatever the budget.
        max_worlds: worlds at most, however fast the rollouts.
    """

    name = "flat_mc"

    def __init__(self, rng: random.Random | None = None, budget_ms: float = DEFAULT_BUDGET_MS,
                 min_worlds: int = MIN_WORLDS, max_worlds: int = MAX_WORLDS) -> None:  # fmt: skip
        super().__init__(rng)
        self.budget_ms = budget_ms
        self.min_worlds = min_worlds
        self.max_worlds = max(min_worlds, max_worlds)
        self.last_worlds = 0
        """Worlds sampled for the latest searched decision (for measurements)."""

    def choose_move(self, view: View) -> Move:
        if len(view["legal_moves"]) == 1:
            return view["legal_moves"][0]
        deadline = time.perf_counter() + self.budget_ms / 1000
        game = REGISTRY[view["game"]]
        seat = view["you"]
        assert seat is not None  # a view with legal moves is a seated player's
        base = game.from_view(view["options"], view, seat, self.rng)
        actions = base.legal_actions(seat)
        deal = getattr(base, "deal_number", None)
        totals = [0] * len(actions)
        worlds = 0
        while worlds < self.max_worlds and (
            worlds < self.min_worlds or time.perf_counter() < deadline
        ):
            world = base if worlds == 0 else base.determinize(seat, self.rng)
            seed = self.rng.getrandbits(64)
            for i, action in enumerate(actions):
                trial = world.clone()
                trial.apply_action(seat, action)
                rollout(trial, random.Random(seed), deal)
                totals[i] += margin(trial.seat_scores(), seat, game.two_sides)
            worlds += 1
        self.last_worlds = worlds
        best = max(range(len(actions)), key=totals.__getitem__)
        return base.legal_moves(seat)[best]


def make_bot(rng: random.Random | None = None, budget_ms: float = DEFAULT_BUDGET_MS) -> FlatMCBot:
    return FlatMCBot(rng, budget_ms=budget_ms)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bots.flat_mc [--budget-ms MS] --server URL --token T``."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS,
                        help="time allowed per decision")  # fmt: skip
    args, rest = parser.parse_known_args(argv)
    return bot_main(lambda rng: make_bot(rng, args.budget_ms), rest)


if __name__ == "__main__":
    sys.exit(main())
