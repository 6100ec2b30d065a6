"""What the replay of a finished game adds: per-game analyses, once every card is public.

The registry is explicit, like ``REGISTRY``: a game listed here gets a ``par``
in the replay of its finished games (openapi ``Replay.par``); every other game
gets ``null``. An analyser reads the game's options and its full event record
(each event as stored: ``{"kind", "data", ...}``, private ones included), so
it must only ever be called once the game is over and everything is revealed.

>>> par_of("seconds", {}, []) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from server.games import concerto

from . import concerto_par

Analyser = Callable[[Mapping[str, Any], Iterable[Mapping[str, Any]]], Any]

PAR: dict[str, Analyser] = {
    concerto.GAME.id: concerto_par.replay_par,  # double-dummy bounds of each deal
}


def seat_par(game_id: str, par: Any, seats: int) -> list[float] | None:
    """Each seat's par over the game, one number a seat (None: the game has no par).

    Concerto: a side's ``max_hands`` summed over the deals, both partners alike
    (seats 0 and 2 are NS). What a match subtracts from a seat's score when it is
    par-adjusted (the paired differences :mod:`.sprt` judges).

    >>> seat_par("concerto", [{"NS": {"max_hands": 38}, "EW": {"max_hands": 42}}], 4)
    [38.0, 42.0, 38.0, 42.0]
    """
    if game_id != concerto.GAME.id or not isinstance(par, list):
        return None
    sides = [math.fsum(float(d[side]["max_hands"]) for d in par) for side in ("NS", "EW")]
    return [sides[s % 2] for s in range(seats)]


def par_of(game_id: str, options: Mapping[str, Any],
           events: Iterable[Mapping[str, Any]]) -> Any | None:  # fmt: skip
    """The game's par from its full record, or None for a game without one."""
    analyser = PAR.get(game_id)
    return None if analyser is None else analyser(options, events)
