"""Replays played again: a finished game's moves found from its replay (:func:`moves_of`)
and made again through :func:`~.match.play_match` (:func:`replay_match`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..bot import Bot
from ..types import Move, View
from .match import LocalMatch, _as_sent, _engines, play_match

if TYPE_CHECKING:
    from server.games import BaseState


SEARCH = 200_000
"""At most this many trial moves to find a replay's moves (:func:`moves_of`)."""


def moves_of(replay: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moves of a finished game's replay (``GET /v1/games/{id}/replay``, a line of
    ``parlour-bot archive``, or :func:`play_match`'s), in the order they were made.

    A replay records what each move did (its events), not the move: the engine
    deals again from the revealed seed and, version by version, tries the legal
    moves of the seats to move for one whose events are the replay's (a move the
    move clock made for a seat, after its ``timeout`` event, counts as that
    seat's). A move whose events hide it (a card put out face down) is known only
    when a later event shows it, so the search goes back when a later version
    has no move (at most :data:`SEARCH` trial moves), and the game must be over
    after the last version.

    Raises:
        EnginesMissing, ValueError: not a finished replay, or events no legal
            moves explain (a game ended by a forfeit, a replay edited).
    """
    games = _engines()
    if replay.get("status") != "finished" or not replay.get("revealed"):
        raise ValueError("only a finished game's replay holds its deal")
    engine = games.REGISTRY[replay["game"]]
    state: BaseState = engine.new_state(dict(replay["options"]), replay["revealed"]["seed"])
    made: dict[int, list[Any]] = {}
    for event in replay["events"]:
        if event["kind"] != "timeout":  # the server's, not the engine's
            made.setdefault(event["version"], []).append(_event_key(event))
    last: int = replay["version"]
    budget = [SEARCH]
    path: list[dict[str, Any]] = []
    states = [state]
    levels = [_moves_making(state, made.get(1, []), 1, budget)]
    while True:
        if len(path) == last:
            if states[-1].is_over():
                return path
            path.pop()  # all versions explained, yet the game goes on: go back
            states.pop()
            continue
        try:
            move, after = next(levels[-1])
        except StopIteration:
            levels.pop()
            if not path:
                raise ValueError("no legal moves make this replay's events") from None
            path.pop()
            states.pop()
            continue
        path.append(move)
        states.append(after)
        if len(path) < last:
            version = len(path) + 1
            levels.append(_moves_making(after, made.get(version, []), version, budget))


def _event_key(event: Mapping[str, Any]) -> Any:
    return _as_sent({k: event[k] for k in ("version", "kind", "data", "visible_to")})


def _moves_making(
    state: BaseState, wanted: list[Any], version: int, budget: list[int]
) -> Iterator[tuple[dict[str, Any], BaseState]]:
    """Each ``{"seat", "move"}`` whose events at ``version`` are ``wanted``, with the
    state after it; ``budget[0]`` counts the trials left.

    Raises:
        ValueError: the budget is spent.
    """
    record = _engines().record
    for seat in state.to_move():
        for move in state.legal_moves(seat):
            budget[0] -= 1
            if budget[0] < 0:
                raise ValueError(f"more than {SEARCH} trial moves: give up")
            after = state.clone()
            events = after.apply(seat, move)
            if [_event_key(record.stamped(e, version)) for e in events] == wanted:
                yield {"seat": seat, "move": state.normalize_move(move)}, after


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
