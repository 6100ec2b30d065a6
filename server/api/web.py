"""The web table: the lobby, a game's table and its replay, tournaments, ratings,
ladders and matches, as static pages.

The pages are plain files (``server/web``: HTML, CSS, ES modules; no build
step). Every page is the same shell, ``index.html``; its script reads the path
and draws the lobby, a table, a replay, a tournament or a leaderboard from the
public ``/v1`` API, exactly like any other client. So the browser only ever holds
what the API gives the caller: a spectator's view, or, with a seat token, that
seat's view.

The seat token stays in the browser: it arrives in the URL fragment
(``#token=...``, which browsers never send to a server) or a form, is kept in
``sessionStorage`` and is sent only in the ``Authorization`` header of API
calls. The headers below keep it that way: scripts from this origin only
(so no injected script can read it), no referrer, no framing but by the origins the
operator lists (``PARLOUR_FRAME_ANCESTORS``, docs/embed.md).
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import markdown
from flask import Blueprint, Response, request, send_from_directory
from werkzeug.exceptions import NotFound as HTTPNotFound

from . import errors
from .context import services
from .headers import for_pages

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
DOCS_ROOT = WEB_ROOT.parent.parent / "docs"
"""The docs site's sources, in a source checkout (``docs/`` beside ``server/``)."""
RULES_ROOT = DOCS_ROOT / "rules"

bp = Blueprint("web", __name__, static_folder=str(WEB_ROOT), static_url_path="/web")


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


@bp.get("/replay")
def replay_file() -> Response:
    """Opens a replay file (``parlour-bot play --out``) in the browser: nothing is uploaded."""
    return _shell()


@bp.get("/tournaments/<tournament_id>")
def tournament(tournament_id: str) -> Response:
    return _shell()


@bp.get("/tournaments/<tournament_id>/projector")
def projector(tournament_id: str) -> Response:
    """A tournament's standings and cross-table for a projector: large type, live."""
    return _shell()


@bp.get("/ratings/<game>")
def ratings(game: str) -> Response:
    return _shell()


@bp.get("/ratings/<game>/players/<player_id>")
def rating_history(game: str, player_id: str) -> Response:
    """One player's rating after each rated game of ``game``, with its 95% range."""
    return _shell()


@bp.get("/matches/<match_id>")
def match(match_id: str) -> Response:
    """A match's status, its test's LLR against the bounds, the estimate, every board; live."""
    return _shell()


@bp.get("/ladders/<ladder_id>")
def ladder(ladder_id: str) -> Response:
    return _shell()


@bp.get("/ladders/<ladder_id>/players/<player_id>")
def ladder_player(ladder_id: str, player_id: str) -> Response:
    return _shell()


@bp.get("/rules")
def rules_index() -> Response:
    items = "".join(
        f'<li><a href="/rules/{g}">{g.capitalize()}</a></li>' for g in _games() if _rules_file(g)
    )
    body = f"<h1>Rules</h1><ul>{items}</ul>" if items else _NO_DOCS
    return _page("Rules", body, status=200 if items else 404, trail=["Rules"])


@bp.get("/rules/<game>")
def rules(game: str) -> Response:
    """A game's rules, rendered from ``docs/rules/<game>.md`` (anchors such as ``#c17`` kept)."""
    known = game in _games()
    source = _rules_file(game) if known else None
    if source is None:
        why = _NO_DOCS if known else f"<p>No game is called {html.escape(game)}.</p>"
        return _page(
            "No such rules page", "<h1>No such rules page</h1>" + why, status=404, trail=[RULES]
        )
    title = game.capitalize()
    return _page(f"{title} rules", _render(str(source)), trail=[RULES, title])


@bp.get("/tutorials/python-bot")
def python_bot() -> Response:
    """The Python bot tutorial, linked from the lobby (``docs/tutorials/python-bot.md``)."""
    source = DOCS_ROOT / "tutorials" / "python-bot.md"
    if not source.is_file():
        return _page("No tutorial here", "<h1>No tutorial here</h1>" + _NO_DOCS, status=404)
    return _page("A bot in Python", _render(str(source)), trail=["A bot in Python"])


@bp.app_errorhandler(404)
def not_found(exc: HTTPNotFound) -> Any:
    """Unknown web paths get an HTML 404 page; the API's paths keep their JSON envelope.

    Flask prefers a handler for the status code over the app's catch-all
    ``Exception`` handler (:func:`.errors.register`), so every 404 comes here first.
    """
    if request.path.startswith("/v1") or request.method != "GET":
        return errors.handle(exc)
    return _page(
        "Page not found",
        "<h1>Page not found</h1><p>There is no page here. "
        'Try the <a href="/">lobby</a> or the <a href="/rules">rules</a>.</p>',
        status=404,
    )


_NO_DOCS = (
    "<p>This server has no rules pages: they are read from the <code>docs/</code> folder of "
    "a Parlour checkout, which this installation lacks. The rules are also in the "
    'project\'s documentation site.</p><p><a href="/">Back to the lobby</a></p>'
)


def _games() -> list[str]:
    """The registered games' ids: each has a rules page, ``docs/rules/<id>.md``."""
    return [g["id"] for g in services().lobby.rules()["games"]]


def _rules_file(game: str) -> Path | None:
    path = RULES_ROOT / f"{game}.md"
    return path if path.is_file() else None


@lru_cache(maxsize=8)
def _render(path: str) -> str:
    """The Markdown as HTML; links to sibling rules pages point at ``/rules/<game>``."""
    text = Path(path).read_text(encoding="utf-8")
    out = markdown.markdown(text, extensions=["tables", "attr_list", "toc"])
    out = re.sub(r'href="(?:\.\./rules/|\./)?(\w+)\.md(#[\w-]*)?"', _sibling_link, out)
    return f'<article class="rules">{out}</article>'


def _sibling_link(found: re.Match[str]) -> str:
    name, anchor = found.group(1), found.group(2) or ""
    if name in _games():
        return f'href="/rules/{name}{anchor}"'
    return found.group(0)


RULES = ("Rules", "/rules")
"""The rules index as a crumb of the pages under it."""


def _trail(trail: list[str | tuple[str, str]]) -> str:
    """The crumbs after "Lobby": a link for each (text, href), the last (the page) as text."""
    parts = ['<a href="/">Lobby</a>']
    for item in trail:
        text, href = item if isinstance(item, tuple) else (item, None)
        shown = html.escape(text)
        parts.append(f'<a href="{href}">{shown}</a>' if href else f"<span>{shown}</span>")
    return " › ".join(parts)


def _page(
    title: str, body: str, *, status: int = 200, trail: list[str | tuple[str, str]] | None = None
) -> Response:
    """A server-drawn page in the shell's frame: header, landmarks, the same stylesheet;
    its crumbs are "Lobby" then ``trail`` (none: a page of no place, as a 404)."""
    page = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>{html.escape(title)} · Parlour</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/web/style.css">
</head>
<body data-ready="true">
  <header class="topbar">
    <a class="brand" href="/">♠ Parlour</a>
    <nav aria-label="where you are">{_trail(trail or [])}</nav>
  </header>
  <main id="main" class="page">
{body}
  </main>
</body>
</html>
"""
    return Response(page, status=status, mimetype="text/html")


@bp.after_request
def _headers(response: Response) -> Response:
    """Pages and their files alike: the security headers (framing as the operator
    allows: ``PARLOUR_FRAME_ANCESTORS``), and revalidate on every load."""
    response.headers.update(for_pages())
    response.headers["Cache-Control"] = "no-cache"
    return response
