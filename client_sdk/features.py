"""What a learner sees of a game, without OpenSpiel: each game's fixed action space (the
engine's) and a cheap observation tensor. :mod:`client_sdk.spiel` and :mod:`client_sdk.zoo`
share them.

The tensor is the same for every game, built from the engine's view of one seat:

* ``hand``: how many of each card of the game's pack the seat holds;
* ``table``: how many times each card shows in the public part of the view
  (the trick on the table, the tricks played, shown melds...);
* ``seat`` and ``to_move``: one-hot over the seats;
* ``scores``: every seat's score, in hundreds;
* ``legal``: the seat's legal action ids (the action mask).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from server.games import REGISTRY
from server.games.kit.base import BaseState
from server.games.kit.cards import PINOCHLE, STANDARD

_STANDARD = list(STANDARD.low_to_high())
_PINOCHLE = list(PINOCHLE.low_to_high())

ACTIONS: dict[str, tuple[Any, ...]] = {g: game.actions for g, game in REGISTRY.items()}
"""Each game's action space, the engine's own (``Game.actions``): the action id is the
place of an engine action (of ``legal_actions``) here, the same in every state."""

CARDS = {"concerto": _STANDARD, "seconds": _STANDARD, "cowpoke": _STANDARD, "pinochle": _PINOCHLE}
"""Each game's cards (its pack, each card once): the observation tensor counts them."""

_CARD_PLACES = {g: {c: i for i, c in enumerate(cards)} for g, cards in CARDS.items()}


def parts(tensor: npt.NDArray[np.float32], game_id: str, seats: int) -> dict[str, Any]:
    """The named parts of an observation ``tensor`` (views of it, in its order)."""
    shapes = {"hand": len(CARDS[game_id]), "table": len(CARDS[game_id]), "seat": seats,
              "to_move": seats, "scores": seats, "legal": len(ACTIONS[game_id])}  # fmt: skip
    views, start = {}, 0
    for name, length in shapes.items():
        views[name] = tensor[start : start + length]
        start += length
    return views


def size(game_id: str, seats: int) -> int:
    """The length of a game's observation tensor at a table of ``seats``."""
    return 2 * len(CARDS[game_id]) + 3 * seats + len(ACTIONS[game_id])


def fill(views: Mapping[str, Any], game_id: str, engine: BaseState, seat: int) -> None:
    """Write ``seat``'s observation of ``engine`` into a zeroed tensor's ``views``."""
    place = _CARD_PLACES[game_id]
    for card in engine.hands[seat]:
        views["hand"][place[card]] += 1
    for card in _strings(engine.state_view(None)):
        if card in place:
            views["table"][place[card]] += 1
    views["seat"][seat] = 1
    for s in engine.to_move():
        views["to_move"][s] = 1
    views["scores"][:] = [score / 100 for score in engine.seat_scores()]
    views["legal"][engine.legal_action_ids(seat)] = 1


def _strings(data: Any) -> Iterator[str]:
    """Every string in JSON-like ``data``."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, Mapping):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from _strings(value)
