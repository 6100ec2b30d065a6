"""Rate limiting: a fixed window of requests per caller, counted in Redis.

Counted in Redis so the limit holds across every API process. A request with
a token counts against that token (however it was sent: header or query); one
without counts against the client's address, and a registration also against
the address's registration bucket, stricter (an account is the one thing an
anonymous caller can make). The admin token is never limited. Tokens are
hashed before they name a key, so no key holds a credential.
"""

from __future__ import annotations

import hashlib
import time

from server.services.core import Core
from server.services.errors import RateLimited
from server.store import ratelimit as ratelimit_store


class RateLimits:
    """The request counters per token and per address, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def _hit(self, subject: str, limit: int, period: float) -> None:
        wait = ratelimit_store.hit(self.core.r, subject, limit, period, time.time())
        if wait is not None:
            raise RateLimited(wait)

    def check(
        self,
        token: str | None,
        address: str | None,
        limit: int,
        period: float,
        *,
        anonymous_limit: int | None = None,
    ) -> None:
        """Count one request: ``limit`` requests per ``period`` seconds per token, and
        ``anonymous_limit`` (default ``limit``) per address for requests without one.

        A limit of 0 turns that count off (no Redis round trip at all).

        Raises:
            RateLimited: over the limit; ``retry_after`` says when the window ends.
        """
        if token is not None:
            if limit and not self.core.is_admin(token):
                self._hit(hashlib.sha256(token.encode()).hexdigest()[:24], limit, period)
            return
        anonymous = limit if anonymous_limit is None else anonymous_limit
        if anonymous and address:
            self._hit(f"addr:{address}", anonymous, period)

    def check_registration(
        self, token: str | None, address: str | None, limit: int, period: float
    ) -> None:
        """Count one registration of ``address`` (the admin's are not counted).

        Raises:
            RateLimited: the address registered ``limit`` players this window.
        """
        if not limit or not address or (token is not None and self.core.is_admin(token)):
            return
        self._hit(f"register:{address}", limit, period)
