"""Rate limiting (docs/api.md: 429 ``rate_limited`` with ``Retry-After``).

``PARLOUR_RATE_LIMIT`` requests per ``PARLOUR_RATE_PERIOD`` seconds (default
1) per token, counted in Redis so the limit holds across every API process;
a token counts however it is sent (``Authorization`` or the game stream's
``?token=``). Requests without a token, or with a made-up one, count per client address
(``PARLOUR_ANON_RATE_LIMIT``, default the same limit). Two kinds of request
also count in a stricter bucket per address, whatever token they carry:
registrations (``POST /v1/players``: ``PARLOUR_REGISTER_LIMIT``, 10, per
``PARLOUR_REGISTER_PERIOD``, 3600 seconds: an account is the one thing an
anonymous caller can make, and fresh accounts would each get a player's caps)
and archive pages (``GET /v1/archive``: ``PARLOUR_ARCHIVE_LIMIT``, 30, per
``PARLOUR_ARCHIVE_PERIOD``, 60 seconds: each page is up to 50 replays). ``0``
turns a count off; ``PARLOUR_RATE_LIMIT`` defaults to 0, because a limiter
costs a Redis round trip on every request, which a server behind its own
gateway may rather not pay. The admin token is never limited. An address counts
as :func:`~server.services.ratelimit.client_key` says (an IPv6 client per /64).

The client address is the socket's peer, unless the operator says how many
proxies stand in front (``PARLOUR_TRUSTED_PROXIES``): then ``X-Forwarded-For``
is believed that many hops from the right (werkzeug's ``ProxyFix``), and
never further, since a client can write anything to the left.
"""

from __future__ import annotations

from flask import Flask, current_app, request
from werkzeug.middleware.proxy_fix import ProxyFix

from server.services.errors import RateLimited

from .context import client_address, presented_token, services

__all__ = ["RateLimited", "check_rate", "register"]

BUCKETS = {"players.register": ("register", "REGISTER"), "games.archive": ("archive", "ARCHIVE")}
"""Endpoints also counted per client address in a stricter bucket of their own, whatever
token they carry: ``endpoint -> (bucket, setting)``, the setting's ``_LIMIT`` per
``_PERIOD`` seconds."""

UNCOUNTED = frozenset({"health.healthz", "metrics.metrics"})
"""Probes from load balancers and scrapers: limiting them would take a healthy host out."""


def check_rate() -> None:
    """Count the request against its token, or its address (and a registration's bucket)."""
    if request.endpoint in UNCOUNTED:
        return
    config = current_app.config
    token, address = presented_token(), client_address()
    limits = services().ratelimits
    limits.check(
        token,
        address,
        config["RATE_LIMIT"],
        config["RATE_PERIOD"],
        anonymous_limit=config["ANON_RATE_LIMIT"],
    )
    bucket = BUCKETS.get(request.endpoint or "")
    if bucket is not None:
        name, setting = bucket
        limits.check_address(
            name, token, address, config[f"{setting}_LIMIT"], config[f"{setting}_PERIOD"]
        )


def register(app: Flask) -> None:
    """Count every request after the token is read (``load_token`` runs first), and
    take the client address from ``X-Forwarded-For`` only behind trusted proxies."""
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies > 0:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=0, x_host=0, x_port=0, x_prefix=0
        )
    app.before_request(check_rate)
