"""Per-token rate limiting: a fixed window of requests per token, counted in Redis.

Counted in Redis so the limit holds across every API process. Requests without
a token are not counted; the admin token is never limited. The token is hashed
before it names a key, so no key holds a credential.
"""

from __future__ import annotations

import hashlib
import time

from server.services.core import Core
from server.services.errors import RateLimited
from server.store import ratelimit as ratelimit_store


class RateLimits:
    """The request counter per token, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def check(self, token: str | None, limit: int, period: float) -> None:
        """Count one request of ``token``: ``limit`` requests per ``period`` seconds.

        A ``limit`` of 0 turns limiting off (no Redis round trip at all).

        Raises:
            RateLimited: over the limit; ``retry_after`` says when the window ends.
        """
        if not limit or token is None or self.core.is_admin(token):
            return
        subject = hashlib.sha256(token.encode()).hexdigest()[:24]
        wait = ratelimit_store.hit(self.core.r, subject, limit, period, time.time())
        if wait is not None:
            raise RateLimited(wait)
