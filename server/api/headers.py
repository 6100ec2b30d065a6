"""The security headers, on every response: pages, API answers, errors, unknown URLs.

An app-wide hook, so that responses no blueprint answers (werkzeug's own 404
for an unknown URL, a 405, a 413) carry them too. For the pages they keep a
seat token in the browser (server/api/web.py): scripts from this origin only,
no referrer, and no framing, unless the operator names the origins whose pages may
frame the web pages (``PARLOUR_FRAME_ANCESTORS``, ``FRAME_ANCESTORS`` in the app
config: a space-separated list of ``scheme://host[:port]`` origins; see
docs/embed.md). API answers are never framed; for JSON the headers stop a browser
from sniffing it into something else.
"""

from __future__ import annotations

from flask import Flask, Response, current_app

from server.origins import parse_frame_ancestors

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors {ancestors}"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP.format(ancestors="'none'"),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
"""The headers of every response when no origin may frame the pages (the default)."""


def page_headers(frame_ancestors: tuple[str, ...]) -> dict[str, str]:
    """The pages' headers: :data:`SECURITY_HEADERS`, framing allowed to these origins."""
    ancestors = " ".join(frame_ancestors) or "'none'"
    return {**SECURITY_HEADERS, "Content-Security-Policy": CSP.format(ancestors=ancestors)}


def for_pages() -> dict[str, str]:
    """The current app's page headers (set up by :func:`register`)."""
    return current_app.extensions["page_headers"]  # type: ignore[no-any-return]


def add_security_headers(response: Response) -> Response:
    """Set :data:`SECURITY_HEADERS` (where a view set one itself, the view's stays)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def register(app: Flask) -> None:
    """Check ``FRAME_ANCESTORS`` (a ValueError stops the app's start) and add the hook."""
    app.extensions["page_headers"] = page_headers(
        parse_frame_ancestors(app.config.get("FRAME_ANCESTORS"))
    )
    app.after_request(add_security_headers)
