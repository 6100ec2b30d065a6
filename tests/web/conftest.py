"""Browser fixtures for the web table: Debian's Chromium, driven by Playwright.

The browser is the system's, never one Playwright downloads: Debian's
``chromium-headless-shell`` where it is installed (the old headless mode, the one
Playwright itself runs headless, at about half the CPU: no browser window, no
browser-UI pages in renderers of their own), else ``/usr/bin/chromium`` from the
Debian package, which ``make test`` installs where it can.
It starts headless with a fresh profile (Playwright gives every launch a new
temporary ``--user-data-dir``) and with the flags this machine's closed network
needs. These tests skip only when no Chromium is installed.

* ``browser``: one Chromium per session (defined in ``tests/conftest.py``, so that a
  browser test outside ``tests/web`` shares it; launched by :func:`launch_browser`).
* ``web``: a fresh page on the ``live_server`` app; it records every ``/v1`` response
  the page received (``web.responses``) and fails the test on any JavaScript error or
  console error. The page is a new tab (its own ``sessionStorage``, where the app keeps
  a token) in a context shared by the session's ``web`` tests, and the test's tabs are
  closed after it: under the full ``chromium`` a context of its own per test would
  cost a new window, and each new window loads the browser's own omnibox page in a
  renderer of its own (about half a CPU-second a test; the headless shell has no
  windows). The app keeps nothing in cookies, and in ``localStorage`` only the table's
  settings (server/web/js/prefs.js: a test that changes them clears them).
  Its pages prefer reduced motion (see :func:`shared_context`); it waits for the page's
  own changes (:func:`wait_for`, a MutationObserver) rather than asking it over and over.
* ``phone_web``: the same on a 390×844 touch screen (``page.tap`` works there), in a
  shared context of its own.
* ``seats``: registers players through the API and seats them in new games.
* ``axe_source``: axe-core's script, installed once with npm (tests/web/audit.py).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright

from tests.api.helpers import Connections
from tests.conftest import ADMIN_TOKEN, LiveServer, Player

CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
TIMEOUT_MS = 10_000


def chromium_path() -> str | None:
    """The system Chromium: ``$PARLOUR_CHROMIUM``, else ``chromium-headless-shell`` or
    ``chromium`` on the PATH (the shell first: the same engine, headless only)."""
    found = os.environ.get("PARLOUR_CHROMIUM")
    found = found or shutil.which("chromium-headless-shell") or shutil.which("chromium")
    if found is None and os.path.exists("/usr/bin/chromium"):
        found = "/usr/bin/chromium"
    return found


def launch_browser(playwright: Playwright) -> Iterator[Browser]:
    """The system Chromium, headless (the root conftest's session-wide ``browser``)."""
    path = chromium_path()
    if path is None:
        pytest.skip(
            "no Chromium installed: the web table tests need Debian's `chromium` "
            "(as root, `make test` installs it with apt-get)"
        )
    browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
    yield browser
    browser.close()


@dataclass
class Web:
    """A page on the live server, with what it received and what went wrong in it."""

    page: Page
    url: str
    responses: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, path: str) -> Page:
        """Load a page of the app and wait until its script has drawn it."""
        self.page.goto(self.url + path)
        self.page.wait_for_selector("body[data-ready=true]")
        return self.page

    def received(self) -> str:
        """Every /v1 response body the page received so far, one per line."""
        return "\n".join(body for _, body in self.responses)


_SHARED: dict[str, tuple[Browser, BrowserContext]] = {}
"""The session's shared contexts, by kind of screen (see :func:`web_page`)."""


def shared_context(browser: Browser, kind: str, **options: Any) -> BrowserContext:
    """The context of ``browser`` for screens of this ``kind`` (made with ``options``, as
    Playwright takes them, on first use; made again if it was closed).

    Its pages prefer reduced motion (unless ``options`` say otherwise), as a person may
    ask their system: a legal card then rises at once under the pointer, where it would
    glide for a few frames, each one laid out and painted again (style.css)."""
    known = _SHARED.get(kind)
    if known is None or known[0] is not browser or known[1] not in browser.contexts:
        context = browser.new_context(**({"reduced_motion": "reduce"} | options))
        context.set_default_timeout(TIMEOUT_MS)
        _SHARED[kind] = (browser, context)
    return _SHARED[kind][1]


@contextmanager
def web_page(context: BrowserContext, url: str) -> Iterator[Web]:
    """A new tab in ``context``, watched for errors; every tab of ``context`` (those the
    test opened too) is closed after it, and its cookies cleared."""
    page = context.new_page()
    web = Web(page, url)

    def on_response(response) -> None:
        if "/v1/" in response.url:
            try:
                web.responses.append((response.url, response.text()))
            except Exception as exc:  # a long-poll cut off by the page's end
                web.responses.append((response.url, f"<unreadable: {exc}>"))

    page.on("response", on_response)
    page.on("pageerror", lambda exc: web.errors.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda msg: web.errors.append(f"console: {msg.text}") if is_error(msg) else None,
    )
    try:
        yield web
    finally:
        for tab in context.pages:
            tab.close()
        context.clear_cookies()
    assert not web.errors, web.errors


EXPECTED = tuple(f"the server responded with a status of {code}" for code in (409, 422))
"""Answers the page expects, though Chromium logs every failed load as an error: a move
that lost the race to the bots (409: the page sends it again at the new version while it is
still legal, else says the table moved on and shows the latest view), and a tapped card
that is no legal move (422: the page shows the server's reason); see server/web/js/table.js."""


def is_error(msg: Any) -> bool:
    """A console message that fails the test: any error but Chromium's log of a 409 or 422."""
    return bool(msg.type == "error" and not any(e in msg.text for e in EXPECTED))


PHONE = {"width": 390, "height": 844}
"""The phone the tests hold: its screen in CSS pixels."""


DESKTOP = {"width": 1280, "height": 900}
"""The desktop screen of the ``web`` fixture, in CSS pixels."""


@pytest.fixture
def web(browser: Browser, live_server: LiveServer) -> Iterator[Web]:
    context = shared_context(browser, "desktop", viewport=DESKTOP)
    with web_page(context, live_server.url) as made:
        yield made


@pytest.fixture
def phone_web(browser: Browser, live_server: LiveServer) -> Iterator[Web]:
    """Like ``web``, on a touch phone: taps, not clicks, and a 390×844 screen."""
    context = shared_context(browser, "phone", viewport=PHONE, has_touch=True, is_mobile=True)
    with web_page(context, live_server.url) as made:
        yield made


class Seats:
    """Players registered through the API, seated in games created through the API."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = Connections(url)  # http.client: the API tests' cheaper client

    def register(self, name: str) -> Player:
        body = self.call("post", "/v1/players", {"name": name})
        return Player(body["id"], body["name"], body["token"])

    def game(
        self, game: str, players: list[Player], options: dict | None = None, **extra: Any
    ) -> dict[str, Any]:
        """Create a game with these players in seat order (as the admin) and return its view."""
        body = {"game": game, "seats": [p.id for p in players], "options": options or {}, **extra}
        return self.call("post", "/v1/games", body, ADMIN_TOKEN)

    def view(self, game_id: str, player: Player | None = None) -> dict[str, Any]:
        return self.call("get", f"/v1/games/{game_id}", token=player.token if player else None)

    def move(self, game_id: str, player: Player, move: dict, version: int) -> dict[str, Any]:
        return self.call(
            "post", f"/v1/games/{game_id}/moves", {"move": move, "version": version}, player.token
        )

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        reply = self.http.request(method.upper(), path, data, headers)
        assert reply.status < 300, (reply.status, reply.text)
        return reply.body


@pytest.fixture
def seats(live_server: LiveServer) -> Iterator[Seats]:
    helper = Seats(live_server.url)
    yield helper
    helper.http.close()


def play_random(
    seats: Seats,
    game_id: str,
    players: list[Player],
    rng,
    *,
    limit: int | None = None,
    stop_at_seat: int | None = None,
) -> dict[str, Any]:
    """Random legal moves through the API, each by its seat's own token.

    Stops at the end, after ``limit`` moves, or when ``stop_at_seat`` is to move.
    Returns the last public view.
    """
    view = seats.view(game_id)
    played = 0
    while view["status"] == "active" and (limit is None or played < limit):
        if stop_at_seat is not None and stop_at_seat in view["to_move"]:
            break
        seat = view["to_move"][0]
        mine = seats.view(game_id, players[seat])
        seats.move(game_id, players[seat], rng.choice(mine["legal_moves"]), mine["version"])
        view = seats.view(game_id)
        played += 1
    return view


APPEARS = """([selector, ms]) => new Promise((resolve) => {
  const found = () => document.querySelector(selector) !== null;
  if (found()) { resolve(true); return; }
  const observer = new MutationObserver(() => {
    if (found()) { observer.disconnect(); clearTimeout(timer); resolve(true); }
  });
  const timer = setTimeout(() => { observer.disconnect(); resolve(false); }, ms);
  observer.observe(document, {subtree: true, childList: true, attributes: true});
})"""
"""Resolves once an element matches ``selector`` (true), or after ``ms`` (false); the
page's own DOM changes wake it (a MutationObserver), where Playwright's
``wait_for_selector`` asks the page again and again (every 100-500 ms, each ask a
round trip through the driver and the browser)."""


def appears(page: Page, selector: str, timeout_ms: float) -> bool:
    """Whether an element matching ``selector`` is in the page within ``timeout_ms``
    (attached: a click on it then waits for it to be visible, stable and enabled)."""
    return bool(page.evaluate(APPEARS, [selector, timeout_ms]))


def wait_for(page: Page, selector: str, timeout_ms: float = TIMEOUT_MS) -> None:
    """Wait until an element matches ``selector``; fail the test after ``timeout_ms``."""
    assert appears(page, selector, timeout_ms), f"no {selector} after {timeout_ms} ms"


def wait_for_version(page: Page, version: int) -> None:
    """Wait until the page shows the game at ``version`` (drawn from a view, not reloaded)."""
    wait_for(page, f".board[data-version='{version}']")


AXE_DIR = Path(__file__).resolve().parents[2] / "var" / "cache" / "axe"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script (``npm install --prefix var/cache/axe``, once: the xdist workers
    take turns under a lock); skips without npm."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    AXE_DIR.mkdir(parents=True, exist_ok=True)
    with open(AXE_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not script.exists():
            npm = shutil.which("npm")
            if npm is None:
                pytest.skip("npm is not installed: the axe-core checks need it to fetch axe-core")
            subprocess.run(
                [npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund", "axe-core"],
                check=True,
                capture_output=True,
                timeout=300,
            )
    return script.read_text(encoding="utf-8")


def pytest_terminal_summary(terminalreporter) -> None:
    """Say where the screenshots of the test_access_*.py files went, when they took any."""
    shots = Path(__file__).resolve().parents[2] / "var" / "screenshots"
    if shots.is_dir() and any(shots.glob("*.png")):
        terminalreporter.write_line(f"web table screenshots: {shots}")
