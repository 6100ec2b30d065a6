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
from typing import Any

from flask import Blueprint, Response, current_app, g, request

from server.services.errors import InvalidRequest
from server.services.feeds import LAST_EVENT

from . import schemas
from .context import client_address, services
from .operations import EITHER, Answer, operation

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


LAST_EVENT_ID = {
    "name": "Last-Event-ID",
    "in": "header",
    "description": "the last event received (sent by a reconnecting EventSource): ASCII "
    "digits, at most 18446744073709551615; anything else is a 400",
    "schema": {"type": "string", "pattern": "^[0-9]{1,20}$"},
}


@bp.get("/v1/games/<game_id>/stream")
@operation(
    "streamGameEvents",
    tag="streams",
    summary="The seat's events as server-sent events (for browsers), resumable.",
    description="""\
Exactly the events `GET /v1/games/{game_id}/events` gives the same caller
and seat, pushed as they happen: each is a message with `id:` its `seq`
and `data:` the event's JSON. The stream starts with `retry: 2000`, sends a
`: heartbeat` comment after `PARLOUR_SSE_HEARTBEAT` seconds (15) of
silence, and once the game is over and everything was sent, an `end`
event (`data: {"status"}`) before closing. A stream also closes after
`PARLOUR_SSE_MAX_SECONDS` (300); an `EventSource` then reconnects with
`Last-Event-ID` and the stream resumes after that event: nothing lost,
nothing repeated. A reconnect with nothing left to send to a game that is
over gets `204`, which stops an `EventSource`.

The token may be sent as `Authorization: Bearer` or, since `EventSource`
cannot set headers, as `?token=`. A token in a URL may end up in logs,
history and `Referer` headers: prefer the header when the client can set
it; guest tokens are bound to one seat and expire with their game. This
is the only endpoint that takes `?token=`; everywhere else it is a 400.
""",
    security=EITHER,
    parameters=["GameId", LAST_EVENT_ID],
    query=schemas.StreamQuery,
    responses={
        200: Answer(
            """\
the stream (`text/event-stream`, framed by the server-sent events spec; each
message's `data` is an `Event`, one line of JSON with U+0085, U+2028 and U+2029
escaped). The schema is the stream as the list of its messages, each a
`GameStreamMessage` (OpenAPI 3.2's `itemSchema`):

```text
retry: 2000

id: 6
data: {"seq": 6, "version": 1, "kind": "play", "data": {"seat": 2, "card": "QS", "hand_number": 1}}

```
""",  # noqa: E501 (one SSE data line)
            schemas.messages(schemas.GameStreamMessage),
            media="text/event-stream",
        ),
        204: Answer("the game is over and nothing is left to send"),
    },
    errors=("InvalidRequest", "Unauthorized", "RateLimited", "Forbidden", "NotFound"),
)
def stream(game_id: str, query: dict[str, Any]):
    """The stream's frames come from :meth:`server.services.feeds.Feeds.open_stream`."""
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
