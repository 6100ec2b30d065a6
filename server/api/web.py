"""The web table: the lobby, a game's table and its replay, as static pages.

The pages are plain files (``server/web``: HTML, CSS, ES modules; no build
step). Every page is the same shell, ``index.html``; its script reads the path
and draws the lobby, a table or a replay from the public ``/v1`` API, exactly
like any other client. So the browser only ever holds what the API gives the
caller: a spectator's view, or, with a seat token, that seat's view.

The seat token stays in the browser: it arrives in the URL fragment
(``#token=...``, which browsers never send to a server) or a form, is kept in
``sessionStorage`` and is sent only in the ``Authorization`` header of API
calls. The headers below keep it that way: scripts from this origin only
(so no injected script can read it), no referrer, no framing.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"

bp = Blueprint("web", __name__, static_folder=str(WEB_ROOT), static_url_path="/web")

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def _shell() -> Response:
    """The one page every route serves; its script decides what to draw."""
    return send_from_directory(WEB_ROOT, "index.html", max_age=0)


@bp.get("/")
def lobby() -> Response:
    return _shell()


@bp.get("/table/<game_id>")
def table(game_id: str) -> Response:
    return _shell()


@bp.get("/replay/<game_id>")
def replay(game_id: str) -> Response:
    return _shell()


@bp.after_request
def _headers(response: Response) -> Response:
    """Pages and their files alike: the security headers, and revalidate on every load."""
    response.headers.update(SECURITY_HEADERS)
    response.headers["Cache-Control"] = "no-cache"
    return response
