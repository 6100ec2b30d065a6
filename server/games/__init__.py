"""Pure rules engines: no I/O, no clock, no global randomness.

The registry is explicit: a game is playable exactly when it is listed here. Its
:class:`Game` record carries every fact the rest of the server needs about it (seats,
sides, house bots), so that code outside ``server.games`` names no game.
"""

from . import concerto, cowpoke, pinochle, seconds
from .kit.base import (
    ANY_GAME_BOTS,
    BaseState,
    Event,
    Game,
    GameError,
    GameOver,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    MalformedMove,
    NotYourTurn,
    Outcome,
    Termination,
    visible,
)

REGISTRY: dict[str, Game] = {
    concerto.GAME.id: concerto.GAME,
    seconds.GAME.id: seconds.GAME,
    cowpoke.GAME.id: cowpoke.GAME,
    pinochle.GAME.id: pinochle.GAME,
}


def find_game(game_id: str) -> Game:
    """The registered game, or KeyError."""
    return REGISTRY[game_id]


__all__ = [
    "ANY_GAME_BOTS",
    "REGISTRY",
    "find_game",
    "BaseState",
    "Event",
    "Game",
    "GameError",
    "GameOver",
    "IllegalMove",
    "InvalidDeal",
    "InvalidOptions",
    "MalformedMove",
    "NotYourTurn",
    "Outcome",
    "Termination",
    "visible",
]
