"""Per-token rate limiting (API.md: 429 ``rate_limited`` with ``Retry-After``).

``PARLOUR_RATE_LIMIT`` requests per ``PARLOUR_RATE_PERIOD`` seconds (default
1) per token, counted in Redis so the limit holds across every API process.
``0`` (the default) turns it off: a limiter costs a Redis round trip on every
request, which a server behind its own gateway may rather not pay. Requests
without a token are not counted; the admin token is never limited. The token
is hashed before it names a key, so no key holds a credential.
"""

from __future__ import annotations

import hashlib
import math
import time

from flask import Flask, current_app, g

from server.services.games import ServiceError
from server.store import ratelimit


class RateLimited(ServiceError):
    """Too many requests from one token in one window (429)."""

    def __init__(self, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__("too many requests: slow down", {"retry_after": seconds})
        self.retry_after = seconds


def check_rate() -> None:
    limit = current_app.config["RATE_LIMIT"]
    token = g.get("token")
    if not limit or token is None or token == current_app.config["ADMIN_TOKEN"]:
        return
    subject = hashlib.sha256(token.encode()).hexdigest()[:24]
    service = current_app.extensions["parlour"]
    wait = ratelimit.hit(service.r, subject, limit, current_app.config["RATE_PERIOD"], time.time())
    if wait is not None:
        raise RateLimited(wait)


def register(app: Flask) -> None:
    """Count every request after the token is read (``load_token`` runs first)."""
    app.before_request(check_rate)
