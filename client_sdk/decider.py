"""The :class:`Decider`: the one path from a turn's view to a bot's move, shared by the
runner and the callback endpoint."""

from __future__ import annotations

import threading
from collections import OrderedDict

from .bot import Bot
from .types import Move, View


class Decider:
    """The one path from a turn's view to the bot's move, whichever way the turn came.

    The runner (turns it reads from the server) and the callback endpoint
    (:mod:`client_sdk.endpoint`: turns the server posts to it) both ask the bot
    through this, so one :class:`~client_sdk.Bot` plays the same either way:
    ``on_game_start`` once, with the first view of a game it is asked about, then
    ``choose_move`` per turn; ``on_game_over`` once, if the game's end is heard of
    (the runner hears it; a callback endpoint is only called for turns).

    The bot is asked one call at a time (a lock), as the runner asks it, so a bot
    need not be thread-safe when a threaded endpoint serves it. The games begun are
    remembered up to ``remember`` (oldest forgotten first: an endpoint never hears
    of a game's end), so memory stays bounded over weeks of play.

    Examples:
        >>> class First(Bot):
        ...     def choose_move(self, view):
        ...         return view["legal_moves"][0]
        ...     def on_game_start(self, view):
        ...         print("start", view["id"])
        >>> decider = Decider(First())
        >>> decider.move("g1", {"id": "g1", "legal_moves": [{"type": "pass"}]})
        start g1
        {'type': 'pass'}
        >>> decider.move("g1", {"id": "g1", "legal_moves": [{"type": "play", "card": "2C"}]})
        {'type': 'play', 'card': '2C'}
        >>> decider.finish("g1", {"id": "g1", "status": "finished"})  # on_game_over: not defined
        >>> decider.start("g1", {"id": "g1"})  # a game id seen again after its end: a new game
        start g1
        True
    """

    def __init__(self, bot: Bot, *, remember: int = 1024) -> None:
        self.bot = bot
        self.remember = remember
        self._begun: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.RLock()

    def start(self, game_id: str, view: View) -> bool:
        """Tell the bot a game begins (``on_game_start``) unless it was told already;
        whether it was told now."""
        with self._lock:
            if game_id in self._begun:
                return False
            self._begun[game_id] = None
            while len(self._begun) > self.remember:
                self._begun.popitem(last=False)
            self.bot.on_game_start(view)
            return True

    def move(self, game_id: str, view: View) -> Move:
        """The bot's move in ``view`` (a turn of ``game_id``), the game started first."""
        with self._lock:
            self.start(game_id, view)
            return self.bot.choose_move(view)

    def finish(self, game_id: str, view: View) -> None:
        """Tell the bot a game it began is over (``on_game_over``), once."""
        with self._lock:
            if game_id in self._begun:
                del self._begun[game_id]
                self.bot.on_game_over(view)
