"""The one error handler: every exception becomes docs/api.md's envelope here and nowhere else.

``{"error": {"code", "message", "details"}}`` with the status from :data:`ERRORS`,
looked up along the exception's class hierarchy. Views never catch anything.
Messages come from exceptions designed to be shown (engine, store and service
errors name no hidden cards); anything unexpected becomes a generic 500 that
never echoes the exception's text.

The error answers an operation may give (``errors=("InvalidRequest", ...)``) are
:data:`ANSWERS`: each one's status, words and codes, from which server/api/openapi.py
writes the spec's ``components/responses``; each code's ``details`` is its schema in
:data:`.schemas.errors.DETAILS`, which under test every answer's details must match.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from server.services.errors import (
    AlreadyEntered,
    AlreadySeated,
    BoardInPlay,
    CannotStart,
    Contention,
    DeadlinePassed,
    EntriesClosed,
    Forbidden,
    GameMissing,
    GameNotFinished,
    GameNotStarted,
    GameOver,
    GameStarted,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    InvalidRequest,
    InvitationExpired,
    InvitationRefused,
    InvitationsPending,
    MalformedMove,
    NoOpenSeat,
    NotFound,
    NotYourTurn,
    RateLimited,
    SandboxUnavailable,
    SeatHeld,
    SeatNotYours,
    SeatOpen,
    SeatTaken,
    ServiceError,
    StaleVersion,
    StorageTimeout,
    StorageUnavailable,
    TooManyInvitations,
    TooManyStreams,
    TournamentMissing,
    Unauthorized,
    UnplayableFormat,
    WrongEntrySize,
)

from . import schemas

log = logging.getLogger("server.api")

Details = Callable[[Any], dict[str, Any]]


def _none(_: Any) -> dict[str, Any]:
    return {}


def _validation(exc: ValidationError) -> dict[str, Any]:
    messages = exc.messages
    return messages if isinstance(messages, dict) else {"_schema": messages}


MAX_PROBLEMS = 20
"""At most this many problems are listed in ``details``; :data:`MORE` counts the rest."""
MORE = "more_problems"
MAX_TEXT = 200
"""Longer keys and messages in ``details`` are cut to this many characters."""


def _short(text: Any) -> Any:
    if isinstance(text, str) and len(text) > MAX_TEXT:
        return text[: MAX_TEXT - 1] + "…"
    return text


def _cap(details: Any, room: list[int]) -> Any:
    """``details`` with only the first ``room[0]`` problems (leaves) kept, the rest counted
    in ``room[1]``; keys and messages cut to :data:`MAX_TEXT`."""
    if isinstance(details, dict):
        kept = {}
        for key, value in details.items():
            part = _cap(value, room)
            if part is not _DROPPED:
                kept[_short(key) if isinstance(key, str) else key] = part
        return kept if kept or not details else _DROPPED
    if isinstance(details, list):
        items = [p for p in (_cap(v, room) for v in details) if p is not _DROPPED]
        return items if items or not details else _DROPPED
    if room[0] <= 0:
        room[1] += 1
        return _DROPPED
    room[0] -= 1
    return _short(details)


_DROPPED = object()


def cap_details(details: dict[str, Any]) -> dict[str, Any]:
    """The first :data:`MAX_PROBLEMS` problems of ``details``, each once, and how many more.

    A request with thousands of unknown fields must not get an answer many times
    its own size: ``{"a": [...], "more_problems": 4980}``.
    """
    room = [MAX_PROBLEMS, 0]
    capped = _cap(details, room)
    out = capped if isinstance(capped, dict) else {}
    if room[1]:
        out[MORE] = room[1]
    return out


ERRORS: dict[type[BaseException], tuple[int, str, Details]] = {
    ValidationError: (400, "invalid_request", _validation),
    InvalidRequest: (400, "invalid_request", lambda e: e.details),
    MalformedMove: (400, "invalid_request", lambda e: {"move": [str(e)]}),
    InvalidOptions: (400, "invalid_request", lambda e: {"options": e.problems}),
    InvalidDeal: (400, "invalid_request", lambda e: {"deals": e.problems}),
    Unauthorized: (401, "unauthorized", lambda e: e.details),
    Forbidden: (403, "forbidden", lambda e: e.details),
    BoardInPlay: (403, "board_in_play", lambda e: e.details),
    NotFound: (404, "not_found", lambda e: e.details),
    GameMissing: (404, "not_found", _none),
    NotYourTurn: (409, "not_your_turn", _none),
    StaleVersion: (409, "stale_version", lambda e: {"version": e.current}),
    GameOver: (409, "game_over", _none),
    SeatTaken: (409, "seat_taken", lambda e: {"seat": e.seat}),
    AlreadySeated: (409, "already_seated", lambda e: {"seat": e.seat}),
    NoOpenSeat: (409, "no_open_seat", _none),
    GameNotStarted: (409, "game_not_started", _none),
    # leaving a seat (DELETE /v1/games/{id}/seats/{seat}, docs/api.md#leaving-a-seat)
    SeatNotYours: (403, "forbidden", lambda e: {"seat": e.seat}),
    GameStarted: (409, "game_started", lambda e: {"status": e.status}),
    SeatOpen: (409, "seat_open", lambda e: {"seat": e.seat}),
    SeatHeld: (409, "seat_held", lambda e: {"seat": e.seat}),
    GameNotFinished: (409, "game_not_finished", lambda e: e.details),
    DeadlinePassed: (409, "deadline_passed", lambda e: e.details),
    TournamentMissing: (404, "not_found", _none),
    EntriesClosed: (409, "entries_closed", lambda e: {"status": e.status}),
    AlreadyEntered: (409, "already_entered", lambda e: {"player": e.player}),
    WrongEntrySize: (409, "wrong_entry_size", lambda e: {"players": e.size}),
    CannotStart: (409, "cannot_start", lambda e: e.details),
    InvitationsPending: (409, "invitations_pending", lambda e: e.details),
    InvitationExpired: (409, "invitation_expired", lambda e: e.details),
    TooManyInvitations: (409, "too_many_invitations", lambda e: e.details),
    InvitationRefused: (409, "invitation_refused", lambda e: e.details),
    Contention: (503, "unavailable", lambda e: e.details),
    IllegalMove: (422, "illegal_move", lambda e: {"legal_moves": e.legal_moves}),
    UnplayableFormat: (422, "unplayable_format", lambda e: e.details),
    RateLimited: (429, "rate_limited", lambda e: e.details),
    TooManyStreams: (429, "too_many_streams", lambda e: e.details),
    SandboxUnavailable: (503, "sandbox_unavailable", lambda e: e.details),
    StorageUnavailable: (503, "unavailable", _none),
    StorageTimeout: (503, "unavailable", _none),
}
"""Exception class -> (status, code, details). The first class found along the MRO wins."""


@dataclass(frozen=True)
class ErrorAnswer:
    """One error answer of the spec (``components/responses``): its status, its words and
    the codes it may carry (the spec answers one code's ``<Code>Error``, several ``Error``)."""

    status: int
    description: str
    codes: tuple[str, ...]
    headers: Mapping[str, Any] = field(default_factory=dict)
    examples: Mapping[str, str] = field(default_factory=dict)
    """Example name -> component example name (``components/examples``)."""


ANSWERS: dict[str, ErrorAnswer] = {
    "InvalidRequest": ErrorAnswer(
        400,
        """\
malformed JSON or a schema violation (`invalid_request`); details name the
fields: the first 20 problems, each once, and `more_problems` counts the rest
""",
        ("invalid_request",),
    ),
    "Unauthorized": ErrorAnswer(
        401, "missing or unknown token (`unauthorized`)", ("unauthorized",)
    ),
    "Forbidden": ErrorAnswer(
        403,
        """\
a known caller that may not do this (`forbidden`); or `board_in_play`:
a table of a duplicate board another table of which is still played,
refused to all but the admin and its seated players (docs/api.md,
"Duplicate boards"); it opens to everyone once every table is over
""",
        ("forbidden", "board_in_play"),
    ),
    "NotFound": ErrorAnswer(404, "no such game or player (`not_found`)", ("not_found",)),
    "Conflict": ErrorAnswer(
        409,
        """\
`not_your_turn`, `stale_version` (details.version is the current one),
`game_over`, `game_not_started`, `seat_taken`, `already_seated`, `no_open_seat`,
`deadline_passed` (details.deadline), `entries_closed`, `already_entered`,
`wrong_entry_size`, `cannot_start`, `game_not_finished`,
`invitations_pending` (a move or a start while a seat or entry is held for an
invitation; details.players or details.entries), `invitation_expired`,
`game_started`, `seat_open`, `seat_held` (leaving a seat),
`too_many_invitations` (the inviter's open invitations are at the limit;
details.open, details.limit), `invitation_refused` (a named player cannot
take the invitation now; details.players): nothing was created
""",
        (
            "not_your_turn",
            "stale_version",
            "game_over",
            "game_not_started",
            "seat_taken",
            "already_seated",
            "no_open_seat",
            "deadline_passed",
            "entries_closed",
            "already_entered",
            "wrong_entry_size",
            "cannot_start",
            "game_not_finished",
            "invitations_pending",
            "invitation_expired",
            "game_started",
            "seat_open",
            "seat_held",
            "too_many_invitations",
            "invitation_refused",
        ),
        examples={"stale_version": "StaleVersion"},
    ),
    "PayloadTooLarge": ErrorAnswer(
        413,
        """\
the body is over the server's limit (`PARLOUR_MAX_BODY`, 64 KiB by default);
code `invalid_request`. Any endpoint that takes a body may answer this.
""",
        ("invalid_request",),
    ),
    "UnplayableFormat": ErrorAnswer(
        422,
        """\
a format the game cannot be played in (`unplayable_format`): duplicate needs
a game whose seats form two fixed sides (Concerto, Pinochle); details.format
""",
        ("unplayable_format",),
    ),
    "IllegalMove": ErrorAnswer(
        422,
        "a well-formed move the rules refuse (`illegal_move`); details.legal_moves",
        ("illegal_move",),
        examples={"illegal_move": "IllegalMove"},
    ),
    "Unavailable": ErrorAnswer(503, "the store does not answer (`unavailable`)", ("unavailable",)),
    "SandboxUnavailable": ErrorAnswer(
        503,
        "no sandbox worker can run submitted code here (`sandbox_unavailable`): docs/sandbox.md",
        ("sandbox_unavailable",),
    ),
    "RateLimited": ErrorAnswer(
        429,
        """\
too many requests from this token or client address (`rate_limited`: a
registration or an archive page also per address, whatever the token), or,
for a stream or a long-poll (`wait` above 0), too many of them open at once
(`too_many_streams`: `PARLOUR_STREAMS_PER_PLAYER` per player,
`PARLOUR_STREAMS_PER_ADDRESS` per client address, a player's counting against
both); details.retry_after
""",
        ("rate_limited", "too_many_streams"),
        headers={
            "Retry-After": {
                "description": "seconds until the window ends, or until a slot must be free"
                " at the latest",
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    ),
}
"""The error answers an operation names (``errors=(...)`` of :func:`.operations.operation`):
name -> status, description, codes. tests/api/test_errors.py holds them to :data:`ERRORS`
and to each code's details schema."""


_HTTP_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "invalid_request",
}
_MESSAGES = {
    ValidationError: "the request does not match the schema",
    # Their own text lists every problem: the details already do, once.
    InvalidOptions: "the options are not valid",
    InvalidDeal: "the preset deals are not valid",
    StorageUnavailable: "storage unavailable",
    StorageTimeout: "storage unavailable",
}


def envelope(status: int, code: str, message: str, details: dict[str, Any]):
    """A response in docs/api.md's error shape. Under test (``app.testing``) ``details``
    must be what its code's schema says (:func:`check_details`)."""
    if code == "invalid_request":  # problems with the request: its size, not ours
        details = cap_details(details)
    if current_app.testing:
        check_details(code, details)
    body = schemas.error.dump(
        {"error": {"code": code, "message": _short(message), "details": details}}
    )
    return body, status


def check_details(code: str, details: dict[str, Any]) -> None:
    """Fail loudly (:class:`AssertionError`) if ``details`` has a key its code's schema
    (:data:`.schemas.errors.DETAILS`) does not name, lacks one it requires, or holds a value
    of another shape: the spec would not say what the server answers. A code with no schema
    (405, 500) has none."""
    schema = schemas.DETAILS.get(code)
    problems = schema().validate(details) if schema else details
    if problems:
        raise AssertionError(f"the {code} details {details!r} are not its schema's: {problems}")


def handle(exc: Exception):
    """Map any exception to the envelope; unknown ones become a generic 500."""
    if isinstance(exc, HTTPException):
        status = exc.code or 500
        body, status = envelope(
            status,
            _HTTP_CODES.get(status, "http_error"),
            exc.name.lower() if exc.name else "error",
            {},
        )
        allowed = getattr(exc, "valid_methods", None)  # a 405 says what the URL takes
        return (body, status, {"Allow": ", ".join(allowed)}) if allowed else (body, status)
    for cls in type(exc).__mro__:
        if cls in ERRORS:
            status, code, details = ERRORS[cls]
            message = _MESSAGES.get(cls) or (
                exc.message if isinstance(exc, ServiceError) else str(exc)
            )
            body, status = envelope(status, code, message, details(exc))
            retry_after = getattr(exc, "retry_after", None)
            if status == 429 and retry_after is not None:
                return body, status, {"Retry-After": str(retry_after)}
            return body, status
    # Never echo the text: an unexpected exception might carry a hand.
    log.exception("unhandled error")
    return envelope(500, "internal_error", "internal server error", {})


def register(app: Flask) -> None:
    app.register_error_handler(Exception, handle)
