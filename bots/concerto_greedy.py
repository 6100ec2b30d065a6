"""``concerto_greedy``: each player builds the best hand it can from its own cards.

On its turn the bot looks at the cards already in the hand being built and
plays a card of the best five it could complete them to *from its own hand*
(docs/rules/concerto.md scoring, the contribution splits included). It never passes and
never calls 'Play', and it assumes nothing about its partner's cards: no
partnership cooperation, which is what the ``concerto_signals`` bot adds.

Run it: ``python -m bots.concerto_greedy --server URL --token T``.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

from client_sdk import Bot
from client_sdk.cli import bot_main
from client_sdk.types import Move, View

from ._concerto import best_completion, play, read_table


class GreedyBot(Bot):
    """Plays toward the best combination completable from its own cards."""

    name = "concerto_greedy"

    def choose_move(self, view: View) -> Move:
        table = read_table(view)
        _, cards = best_completion(table.current, table.hand, table.me, table.rules, table.need)
        return play(lead_card(cards))


def lead_card(cards: tuple[str, ...]) -> str:
    """Which of the chosen cards to play first: the heart of the combination.

    Cards of the most repeated rank (the pair, the threes) go first, then those
    of the longest suit, so a partner reading the table sees the point early.
    """
    ranks = Counter(c[0] for c in cards)
    suits = Counter(c[1] for c in cards)
    return max(cards, key=lambda c: (ranks[c[0]], suits[c[1]]))


def make_bot(rng: random.Random | None = None) -> GreedyBot:
    return GreedyBot(rng)


if __name__ == "__main__":
    sys.exit(bot_main(make_bot))
