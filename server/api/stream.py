"""``GET /v1/games/{id}/stream``: a seat's events as server-sent events.

The token may come in the ``Authorization`` header or, because a browser's
``EventSource`` cannot set headers, as ``?token=``. The query form is a
tradeoff: a URL can end up in server and proxy logs, browser history and
``Referer`` headers. Prefer the header where the client can set it (a
fetch-based reader); guest tokens, bound to one seat and expiring with their
game, keep the exposure small. ``parlour serve`` writes no access log. This is the
only endpoint that takes ``?token=``: :func:`.context.load_token` refuses it
everywhere else.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, g, request

from server.services.errors import InvalidRequest
from server.services.feeds import LAST_EVENT

from . import schemas
from .context import client_address, services

bp = Blueprint("stream", __name__)

EVENT_ID = re.compile(r"[0-9]{1,20}")


def _last_event_id(default: int) -> int:
    """``Last-Event-ID`` (sent by a reconnecting EventSource) wins over ``?after=``.

    Only ASCII digits make an event number: ``str.isdigit`` also accepts ``'²'``,
    which ``int`` refuses, and ``int`` also reads other scripts' digits.
    """
    raw = request.headers.get("Last-Event-ID")
    if raw is None or not raw.strip():
        return default
    text = raw.strip()
    if not EVENT_ID.fullmatch(text) or int(text) > LAST_EVENT:
        raise InvalidRequest(
            "Last-Event-ID must be an event number",
            {"Last-Event-ID": [f"an integer from 0 to {LAST_EVENT}"]},
        )
    return int(text)


@bp.get("/v1/games/<game_id>/stream")
def stream(game_id: str):
    query = schemas.stream_query.load(request.args)
    token = g.token if g.token is not None else query["token"]
    events = services().feeds.open_stream(
        token,
        game_id,
        after=_last_event_id(query["after"]),
        seat=query["seat"],
        heartbeat=current_app.config["SSE_HEARTBEAT"],
        max_seconds=current_app.config["SSE_MAX_SECONDS"],
        client=client_address(),
    )
    if events is None:
        return Response(status=204)
    return Response(
        events,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
