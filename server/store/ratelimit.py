"""A fixed-window request counter per caller: one pipelined round trip per request.

Fixed windows are the simplest limiter that holds across any number of API
processes (the count lives in Redis); a burst at a window's edge can reach
twice the limit, which is acceptable for protecting the server from a runaway
bot, the purpose here.
"""

from __future__ import annotations

import math

from redis import Redis

from server.store import keys
from server.store.replies import text


def _queue_hit(pipe, subject: str, period: float, now: float) -> int:
    window = int(now // period)
    key = keys.rate_window(subject, window)
    pipe.incr(key)
    pipe.expire(key, max(1, math.ceil(period)) + 1)
    return window


def _wait(count: int, limit: int, window: int, period: float, now: float) -> float | None:
    return None if count <= limit else (window + 1) * period - now


def hit_with_digest(
    r: Redis, subject: str, limit: int, period: float, now: float, record_key: str
) -> tuple[float | None, str | None]:
    """:func:`hit`, and in the same round trip the ``token_sha256`` of ``record_key``
    (a player's or an app's hash), so the caller can tell a real token from a made-up one.
    """
    pipe = r.pipeline(transaction=False)
    window = _queue_hit(pipe, subject, period, now)
    pipe.hget(record_key, "token_sha256")
    count, _, digest = pipe.execute()
    return _wait(count, limit, window, period, now), None if digest is None else text(digest)


def hit(r: Redis, subject: str, limit: int, period: float, now: float) -> float | None:
    """Count one request of ``subject``; return seconds to wait if it is over ``limit``.

    Returns:
        None when the request is allowed, else the seconds until the window ends
        (for ``Retry-After``).
    """
    pipe = r.pipeline(transaction=False)
    window = _queue_hit(pipe, subject, period, now)
    count, _ = pipe.execute()
    return _wait(count, limit, window, period, now)


def digest(r: Redis, record_key: str) -> str | None:
    """The ``token_sha256`` of a player's or an app's record (None: no such record)."""
    value = r.hget(record_key, "token_sha256")
    return None if value is None else text(value)
