"""What the two queues of turns played elsewhere share: a callback bot's (the dispatcher,
:mod:`.callback_dispatch`) and a hosted bot's (the sandbox workers, :mod:`.hosted`).

A queued turn names a game, a version, a seat and the player who holds it. Before it
is played it is read again (:func:`current_turn`): it may be stale (the game moved on,
ended or is gone, the seat changed hands, the seat is not to move) or early (the
game's clock not armed for this version yet). The answer is played with the turn's
version, compare-and-set (:func:`play_answer`), so a turn answered twice moves once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from server.games import BaseState
from server.services import views
from server.services.core import Core, Read
from server.services.errors import (
    DeadlinePassed,
    Forbidden,
    GameOver,
    IllegalMove,
    MalformedMove,
    NotFound,
    NotYourTurn,
    ServiceError,
    StaleVersion,
    Unauthorized,
)
from server.services.games import Games

LATER = "later"
"""A turn whose game's clock is not armed for its version yet: leave it, take it again."""


class QueuedTurn(Protocol):
    """A queued turn's place: what both queues' jobs name."""

    @property
    def game_id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def player_id(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Current:
    """A queued turn that is still the turn: the game as read (for the move, so it is not
    read twice), the seat's view of it and the moment the answer must be in by."""

    read: Read
    state: BaseState
    turn: dict[str, Any]
    limit: float


def current_turn(
    core: Core, job: QueuedTurn, now: float, max_seconds: float
) -> Current | str | None:
    """``job`` read again: :class:`Current`; None when it is stale (ack it); :data:`LATER`
    while the game's clock is not armed for its version. ``limit`` is ``now +
    max_seconds``, or the seat's deadline on the game's clock when that comes first."""
    try:  # the game, its clock and the player in one round trip
        read = core.read_as(job.player_id, job.game_id)
    except (Unauthorized, NotFound):  # the player or the game is gone
        return None
    record = read.game
    if record.status != "active" or record.version != job.version:
        return None
    if views.holder(record, job.seat) != job.player_id:
        return None
    state = views.state_of(record)
    if job.seat not in state.to_move():
        return None
    clock = core.clock(record)
    if clock is not None and clock.version < record.version:
        return LATER
    turn = views.turn(record, state, job.seat, clock)
    limit = now + max_seconds
    deadline = clock.deadlines.get(job.seat) if clock is not None else None
    if deadline is not None:
        limit = min(limit, deadline)
    return Current(read, state, turn, limit)


def play_answer(
    games: Games,
    job: QueuedTurn,
    move: Any,
    prepared: list[tuple[Read, BaseState]],
) -> tuple[str, Exception | None]:
    """Play the answered ``move`` with the turn's version: the first time over the game
    as :func:`current_turn` read it (popped from ``prepared``), a retry over a fresh read.

    Returns:
        ``("moved", None)``; ``("stale", None)``: the turn was answered already (by the
        player another way, by an earlier attempt, by the clock), or ``("stale",
        refusal)``: it is no turn now (not started, invitations pending); ``("late",
        None)``: the deadline passed; ``("refused_move", refusal)``: the engine refused
        it. ``refusal`` is the exception, named by the API's error code by the caller.
    """
    read, state = prepared.pop() if prepared else (None, None)
    try:
        games.move_as(job.player_id, job.game_id, move, job.version, job.seat, read, state)
    except (StaleVersion, GameOver, NotYourTurn, Forbidden, NotFound, Unauthorized):
        return "stale", None
    except DeadlinePassed:
        return "late", None
    except (IllegalMove, MalformedMove) as exc:
        return "refused_move", exc
    except ServiceError as exc:  # not started, invitations pending: the turn is not one
        return "stale", exc
    return "moved", None
