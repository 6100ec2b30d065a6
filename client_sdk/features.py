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

from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from server.games import REGISTRY, Game
from server.games.kit.base import BaseState

T = TypeVar("T")


class _OfEachGame(Mapping[str, T]):
    """One fact of each game of the registry, read from its :class:`~server.games.Game`
    record when asked for (a game registered later is there too)."""

    def __init__(self, fact: Callable[[Game], T]) -> None:
        self._fact = fact

    def __getitem__(self, game_id: str) -> T:
        game = REGISTRY.get(game_id)
        if game is None:
            raise KeyError(f"no game {game_id!r} (one of {', '.join(REGISTRY)})")
        return self._fact(game)

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY)

    def __len__(self) -> int:
        return len(REGISTRY)


ACTIONS: Mapping[str, tuple[Any, ...]] = _OfEachGame(lambda game: game.actions)
"""Each game's action space, the engine's own (``Game.actions``): the action id is the
place of an engine action (of ``legal_actions``) here, the same in every state."""

CARDS: Mapping[str, tuple[str, ...]] = _OfEachGame(lambda game: game.pack)
"""Each game's cards (``Game.pack``: each card once, low to high): the observation tensor
counts them."""

_CARD_PLACES: dict[str, tuple[tuple[str, ...], dict[str, int]]] = {}
"""Each game's pack and the place of each of its cards (built once per pack)."""


def _card_places(game_id: str) -> dict[str, int]:
    pack = CARDS[game_id]
    known = _CARD_PLACES.get(game_id)
    if known is None or known[0] is not pack:
        known = _CARD_PLACES[game_id] = (pack, {c: i for i, c in enumerate(pack)})
    return known[1]


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
    place = _card_places(game_id)
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
