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


def hit(r: Redis, subject: str, limit: int, period: float, now: float) -> float | None:
    """Count one request of ``subject``; return seconds to wait if it is over ``limit``.

    Returns:
        None when the request is allowed, else the seconds until the window ends
        (for ``Retry-After``).
    """
    window = int(now // period)
    key = keys.rate_window(subject, window)
    pipe = r.pipeline(transaction=False)
    pipe.incr(key)
    pipe.expire(key, max(1, math.ceil(period)) + 1)
    count, _ = pipe.execute()
    if count <= limit:
        return None
    return (window + 1) * period - now
