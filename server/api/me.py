"""``/v1/me/turns``: every game where the caller is to act, long-polled (the bot loop),
``/v1/me/turns/stream``: the same turns pushed as they come (the cheaper loop), and
``/v1/me/callback``: the URL the server calls with each turn instead (no loop at all)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g

from server.services.errors import Unauthorized

from . import schemas
from .context import client_address, requires_token, services
from .operations import Answer, operation

bp = Blueprint("me", __name__)


@bp.get("/v1/me/turns")
@requires_token
@operation(
    "getTurns",
    tag="turns",
    summary="Every game where the caller is to act, long-polled (the bot loop).",
    description="""\
Answers at once when the caller is to act somewhere; otherwise waits up
to `wait` seconds (capped by the server) and answers as soon as it is.
The truth comes from the game states; notifications only end a wait early.
""",
    query=schemas.WaitQuery,
    responses={
        200: Answer(
            "the turns (possibly none)", schemas.Turns, examples={"example": "ConcertoTurns"}
        )
    },
    errors=("InvalidRequest", "Forbidden"),
)
def turns(query: dict[str, Any]):
    return services().feeds.turns(g.token, **query, client=client_address())


@bp.get("/v1/me/turns/stream")
@operation(
    "streamTurns",
    tag="turns",
    summary="Your turns pushed as they come, as server-sent events (the cheapest bot loop).",
    description="""\
What `GET /v1/me/turns` lists, pushed: the stream starts with
`retry: 2000` and the caller's current turns, then sends each new turn
as the move before it commits. Each `turns` message's `data` is a JSON
list of the caller's turns in one game (`Turn` objects, as in `Turns`).
An `over` message (`data: {"game_id", "status"}`) says that a game the
caller sat in is over; an `invitation` message (`data: {"id"}`) that someone
named the caller in a seat or an entry (`GET /v1/me/invitations`). A
`: heartbeat` comment follows
`PARLOUR_SSE_HEARTBEAT` seconds (15) of silence; at each quiet heartbeat
the server re-reads the caller's games, so a lost notification delays a
turn by one heartbeat at most. The same turn may come twice (on
connecting and pushed): drop a turn whose game and version you have
played. The stream closes after `PARLOUR_SSE_MAX_SECONDS` (300): connect
again, and the current turns come first. A revoked or expired token ends
it with an `error` message (`data: {"message"}`).

The token goes in `Authorization: Bearer` only: a `?token=` is refused
with 400 (bots can send headers, and URLs end up in logs). A player holds
at most `PARLOUR_STREAMS_PER_PLAYER` (8) streams and long-polls at once,
and a client address `PARLOUR_STREAMS_PER_ADDRESS` (64) whoever holds them;
past that: 429 `too_many_streams` with `Retry-After`.
""",
    query=schemas.TurnStreamQuery,
    responses={
        200: Answer(
            """\
the stream (`text/event-stream`, framed by the server-sent events spec: lines
end only at CR, LF or CRLF; each `data` is one line of JSON, with U+0085,
U+2028 and U+2029 escaped). The schema is the stream as the list of its messages,
each a `TurnStreamMessage` (OpenAPI 3.2's `itemSchema`):

```text
retry: 2000

event: turns
data: [{"game_id": "9b6cd470f2e79489", "seat": 2, "version": 14, "view": {}}]

```
""",
            schemas.messages(schemas.TurnStreamMessage),
            media="text/event-stream",
        )
    },
    errors=("InvalidRequest", "Forbidden"),
)
def turn_stream(query: dict[str, Any]):
    """Server-sent events (see :mod:`server.services.turnstream` for the format).

    The token comes in the ``Authorization`` header only (a ``?token=`` is refused
    by :func:`.context.load_token`): bots can send headers.
    """
    token = g.token
    if token is None:
        raise Unauthorized("missing bearer token")
    most = current_app.config["SSE_HEARTBEAT"]  # a client may ask for more, not fewer
    frames = services().turn_streams.open(
        token,
        heartbeat=min(query["heartbeat"] or most, most),
        max_seconds=current_app.config["SSE_MAX_SECONDS"],
        client=client_address(),
    )
    return Response(
        frames,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


# -- the callback: a bot that is a URL (server/services/callbacks.py) ----------------------
@bp.get("/v1/me/callback")
@requires_token
@operation(
    "getCallback",
    tag="callbacks",
    summary="The caller's callback (the secret's last 4 characters) and its health.",
    description="""\
`health` counts the calls, timeouts (no answer, or one after the deadline),
errors (unreachable, a status other than 200, a body that is not a move),
refused moves, stale answers (the turn was played already) and moves
played; the answer times' p50 and p99 over the latest 200 calls; and the
last 5 failures with the dispatcher's reason (never the bot's body).
""",
    responses={200: Answer("the callback", schemas.Callback)},
    errors=("Forbidden", "NotFound"),
)
def get_callback():
    return services().callbacks.show(g.token)


@bp.put("/v1/me/callback")
@requires_token
@operation(
    "putCallback",
    tag="callbacks",
    summary="Set or replace the caller's callback; a fresh secret, shown this once.",
    description="""\
While a callback is set, the server POSTs each turn of the caller's seats
to its URL and plays the move it answers. The call's body is the turn
entry exactly as `GET /v1/me/turns` lists it, plus a unique `id` (a retry
of a turn gets a new one); it is signed like a webhook
(`Parlour-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
"<t>.<raw body>")>`). The answer must be `200 {"move": ...}` (at most 64
KiB) before the seat's deadline; redirects are not followed. A failed call
is tried once more while time is left; then the clock plays its default
move at the deadline. The caller's turn streams and long-polls keep
working: a move made either way is accepted once.

The URL is http(s), at most 2048 characters. One whose address is loopback,
private, link-local, multicast, unspecified or reserved is refused (400),
and checked again before each call, after resolving its name: such a call
fails as `refused_address`. The operator may allow ranges
(`PARLOUR_WEBHOOK_ALLOW`). Each PUT makes a new secret: the old one stops
at once.
""",
    body=schemas.CallbackPut,
    responses={
        200: Answer("the callback and its signing secret (shown this once)", schemas.CallbackSecret)
    },
    errors=("InvalidRequest", "Forbidden"),
)
def put_callback(body: dict[str, Any]):
    return services().callbacks.put(g.token, body["url"])


@bp.post("/v1/me/callback/secret")
@requires_token
@operation(
    "rotateCallbackSecret",
    tag="callbacks",
    summary="A new signing secret for the caller's callback (shown this once).",
    description="The old secret signs nothing more, at once; the URL stays.",
    responses={200: Answer("the callback and its new secret", schemas.CallbackSecret)},
    errors=("Forbidden", "NotFound"),
)
def rotate_callback_secret():
    return services().callbacks.rotate(g.token)


@bp.delete("/v1/me/callback")
@requires_token
@operation(
    "deleteCallback",
    tag="callbacks",
    summary="Remove the caller's callback; its turns are no longer called.",
    responses={204: Answer("removed")},
    errors=("Forbidden", "NotFound"),
)
def delete_callback():
    services().callbacks.delete(g.token)
    return "", 204
