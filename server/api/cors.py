"""CORS: which other origins' pages may call the API from a browser.

Configured by ``PARLOUR_CORS_ORIGINS`` (``CORS_ORIGINS`` in the app config), a
comma-separated list of exact origins (``https://app.example,
http://127.0.0.1:9000``); ``*`` allows every origin. Unset or empty: no CORS
header is ever sent, and browsers keep pages of other origins out.

* **No credentials, ever.** Parlour authenticates with bearer tokens in the
  ``Authorization`` header, not cookies, so it never sends
  ``Access-Control-Allow-Credentials``. That is what makes ``*`` safe to offer:
  a browser attaches no ambient credential a hostile page could ride on. (A
  page that holds a token can use it from anywhere anyway.)
* An allowed origin is echoed back (``Access-Control-Allow-Origin: <origin>``),
  never ``*`` when a list is configured, and every response carries
  ``Vary: Origin`` so a cache never serves one origin's answer to another.
* A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) is answered
  here, before auth and routing, with ``204``: the allowed methods and
  headers (``Authorization``, ``Content-Type``, ``Last-Event-ID``) and
  ``Access-Control-Max-Age``. A preflight from an origin not allowed gets the
  same ``204`` without any ``Access-Control-Allow-*``: the browser refuses.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, Response, request

ALLOW_METHODS = "GET, POST, OPTIONS"
ALLOW_HEADERS = "Authorization, Content-Type, Last-Event-ID"
EXPOSE_HEADERS = "Retry-After"
MAX_AGE = 600
"""Seconds a browser may cache a preflight's answer (Chromium caps it at 7200)."""


def parse_origins(value: str | Iterable[str] | None) -> frozenset[str]:
    """The configured origins as a set (trailing slashes dropped; blanks ignored).

    >>> sorted(parse_origins(" http://a.example/ ,https://b.example,, "))
    ['http://a.example', 'https://b.example']
    >>> parse_origins(None)
    frozenset()
    """
    if value is None:
        return frozenset()
    items = value.split(",") if isinstance(value, str) else value
    return frozenset(o.strip().rstrip("/") for o in items if o.strip())


class Cors:
    """The two hooks: answer preflights, and add the headers to every response."""

    def __init__(self, origins: frozenset[str]) -> None:
        self.origins = origins
        self.any = "*" in origins

    def allowed(self, origin: str | None) -> str | None:
        """The ``Access-Control-Allow-Origin`` value for ``origin``, or None (refused)."""
        if origin is None:
            return None
        if self.any:
            return "*"
        return origin if origin in self.origins else None

    def preflight(self) -> Response | None:
        """Answer a CORS preflight at once (before auth: it carries no token)."""
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        response = Response(status=204)
        allow = self.allowed(request.headers.get("Origin"))
        if allow is not None:
            response.headers["Access-Control-Allow-Origin"] = allow
            response.headers["Access-Control-Allow-Methods"] = ALLOW_METHODS
            response.headers["Access-Control-Allow-Headers"] = ALLOW_HEADERS
            response.headers["Access-Control-Max-Age"] = str(MAX_AGE)
        return response

    def add_headers(self, response: Response) -> Response:
        response.vary.add("Origin")
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response.vary.update(
                ("Access-Control-Request-Method", "Access-Control-Request-Headers")
            )
            return response
        allow = self.allowed(request.headers.get("Origin"))
        if allow is not None:
            response.headers["Access-Control-Allow-Origin"] = allow
            response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
        return response


def register(app: Flask) -> None:
    """Install CORS if ``CORS_ORIGINS`` names any origin; otherwise change nothing."""
    origins = parse_origins(app.config.get("CORS_ORIGINS"))
    if not origins:
        return
    cors = Cors(origins)
    app.before_request_funcs.setdefault(None, []).insert(0, cors.preflight)
    app.after_request(cors.add_headers)
