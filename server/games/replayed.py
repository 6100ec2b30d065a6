"""A finished game's replay played again by the engine: its moves found from its events
(:func:`moves_of`) and the game as it stood at each version (:func:`states_of`).

The local runner (``parlour-bot replay``, :mod:`client_sdk.local.replays`) plays an
archived game again with these, and the server rebuilds a replay file's frames with
them (``POST /v1/replays/frames``, the web page that opens a file). Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from . import REGISTRY
from .kit.base import BaseState
from .record import stamped

SEARCH = 200_000
"""At most this many trial moves to find a replay's moves (:func:`moves_of`)."""


def moves_of(replay: Mapping[str, Any], *, budget: int = SEARCH) -> list[dict[str, Any]]:
    """The moves of a finished game's replay (``GET /v1/games/{id}/replay``, a line of
    the archive, or the local runner's), in the order they were made.

    A replay records what each move did (its events), not the move: the engine
    deals again from the revealed seed and, version by version, tries the legal
    moves of the seats to move for one whose events are the replay's (a move the
    move clock made for a seat, after its ``timeout`` event, counts as that
    seat's). A move whose events hide it (a card put out face down) is known only
    when a later event shows it, so the search goes back when a later version
    has no move (at most ``budget`` trial moves), and the game must be over
    after the last version.

    Raises:
        ValueError: not a finished replay of a registered game, or events no legal
            moves explain (a game ended by a forfeit, a replay edited), or the
            budget spent.
    """
    return [m for m, _ in _walk(replay, budget)]


def states_of(
    replay: Mapping[str, Any], *, budget: int = SEARCH
) -> list[tuple[dict[str, Any] | None, BaseState]]:
    """The replay's game at each version 0..``version``: the move that led there (None at
    version 0) and the state after it, rebuilt as :func:`moves_of` finds the moves.

    Raises:
        ValueError: as :func:`moves_of`.
    """
    walked = _walk(replay, budget)
    opening = _opening(replay)
    return [(None, opening), *walked]


def _opening(replay: Mapping[str, Any]) -> BaseState:
    if replay.get("status") != "finished" or not isinstance(replay.get("revealed"), Mapping):
        raise ValueError("only a finished game's replay holds its deal")
    engine = REGISTRY.get(str(replay.get("game")))
    seed = replay["revealed"].get("seed")
    if engine is None or not isinstance(seed, str):
        raise ValueError("not a replay of a game played here, or no seed revealed")
    try:
        return engine.new_state(dict(replay.get("options") or {}), seed)
    except Exception as exc:  # the engine's own refusal of options it does not know
        raise ValueError(f"the engine refuses this replay's options: {exc}") from None


def _walk(replay: Mapping[str, Any], budget: int) -> list[tuple[dict[str, Any], BaseState]]:
    state = _opening(replay)
    made: dict[int, list[Any]] = {}
    for event in replay.get("events") or []:
        if event.get("kind") != "timeout":  # the server's, not the engine's
            made.setdefault(event.get("version"), []).append(_event_key(event))
    last = replay.get("version")
    if not isinstance(last, int) or last < 0:
        raise ValueError("the replay has no version")
    left = [budget]
    path: list[tuple[dict[str, Any], BaseState]] = []
    levels = [_moves_making(state, made.get(1, []), 1, left)]
    while True:
        if len(path) == last:
            if (path[-1][1] if path else state).is_over():
                return path
            if not path:
                raise ValueError("no legal moves make this replay's events")
            path.pop()  # all versions explained, yet the game goes on: go back
            continue
        try:
            found = next(levels[-1])
        except StopIteration:
            levels.pop()
            if not path:
                raise ValueError("no legal moves make this replay's events") from None
            path.pop()
            continue
        path.append(found)
        if len(path) < last:
            version = len(path) + 1
            levels.append(_moves_making(found[1], made.get(version, []), version, left))


def _as_sent(data: Any) -> Any:
    """``data`` as read off the wire: JSON types only (lists, not tuples)."""
    return json.loads(json.dumps(data))


def _event_key(event: Mapping[str, Any]) -> Any:
    return _as_sent({k: event.get(k) for k in ("version", "kind", "data", "visible_to")})


def _moves_making(
    state: BaseState, wanted: list[Any], version: int, left: list[int]
) -> Iterator[tuple[dict[str, Any], BaseState]]:
    """Each ``{"seat", "move"}`` whose events at ``version`` are ``wanted``, with the
    state after it; ``left[0]`` counts the trials left.

    Raises:
        ValueError: the budget is spent.
    """
    for seat in state.to_move():
        for move in state.legal_moves(seat):
            left[0] -= 1
            if left[0] < 0:
                raise ValueError("too many trial moves to find this replay's moves: give up")
            after = state.clone()
            events = after.apply(seat, move)
            if [_event_key(stamped(e, version)) for e in events] == wanted:
                yield {"seat": seat, "move": state.normalize_move(move)}, after
