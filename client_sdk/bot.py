"""The ``Bot`` base class: a bot is one method, ``choose_move(view) -> move``.

>>> class FirstMove(Bot):
...     def choose_move(self, view):
...         return view["legal_moves"][0]
>>> FirstMove().choose_move({"legal_moves": [{"type": "pass"}]})
{'type': 'pass'}

A bot sees only what its seat may see: the view the server sends (or, in a
local arena, the same view built by the pure engine). It never gets the full
game state, so a bot cannot cheat by accident.
"""

from __future__ import annotations

import random
from typing import ClassVar

from .types import Move, View


class Bot:
    """Subclass this and implement :meth:`choose_move`; the hooks are optional.

    Args:
        rng: the bot's only source of randomness. Inject a seeded
            ``random.Random`` to make a bot reproducible (tests, the arena);
            never use the global ``random`` functions in a bot.
    """

    name: ClassVar[str] = "bot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def choose_move(self, view: View) -> Move:
        """The move to make in ``view``; must be one of ``view["legal_moves"]``.

        Called only when the bot's seat is to move, so ``legal_moves`` is
        present and non-empty.
        """
        raise NotImplementedError

    def on_game_start(self, view: View) -> None:
        """Called once per game, with the first view the bot is asked to act on."""

    def on_game_over(self, view: View) -> None:
        """Called once per game the bot played, with the finished game's view."""
