"""Every error a use case can raise, in one place for the API's error table.

The use-case errors are defined here (a feature may subclass one for its own
message, such as ``visitors.TablesFull``, a :class:`RateLimited`: the API's
table is looked up along the class hierarchy). The engines' refusals (an illegal
move, bad options...) and the store's typed outcomes that a caller must see as
such (a stale version, a taken seat, closed entries...) pass through the
services unchanged and are re-exported here, as are the Redis client's
connection errors (``StorageUnavailable``, ``StorageTimeout``): so the API maps
every exception to a status without importing the engines, the store or Redis.
Messages and ``details`` never name hidden cards.
"""

from __future__ import annotations

import math
from typing import Any

from redis.exceptions import ConnectionError as StorageUnavailable
from redis.exceptions import TimeoutError as StorageTimeout

from server.games import (
    GameOver,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    MalformedMove,
    NotYourTurn,
)
from server.store.errors import (
    AlreadySeated,
    GameMissing,
    GameStarted,
    NoOpenSeat,
    SeatHeld,
    SeatNotYours,
    SeatOpen,
    SeatTaken,
    StaleVersion,
    StoreError,
)
from server.store.tournaments import (
    AlreadyEntered,
    EntriesClosed,
    TournamentMissing,
    WrongEntrySize,
)

__all__ = [
    "AlreadyEntered",
    "AlreadySeated",
    "BoardInPlay",
    "CannotStart",
    "Contention",
    "DeadlinePassed",
    "EntriesClosed",
    "Forbidden",
    "GameMissing",
    "GameNotFinished",
    "GameNotStarted",
    "GameStarted",
    "InvalidRequest",
    "InvitationExpired",
    "InvitationRefused",
    "InvitationsPending",
    "NoOpenSeat",
    "NotFound",
    "RateLimited",
    "SeatHeld",
    "SeatNotYours",
    "SeatOpen",
    "SeatTaken",
    "ServiceError",
    "StaleVersion",
    "StorageTimeout",
    "StorageUnavailable",
    "StoreError",
    "TournamentMissing",
    "Unauthorized",
    "UnknownBot",
    "UnplayableFormat",
    "GameOver",
    "IllegalMove",
    "InvalidDeal",
    "InvalidOptions",
    "MalformedMove",
    "NotYourTurn",
    "TooManyInvitations",
    "WrongEntrySize",
]


class ServiceError(Exception):
    """Base of the use-case errors. ``details`` never names hidden cards."""

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class InvalidRequest(ServiceError):
    """Well-formed JSON whose content the service cannot accept (400)."""


class UnplayableFormat(InvalidRequest):
    """A format the game cannot be played in (422 ``unplayable_format``): refused when the
    tournament is created, rather than failing or meaning nothing once it runs."""


class UnknownBot(InvalidRequest):
    """A ``"bot:<name>"`` seat that the bot pool does not play (or not in this game), 400.

    ``problems`` maps each such seat (as a string) to what is wrong with it.
    """

    def __init__(self, problems: dict[str, str]) -> None:
        super().__init__("no such bot in the server's bot pool", {"seats": problems})
        self.problems = problems


class Unauthorized(ServiceError):
    """Missing or unknown token (401)."""


class Forbidden(ServiceError):
    """A known caller asking for something it may not do (403)."""


class BoardInPlay(Forbidden):
    """A table of a duplicate board whose cards stay hidden until every table of the
    board is over (403, docs/api.md#duplicate-boards)."""


class NotFound(ServiceError):
    """No such game or player (404)."""


class GameNotStarted(ServiceError):
    """Moves wait until every seat is taken (409)."""


class GameNotFinished(ServiceError):
    """Replay frames (every hand at every step) open only once the game is over (409)."""


class DeadlinePassed(ServiceError):
    """The seat's move deadline passed before its move arrived (409): the clock's
    timeout policy decides that move now, not the player."""


class CannotStart(ServiceError):
    """The tournament cannot start as entered (409): too few entries, or no pairing."""


class Contention(ServiceError):
    """A rating kept changing under a compare-and-set after every retry (503-like; the
    scheduler simply tries again on its next pass)."""


class RateLimited(ServiceError):
    """Too many requests from one token in one window (429); ``retry_after`` in whole
    seconds, at least one."""

    def __init__(self, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(
            f"too many requests: try again in {wait_in_words(seconds)}", {"retry_after": seconds}
        )
        self.retry_after = seconds


def wait_in_words(seconds: int) -> str:
    """How long to wait, as a person reads it (the web shows error messages as they are).

    >>> wait_in_words(1), wait_in_words(45), wait_in_words(445), wait_in_words(3600)
    ('1 second', '45 seconds', '8 minutes', '60 minutes')
    """
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


# -- consent (docs/api.md#consent-and-invitations) -----------------------------------------
class InvitationsPending(ServiceError):
    """A game or tournament cannot start while a seat or entry waits for its player to
    accept an invitation (409); ``details`` names who is still to answer."""


class InvitationExpired(ServiceError):
    """The invitation expired before it was accepted; its seat or entry was freed (409)."""


class TooManyStreams(ServiceError):
    """The caller already holds as many open streams and long-polls as it may (429,
    ``too_many_streams``); ``retry_after`` in whole seconds, at least one."""

    def __init__(self, cap: int, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(
            f"too many open streams and long-polls: at most {cap} at once; close one first",
            {"limit": cap, "retry_after": seconds},
        )
        self.retry_after = seconds


class TooManyInvitations(ServiceError):
    """The inviter has as many open invitations as the server allows (409
    ``too_many_invitations``); nothing was created. They free up as they are answered
    or expire."""


class InvitationRefused(ServiceError):
    """A named player cannot take this invitation now (409 ``invitation_refused``):
    their inbox is full, or they do not take invitations from this inviter. The two
    are told apart to nobody; nothing was created and nothing reached that player."""


class SandboxUnavailable(ServiceError):
    """Hosted bots cannot be run here: no live sandbox worker says its host can sandbox
    (503 ``sandbox_unavailable``); nothing was created. ``details["reasons"]`` are the
    workers' own words on why not (docs/sandbox.md, for operators)."""
