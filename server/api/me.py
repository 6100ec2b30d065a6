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
    query = schemas.wait_query.load(request.args)
    return schemas.turns.dump(services().feeds.turns(g.token, **query, client=client_address()))


@bp.get("/v1/me/turns/stream")
def turn_stream():
    """Server-sent events (see :mod:`server.services.turnstream` for the format).

    The token comes in the ``Authorization`` header only (a ``?token=`` is refused
    by :func:`.context.load_token`): bots can send headers."""
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
