"""A replay file's frames: the game of a replay a client holds (a file written by
``parlour-bot play``, a line of the archive) played again by the engine, as
``GET /v1/games/{id}/replay/{version}`` shows a finished game of this server.

Nothing is stored or looked up: the frames come from the file alone (its seed, options
and events; :mod:`server.games.replayed` finds the moves), so they show what the
file's own ``revealed`` and events already tell whoever holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.games import record as shown_record
from server.games import replayed
from server.services.errors import InvalidRequest

SEARCH = 20_000
"""At most this many trial moves per request to find the file's moves (a game whose
events show its moves needs one trial per legal move; the SDK allows more offline)."""

LABEL = 100
"""A seat's player id and name are cut to this many characters."""


def frames(replay: Mapping[str, Any], first: int, count: int) -> dict[str, Any]:
    """The frames ``first`` .. ``first + count - 1`` (those that exist) of ``replay``.

    Each frame is as the finished game's frame endpoint answers: the spectator's view
    and every seat's at that version, and the move that led there.

    Raises:
        InvalidRequest: not a finished replay of a game played here, events no legal
            moves explain, too many trial moves, or ``first`` past its last version.
    """
    try:
        states = replayed.states_of(replay, budget=SEARCH)
    except ValueError as exc:
        raise InvalidRequest(f"this replay cannot be played again: {exc}", {}) from None
    last = len(states) - 1
    if first > last:
        raise InvalidRequest("no such version", {"first": [f"0..{last}"]})
    num_seats = states[0][1].num_seats
    given = [s for s in replay.get("seats") or [] if isinstance(s, Mapping)]
    head = {
        "id": str(replay.get("id", ""))[:LABEL],
        "game": replay["game"],
        "options": replay.get("options") or {},
        "seats": [_seat(given[n] if n < len(given) else {}, n) for n in range(num_seats)],
        "deal_commitment": shown_record.deal_commitment(replay["revealed"]["seed"]),
    }
    out = []
    for version in range(first, min(last, first + count - 1) + 1):
        move, state = states[version]
        outcome = state.outcome()
        result = None if outcome is None else outcome.to_dict()
        at = {**head, "status": "finished" if state.is_over() else "active", "version": version}
        out.append(
            {
                "id": head["id"],
                "version": version,
                "last_version": last,
                "move": move,
                "public": shown_record.seat_view(at, state, None, result=result),
                "views": [
                    shown_record.seat_view(at, state, s, result=result) for s in range(num_seats)
                ],
            }
        )
    return {"last_version": last, "frames": out}


def _seat(given: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """A seat as the file names it (its player id and name as strings, cut short)."""
    player, name = given.get("player_id"), given.get("name")
    return {
        "seat": seat,
        "player_id": None if player is None else str(player)[:LABEL],
        "name": None if name is None else str(name)[:LABEL],
    }
