"""A table in another site's iframe, in Chromium: shown when the operator lists that
site's origin (``PARLOUR_FRAME_ANCESTORS``), refused by the browser otherwise.

The other sites are two small standard-library servers on this machine (other ports,
so other origins; a public origin may not frame a local server at all), each
serving one page that holds an iframe of the live server's table.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote, unquote

import pytest
from playwright.sync_api import Browser

from tests.conftest import LiveServer
from tests.web.conftest import TIMEOUT_MS, Seats


class Site:
    """``http://127.0.0.1:<port>/?frame=<url>``: a page that frames ``<url>``."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                framed = html.escape(unquote(self.path.split("?frame=", 1)[1]))
                body = f'<!doctype html><title>cards</title><iframe src="{framed}" title="table">'
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[Site, Site]]:
    made = (Site(), Site())
    yield made
    for site in made:
        site.close()


@pytest.fixture(params=[False, True], ids=["default", "framing-allowed"])
def app_config(
    app_config: dict[str, Any], request: pytest.FixtureRequest, sites: tuple[Site, Site]
) -> dict[str, Any]:
    """By default, no framing; else the first site may frame the pages."""
    return app_config | {"FRAME_ANCESTORS": sites[0].origin if request.param else ""}


def test_a_listed_origin_frames_the_table_and_any_other_is_refused(
    browser: Browser,
    live_server: LiveServer,
    seats: Seats,
    app_config: dict[str, Any],
    sites: tuple[Site, Site],
) -> None:
    players = [seats.register(name) for name in ("ann", "ben", "cat", "dan")]
    game = seats.game("concerto", players, {"deals": 1})["id"]
    table = f"{live_server.url}/table/{game}#token={players[0].token}"
    allowed = app_config["FRAME_ANCESTORS"] == sites[0].origin
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    for site, shown in ((sites[0], allowed), (sites[1], False)):
        page = context.new_page()
        page.goto(f"{site.origin}/?frame={quote(table)}")  # returns once the iframe has loaded
        (child,) = page.main_frame.child_frames
        if shown:
            frame = page.frame_locator("iframe")
            frame.locator(".board[data-status=active]").wait_for()
            assert frame.locator(".seat.you .player").inner_text() == "ann"
        else:  # Chromium shows its error page in the frame instead
            assert child.url.startswith("chrome-error://"), child.url
            assert child.evaluate("() => document.body.dataset.ready ?? null") is None
        page.close()
    context.close()
