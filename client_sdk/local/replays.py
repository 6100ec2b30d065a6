"""Replays played again: a finished game's moves found from its replay (:func:`moves_of`)
and made again through :func:`~.match.play_match` (:func:`replay_match`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..bot import Bot
from ..types import Move, View
from .match import LocalMatch, _engines, play_match

if TYPE_CHECKING:
    pass


SEARCH = 200_000
"""At most this many trial moves to find a replay's moves (:func:`moves_of`)."""


def moves_of(replay: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moves of a finished game's replay (``GET /v1/games/{id}/replay``, a line of
    ``parlour-bot archive``, or :func:`play_match`'s), in the order they were made.

    A replay records what each move did (its events), not the move: the engines'
    :func:`server.games.replayed.moves_of` deals again from the revealed seed and,
    version by version, tries the legal moves of the seats to move for one whose
    events are the replay's, going back where a move's events hide it until a
    later reveal (at most :data:`SEARCH` trial moves); the game must be over
    after the last version.

    Raises:
        EnginesMissing, ValueError: not a finished replay, or events no legal
            moves explain (a game ended by a forfeit, a replay edited).
    """
    games = _engines()
    found: list[dict[str, Any]] = games.replayed.moves_of(replay, budget=SEARCH)
    return found


class _Scripted(Bot):
    """Makes its seat's moves of a replay, in order."""

    def __init__(self, moves: list[Move]) -> None:
        super().__init__(random.Random(0))
        self.moves = moves

    def choose_move(self, view: View) -> Move:
        return self.moves.pop(0)


def replay_match(replay: Mapping[str, Any]) -> LocalMatch:
    """Play a finished game's replay again locally: the same game, seed, options and
    moves (:func:`moves_of`) through :func:`play_match`, each seat named as in the
    replay. Its ``replay`` is the given one but for the ``id`` and the seats' players
    (and a ``timeout`` event where the server's move clock moved for a seat).

    Raises:
        EnginesMissing, ValueError: as :func:`moves_of`.
    """
    moves = moves_of(replay)
    seats = replay["seats"]
    bots: list[Bot] = [
        _Scripted([m["move"] for m in moves if m["seat"] == s]) for s in range(len(seats))
    ]
    return play_match(
        replay["game"],
        bots,
        seed=replay["revealed"]["seed"],
        options=replay["options"],
        names=[str(seat.get("name") or seat["seat"]) for seat in seats],
        game_id=replay["id"],
    )
