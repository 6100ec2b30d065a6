"""Typed errors of the Parlour API, chosen by the error ``code`` in one table.

Every non-2xx answer of the API carries ``{"error": {"code", "message",
"details"}}`` (the error envelope of openapi.yaml). :func:`error_from_response` turns it into an
instance of the class :data:`ERRORS_BY_CODE` names for that ``code``, so a bot
writes ``except StaleVersion`` instead of comparing status numbers and strings.
A code this SDK does not know yet still raises a :class:`ParlourError` with
every field filled in, so a newer server never breaks an older client.

>>> err = error_from_body(409, {"error": {"code": "stale_version", "message": "stale",
...                                       "details": {"version": 7}}})
>>> type(err).__name__, err.status, err.details["version"]
('StaleVersion', 409, 7)
>>> isinstance(err, Conflict)
True
"""

from __future__ import annotations

import builtins
import email.utils
import time
from collections.abc import Mapping
from typing import Any


class ParlourError(Exception):
    """Base of every error the SDK raises.

    Attributes:
        status: HTTP status, or ``None`` when no response arrived at all.
        code: the API's error code (``"stale_version"``, ...), or a local one
            such as ``"connection_error"``.
        message: the server's message, for humans.
        details: the envelope's ``details`` (never ``None``).
        request_id: the ``X-Request-Id`` header when the server sent one, to
            quote in a bug report.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str = "error",
        details: Mapping[str, Any] | None = None,
        request_id: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.details: dict[str, Any] = dict(details or {})
        self.request_id = request_id
        # Header names are case-insensitive: keep them lower-cased.
        self.headers: dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}

    def __str__(self) -> str:
        where = f"[{self.status} {self.code}]" if self.status is not None else f"[{self.code}]"
        rid = f" (request {self.request_id})" if self.request_id else ""
        return f"{where} {self.message}{rid}"


class ConnectionError(ParlourError, builtins.ConnectionError):
    """No HTTP answer: refused, reset, timed out. Retried for idempotent calls.

    It is also a builtin :class:`ConnectionError`, so generic handlers catch it.
    """


class BadFrame(ConnectionError):
    """A server-sent event whose data is not JSON; the stream was closed.

    A :class:`ConnectionError`, so a reader that reconnects on a dropped stream
    also reconnects on this. ``details`` holds the ``event`` and (the start of)
    its ``data``.
    """


class ServerError(ParlourError):
    """A 5xx answer (retried for idempotent calls before this is raised)."""


class InvalidRequest(ParlourError):
    """400: malformed JSON or a schema violation; ``details`` names the fields."""


class Unauthorized(ParlourError):
    """401: missing or unknown token."""


class Forbidden(ParlourError):
    """403: a known caller who may not do this (not your seat, admin only)."""


class BoardInPlay(Forbidden):
    """403: a table of a duplicate board another table of which is still played; it
    opens once every table of the board is over (docs/api.md#duplicate-boards)."""


class NotFound(ParlourError):
    """404: no such game, player or tournament."""


class Conflict(ParlourError):
    """409: the game moved on. Re-read the view; never resend blindly."""


class NotYourTurn(Conflict):
    """409 ``not_your_turn``: your seat is not among ``to_move``."""


class StaleVersion(Conflict):
    """409 ``stale_version``: the ``version`` you sent is not the current one."""


class GameOver(Conflict):
    """409 ``game_over``: the game has finished; no move is accepted."""


class SeatTaken(Conflict):
    """409 ``seat_taken``: the seat you asked for is occupied."""


class AlreadySeated(Conflict):
    """409 ``already_seated``: you already hold a seat in this game."""


class NoOpenSeat(Conflict):
    """409 ``no_open_seat``: every seat of the game is taken."""


class GameNotStarted(Conflict):
    """409 ``game_not_started``: moves wait until every seat is taken."""


class DeadlinePassed(Conflict):
    """409 ``deadline_passed``: the move came after its clock ran out (a default
    move may already have been played for you: re-read the view)."""


class GameNotFinished(Conflict):
    """409 ``game_not_finished``: replay frames open once the game is over."""


class GameStarted(Conflict):
    """409 ``game_started``: a seat of a started game cannot be left (its clock plays it)."""


class SeatOpen(Conflict):
    """409 ``seat_open``: nobody sits in the seat you asked to leave."""


class SeatHeld(Conflict):
    """409 ``seat_held``: the seat is held for an invitation; decline the invitation instead."""


class TournamentConflict(ParlourError):
    """409 raised by tournament requests: the tournament is not in a state for it."""


class EntriesClosed(TournamentConflict):
    """409 ``entries_closed``: the tournament has started; no more entries."""


class AlreadyEntered(TournamentConflict):
    """409 ``already_entered``: a player of this entry is already entered."""


class WrongEntrySize(TournamentConflict):
    """409 ``wrong_entry_size``: every entry needs the same number of players."""


class CannotStart(TournamentConflict):
    """409 ``cannot_start``: not enough entries, or already started."""


class InvitationsPending(Conflict):
    """409 ``invitations_pending``: a seat or entry still waits for an invited player to
    accept (docs/api.md#consent-and-invitations): the game or tournament cannot start."""


class InvitationExpired(Conflict):
    """409 ``invitation_expired``: too late to accept; the seat or entry was freed."""


class TooManyInvitations(Conflict):
    """409 ``too_many_invitations``: you have as many open invitations as the server
    allows (docs/api.md#limits-on-invitations); nothing was created."""


class InvitationRefused(Conflict):
    """409 ``invitation_refused``: a player you named cannot take your invitation now;
    nothing was created."""


class IllegalMove(ParlourError):
    """422: a well-formed move the rules do not allow now."""

    @property
    def legal_moves(self) -> list[dict[str, Any]]:
        """The moves you may make instead (your own list; never another seat's)."""
        return list(self.details.get("legal_moves", []))


class RateLimited(ParlourError):
    """429: slow down (too many requests, or too many streams and long-polls open at once).
    ``retry_after`` is how long the server asked you to wait."""

    @property
    def retry_after(self) -> float | None:
        """Seconds from the ``Retry-After`` header (or ``details.retry_after``)."""
        value = parse_retry_after(self.headers.get("retry-after"))
        if value is None and isinstance(self.details.get("retry_after"), int | float):
            value = float(self.details["retry_after"])
        return value


ERRORS_BY_CODE: dict[str, type[ParlourError]] = {
    "invalid_request": InvalidRequest,
    "unauthorized": Unauthorized,
    "forbidden": Forbidden,
    "board_in_play": BoardInPlay,
    "not_found": NotFound,
    "not_your_turn": NotYourTurn,
    "stale_version": StaleVersion,
    "game_over": GameOver,
    "seat_taken": SeatTaken,
    "already_seated": AlreadySeated,
    "no_open_seat": NoOpenSeat,
    "game_not_started": GameNotStarted,
    "deadline_passed": DeadlinePassed,
    "game_not_finished": GameNotFinished,
    "game_started": GameStarted,
    "seat_open": SeatOpen,
    "seat_held": SeatHeld,
    "entries_closed": EntriesClosed,
    "already_entered": AlreadyEntered,
    "wrong_entry_size": WrongEntrySize,
    "cannot_start": CannotStart,
    "invitations_pending": InvitationsPending,
    "invitation_expired": InvitationExpired,
    "too_many_invitations": TooManyInvitations,
    "invitation_refused": InvitationRefused,
    "illegal_move": IllegalMove,
    "unplayable_format": InvalidRequest,  # 422: a tournament format its game cannot be played in
    "rate_limited": RateLimited,
    "too_many_streams": RateLimited,  # 429: too many open streams and long-polls at once
}
"""The one place an API error code becomes an exception class."""


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.

    >>> parse_retry_after("3")
    3.0
    >>> parse_retry_after("Wed, 21 Oct 2015 07:28:05 GMT", now=1445412480.0)
    5.0
    >>> parse_retry_after("soon") is None
    True
    """
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def error_from_body(
    status: int,
    body: Any,
    *,
    headers: Mapping[str, str] | None = None,
    request_id: str | None = None,
) -> ParlourError:
    """The typed error for a non-2xx answer whose JSON body is ``body``.

    A body without the envelope (a proxy's HTML 502, say) still gives a
    :class:`ServerError` for 5xx and a plain :class:`ParlourError` otherwise.
    """
    envelope = body.get("error") if isinstance(body, Mapping) else None
    if not isinstance(envelope, Mapping):
        envelope = {}
    code = str(envelope.get("code") or ("server_error" if status >= 500 else "http_error"))
    message = str(envelope.get("message") or f"HTTP {status}")
    details = envelope.get("details")
    cls = ERRORS_BY_CODE.get(code)
    if cls is None:  # an unknown code: fall back on the status family
        cls = ServerError if status >= 500 else RateLimited if status == 429 else ParlourError
    return cls(
        message,
        status=status,
        code=code,
        details=details if isinstance(details, Mapping) else {},
        request_id=request_id,
        headers=headers,
    )
