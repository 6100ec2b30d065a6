"""Per-token rate limiting (docs/api.md: 429 ``rate_limited`` with ``Retry-After``).

``PARLOUR_RATE_LIMIT`` requests per ``PARLOUR_RATE_PERIOD`` seconds (default
1) per token, counted in Redis so the limit holds across every API process.
``0`` (the default) turns it off: a limiter costs a Redis round trip on every
request, which a server behind its own gateway may rather not pay. Requests
without a token are not counted; the admin token is never limited. The token
is hashed before it names a key, so no key holds a credential.
"""

from __future__ import annotations

from flask import Flask, current_app, g

from server.services.errors import RateLimited

from .context import services

__all__ = ["RateLimited", "check_rate", "register"]


def check_rate() -> None:
    """Count the request against its token (:class:`~server.services.ratelimit.RateLimits`)."""
    config = current_app.config
    services().ratelimits.check(g.get("token"), config["RATE_LIMIT"], config["RATE_PERIOD"])


def register(app: Flask) -> None:
    """Count every request after the token is read (``load_token`` runs first)."""
    app.before_request(check_rate)
