"""Server-sent events: a game's event feed for one seat, pushed to a browser as it happens.

The stream carries exactly what the long-poll carries: it *is* the long-poll
(:meth:`Service.events`) called in a loop, so every event has passed the same
``visible()`` filter for the same seat, and every call checks the token again
(a guest token that expires mid-stream ends the stream).

Wire format (``text/event-stream``)::

    retry: 2000                     once, at the start: reconnect after 2 s

    id: 17                          the event's ``seq``
    data: {"seq": 17, "version": 3, "kind": "play", "data": {...}}

    : heartbeat                     a comment when nothing happened for a while

    event: end                      the game is over and everything was sent
    data: {"status": "finished"}

Resuming: a browser's ``EventSource`` reconnects by itself and sends
``Last-Event-ID``; the stream then starts after that event, so nothing is lost
and nothing repeats. A reconnect to a game that is over with nothing left to
send is answered ``204``, which tells ``EventSource`` to stop reconnecting.

Under gunicorn's gevent workers each stream is a greenlet parked in a blocking
Redis read, like a long-poll, so open streams hold no worker.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import orjson
from redis.exceptions import RedisError

from server.services.games import Service, ServiceError
from server.store import games as game_store

log = logging.getLogger("server.services.feeds")

RETRY_MS = 2000
"""What the stream tells ``EventSource`` to wait before reconnecting."""
OVER = ("finished", "aborted")


def frame(event: dict) -> str:
    """One event as an SSE message whose id is the event's ``seq``.

    >>> frame({"seq": 3, "version": 1, "kind": "pass", "data": {"seat": 0}})
    'id: 3\\ndata: {"seq":3,"version":1,"kind":"pass","data":{"seat":0}}\\n\\n'
    """
    return f"id: {event['seq']}\ndata: {orjson.dumps(event).decode()}\n\n"


def _status(service: Service, game_id: str) -> str | None:
    game = game_store.read(service.r, game_id).game
    return None if game is None else game.status


def open_stream(
    service: Service,
    token: str | None,
    game_id: str,
    *,
    after: int = 0,
    seat: int | None = None,
    heartbeat: float = 15.0,
    max_seconds: float = 300.0,
) -> Iterator[str] | None:
    """Check the caller now, then return the stream's generator (None: nothing more, ever).

    Every error the caller should see as a status (401, 403, 404) is raised
    here, before anything is streamed.

    Args:
        after: the last event the client has (``Last-Event-ID``), 0 for all.
        heartbeat: seconds of silence before a heartbeat comment.
        max_seconds: the stream ends after this long; ``EventSource`` reconnects
            and resumes (bounds what one connection holds, behind any proxy).
    """
    first = service.events(token, game_id, after=after, wait=0, seat=seat)
    if not first["events"] and _status(service, game_id) in OVER:
        return None
    return _stream(service, token, game_id, first, seat, heartbeat, max_seconds)


def _stream(
    service: Service,
    token: str | None,
    game_id: str,
    page: dict,
    seat: int | None,
    heartbeat: float,
    max_seconds: float,
) -> Iterator[str]:
    ends = time.monotonic() + max_seconds
    yield f"retry: {RETRY_MS}\n\n"
    try:
        while True:
            for event in page["events"]:
                yield frame(event)
            status = _status(service, game_id)
            if status in OVER:
                # Its last events may have landed after the read above: send them too.
                rest = service.events(token, game_id, after=page["last"], wait=0, seat=seat)
                for event in rest["events"]:
                    yield frame(event)
                yield f"event: end\ndata: {orjson.dumps({'status': status}).decode()}\n\n"
                return
            left = ends - time.monotonic()
            if left <= 0:
                return
            page = service.events(
                token, game_id, after=page["last"], wait=min(heartbeat, left), seat=seat
            )
            if not page["events"]:
                yield ": heartbeat\n\n"
    except ServiceError as exc:  # e.g. the guest token expired: say so, and stop
        body = {"message": exc.message}
        yield f"event: error\ndata: {orjson.dumps(body).decode()}\n\n"
    except RedisError as exc:  # the client reconnects and resumes
        log.warning("game %s: stream stopped: %s", game_id, exc)
