"""``/v1/me/turns``: every game where the caller is to act, long-polled (the bot loop),
and ``/v1/me/turns/stream``: the same turns pushed as they come (the cheaper loop)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, g, request

from server.services.errors import Unauthorized

from . import schemas
from .context import client_address, requires_token, services

bp = Blueprint("me", __name__)


@bp.get("/v1/me/turns")
@requires_token
def turns():
    """
    ---
    get:
      operationId: getTurns
      tags:
      - turns
      summary: Every game where the caller is to act, long-polled (the bot loop).
      description: |
        Answers at once when the caller is to act somewhere; otherwise waits up
        to `wait` seconds (capped by the server) and answers as soon as it is.
        The truth comes from the game states; notifications only end a wait early.
      parameters:
      - Wait
      responses:
        '200':
          description: the turns (possibly none)
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Turns'
              examples:
                concerto:
                  $ref: '#/components/examples/ConcertoTurns'
        '400':
          $ref: '#/components/responses/InvalidRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '429':
          $ref: '#/components/responses/RateLimited'
        '403':
          $ref: '#/components/responses/Forbidden'
    """
    query = schemas.wait_query.load(request.args)
    return schemas.turns.dump(services().feeds.turns(g.token, **query, client=client_address()))


@bp.get("/v1/me/turns/stream")
def turn_stream():
    """Server-sent events (see :mod:`server.services.turnstream` for the format).

    The token comes in the ``Authorization`` header only (a ``?token=`` is refused
    by :func:`.context.load_token`): bots can send headers.

    ---
    get:
      operationId: streamTurns
      tags:
      - turns
      summary: Your turns pushed as they come, as server-sent events (the cheapest bot loop).
      description: |
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
        at most `PARLOUR_STREAMS_PER_PLAYER` (8) streams and long-polls at once;
        past that: 429 `too_many_streams` with `Retry-After`.
      parameters:
      - name: heartbeat
        in: query
        description: |
          seconds of quiet after which the client wants a heartbeat (and a re-read
          of its games); at most the server's own `PARLOUR_SSE_HEARTBEAT`
        schema:
          type: number
          minimum: 0.5
          maximum: 3600
      responses:
        '200':
          description: |
            the stream (`text/event-stream`, framed by the server-sent events spec: lines
            end only at CR, LF or CRLF; each `data` is one line of JSON, with U+0085,
            U+2028 and U+2029 escaped)
          content:
            text/event-stream:
              x-message-schema:
                $ref: '#/components/schemas/TurnStreamMessage'
              example: |+
                retry: 2000

                event: turns
                data: [{"game_id": "9b6cd470f2e79489", "seat": 2, "version": 14, "view": {}}]

        '400':
          $ref: '#/components/responses/InvalidRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '429':
          $ref: '#/components/responses/RateLimited'
    """
    query = schemas.turn_stream_query.load(request.args)
    token = g.token
    if token is None:
        raise Unauthorized("missing bearer token")
    most = current_app.config["SSE_HEARTBEAT"]  # a client may ask for more, not fewer
    frames = services().turn_streams.open(
        token,
        heartbeat=min(query["heartbeat"] or most, most),
        max_seconds=current_app.config["SSE_MAX_SECONDS"],
    )
    return Response(
        frames,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
