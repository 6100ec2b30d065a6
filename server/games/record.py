"""A game's record as the API shows it: seat views, events and the replay.

The server (``server.services.views``, ``server.services.replays``) and the local
runner (``parlour-bot play``, :mod:`client_sdk.local`) both build what a bot and a
replay reader see with these functions, so a local match shows exactly what the
server shows: the same view for every seat at every step, the same replay JSON.
Pure: no I/O, no clock; the callers pass the game's record fields.

>>> deal_commitment("abc")[:16]
'ba7816bf8f01cfea'
>>> default_move([{"type": "play", "card": "QS"}, {"type": "pass"}])
{'type': 'pass'}
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .analysis import par_of
from .kit.base import BaseState, Event, Seat, visible

RANKS = "23456789TJQKA"
"""Low to high, to pick "the lowest legal card" without knowing the game.

The rank order of the engines' card strings (rank then suit: ``"TS"`` is the
ten of spades). A game with another order (Pinochle's ``9 J Q K T A``) still
gets its 9 first; only a ten against a J/Q/K is judged differently, which a
default move may live with.
"""


def default_move(legal_moves: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The move a timed-out seat makes: pass where legal, else the lowest card, else the first.

    "Lowest card" is the lowest rank (:data:`RANKS`) among the legal moves that
    carry a ``card``; ties go to the earlier move in the engine's list. The
    server's move clock and the local runner's time limit both use it.

    >>> default_move([{"type": "play", "card": "QS"}, {"type": "play", "card": "9H"},
    ...               {"type": "play", "card": "9C"}])
    {'type': 'play', 'card': '9H'}
    >>> default_move([{"type": "call"}, {"type": "fold"}])
    {'type': 'call'}

    Raises:
        ValueError: no legal move at all (the seat is not to move).
    """
    if not legal_moves:
        raise ValueError("no legal move to default to")
    for move in legal_moves:
        if move.get("type") == "pass":
            return dict(move)
    cards = [m for m in legal_moves if isinstance(m.get("card"), str) and m["card"]]
    if cards:
        return dict(min(cards, key=lambda m: RANKS.find(m["card"][0])))
    return dict(legal_moves[0])


def deal_commitment(seed: str) -> str:
    """The published hash of a game's seed material: SHA-256 hex of the seed's UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()


def stamped(event: Event, version: int) -> dict[str, Any]:
    """An engine event as stored, stamped with the version that made it."""
    return event.to_dict() | {"version": version}


def event_out(
    number: int, event: Mapping[str, Any], *, with_audience: bool = False
) -> dict[str, Any]:
    """A stored event as the API shows it (its audience only in a finished game's replay)."""
    out = {"seq": number, "version": event["version"], "kind": event["kind"], "data": event["data"]}
    if with_audience:
        out["visible_to"] = event["visible_to"]
    return out


def header(
    *,
    game_id: str,
    game: str,
    options: Mapping[str, Any],
    status: str,
    version: int,
    seats: list[dict[str, Any]],
    deal_commitment: str,
) -> dict[str, Any]:
    """What every game resource starts with (the view, the replay): all public."""
    return {
        "id": game_id,
        "game": game,
        "options": options,
        "status": status,
        "version": version,
        "seats": seats,
        "deal_commitment": deal_commitment,
    }


def seat_view(
    head: Mapping[str, Any],
    state: BaseState,
    seat: Seat | None,
    *,
    result: dict[str, Any] | None,
    deadline: str | None = None,
) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator's): the engine's view under the game's header.

    While the game waits for its players, ``seat`` is only ``you``: the view
    shown is the spectator's. Nobody learns a card of the deal before every seat
    of it is final: while a game waits, seats change hands. A game waiting or
    aborted has nobody to move.
    """
    status = head["status"]
    shown = state.view(None if status == "waiting" else seat)
    if status in ("waiting", "aborted"):
        shown["to_move"], shown["legal_moves"] = [], []  # nobody moves: not started, or stopped
    shown["result"] = result
    return {**head, "you": seat, "deadline": deadline, **shown}


COMPUTE: Any = object()
"""``replay(par=COMPUTE)``: work the par out from the events (the local runner)."""


def replay(
    head: Mapping[str, Any],
    state: BaseState,
    events: Iterable[tuple[int, Mapping[str, Any]]],
    *,
    result: dict[str, Any] | None,
    par: Any = COMPUTE,
) -> dict[str, Any]:
    """A game's replay: the public record while it is played; everything once finished.

    ``events`` are the stored events (:func:`stamped`) with their numbers, oldest
    first. A finished game's replay shows every event with its audience, the
    state's :meth:`~server.games.BaseState.reveal` (hands, the seed) and the
    game's par: ``par`` as given (the server stores each game's once), else
    :func:`server.games.analysis.par_of` of the events; before that, the public
    events only.
    """
    finished = head["status"] == "finished"
    stored = list(events)
    if finished and par is COMPUTE:
        par = par_of(head["game"], head["options"], [e for _, e in stored])
    return {
        **head,
        "events": [
            event_out(n, e, with_audience=finished)
            for n, e in stored
            if finished or visible(Event.from_dict(e), None)
        ],
        "result": result,
        "revealed": state.reveal() if finished else None,
        # per-game analysis of the full record (Concerto: each deal's par)
        "par": par if finished else None,
    }
