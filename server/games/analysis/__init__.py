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

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from server.games import concerto

from . import concerto_par

Analyser = Callable[[Mapping[str, Any], Iterable[Mapping[str, Any]]], Any]

PAR: dict[str, Analyser] = {
    concerto.GAME.id: concerto_par.replay_par,  # double-dummy bounds of each deal
}


def par_of(game_id: str, options: Mapping[str, Any],
           events: Iterable[Mapping[str, Any]]) -> Any | None:  # fmt: skip
    """The game's par from its full record, or None for a game without one."""
    analyser = PAR.get(game_id)
    return None if analyser is None else analyser(options, events)
