"""The ``random`` bot: any game, a uniformly random choice among ``view["legal_moves"]``.

The module is ``bots.uniform`` (not ``bots.random``, which would shadow the
standard library's ``random`` inside the package); users still name it ``random``.
The baseline every other bot must beat, and a smoke test for a new game: it
plays whatever the server says is legal and knows no rules at all.

Run it: ``python -m bots.uniform --server http://127.0.0.1:8000 --token T``.
"""

from __future__ import annotations

import random
import sys

from client_sdk import Bot
from client_sdk.cli import bot_main
from client_sdk.types import Move, View


class RandomBot(Bot):
    """Uniform over the legal moves, drawn from the injected ``rng``."""

    name = "random"

    def choose_move(self, view: View) -> Move:
        return self.rng.choice(view["legal_moves"])


def make_bot(rng: random.Random | None = None) -> RandomBot:
    return RandomBot(rng)


if __name__ == "__main__":
    sys.exit(bot_main(make_bot))
