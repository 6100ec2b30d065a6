"""The security headers, on every response: pages, API answers, errors, unknown URLs.

An app-wide hook, so that responses no blueprint answers (werkzeug's own 404
for an unknown URL, a 405, a 413) carry them too. For the pages they keep a
seat token in the browser (server/api/web.py): scripts from this origin only,
no referrer, no framing; for JSON they stop a browser from sniffing it into
something else.
"""

from __future__ import annotations

from flask import Flask, Response

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def add_security_headers(response: Response) -> Response:
    """Set :data:`SECURITY_HEADERS` (where a view set one itself, the view's stays)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def register(app: Flask) -> None:
    app.after_request(add_security_headers)
