"""Per-request context: the app's services, the caller's bearer token and address, and
the request's JSON body (:func:`load_json`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import orjson
from flask import current_app, g, request
from werkzeug.exceptions import RequestEntityTooLarge

from server.services.bundle import Services
from server.services.errors import InvalidRequest, Unauthorized


def services() -> Services:
    """The app's use cases, one object per feature (one bundle per process)."""
    bundle: Services = current_app.extensions["parlour"]
    return bundle


QUERY_TOKEN_ENDPOINTS = frozenset({"stream.stream"})
"""Where a token may come as ``?token=``: only the game stream, which a browser's
``EventSource`` opens and which cannot set headers (server/api/stream.py)."""


def load_token() -> None:
    """Set ``g.token`` from ``Authorization: Bearer <token>`` (None when absent).

    Only the header is parsed here; the service checks the token, pipelined with
    the request's own read where it can (one round trip for a move). A ``?token=``
    is refused (400) everywhere but the game stream: a URL ends up in logs,
    history and ``Referer`` headers, so a token stays out of it wherever a client
    can send a header.

    Raises:
        InvalidRequest: a ``?token=`` where none is taken.
    """
    if "token" in request.args and request.endpoint not in QUERY_TOKEN_ENDPOINTS:
        raise InvalidRequest(
            "send the token in the Authorization header; only the game stream "
            "(GET /v1/games/{id}/stream) takes ?token=",
            {"token": ["not accepted in the query here"]},
        )
    header = request.headers.get("Authorization")
    if header is None:
        g.token = None
        return
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    g.token = token.strip()


def presented_token() -> str | None:
    """The token the request carries: ``g.token`` (the header), else on the game stream
    the ``?token=`` a browser's ``EventSource`` must use (server/api/stream.py).

    Read before any view runs, to count the request against its token
    (server/api/ratelimit.py); the stream view itself reads its validated query.
    """
    if g.get("token") is not None:
        return str(g.token)
    if request.endpoint in QUERY_TOKEN_ENDPOINTS:
        return request.args.get("token") or None
    return None


def client_address() -> str | None:
    """The client's address: the socket's peer, or behind ``PARLOUR_TRUSTED_PROXIES``
    proxies the one they saw (server/api/ratelimit.py installs werkzeug's ``ProxyFix``)."""
    return request.remote_addr


def requires_token(view: Callable[..., Any]) -> Callable[..., Any]:
    """Answer 401 before reading the body when no token was sent at all.

    Whether the token is *known* is checked by the service, pipelined with the
    request's own read (one round trip for a move).
    """

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if g.token is None:
            raise Unauthorized("missing bearer token")
        return view(*args, **kwargs)

    return wrapper


def load_json() -> Any:
    """The request body as JSON (an empty body reads as ``{}``).

    A body that states its length over the limit is refused before it is read
    (werkzeug); a chunked one is read up to the limit and no further, and refused
    if more follows (werkzeug's read stops quietly at the limit).

    Raises:
        InvalidRequest: the body is not JSON.
        RequestEntityTooLarge: the body is over ``MAX_CONTENT_LENGTH`` (413).
    """
    raw = request.get_data(cache=True)
    limit = request.max_content_length
    chunked = request.content_length is None
    if (
        chunked
        and limit is not None
        and len(raw) >= limit
        and request.environ["wsgi.input"].read(1)
    ):
        raise RequestEntityTooLarge()  # one byte past the limit: too long
    if not raw.strip():
        return {}
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise InvalidRequest("malformed JSON", {"body": ["not valid JSON"]}) from None
