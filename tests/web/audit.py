"""What every page of the web table must pass, checked the same way by the
``test_access_*.py`` files (each file one kind of page, so that ``pytest -n auto
--dist loadfile`` spreads them over the workers):

* landmarks: one ``main``, an ``h1``; every visible card has an accessible name;
* no sideways scrolling (``scrollWidth <= clientWidth``) at both sizes;
* axe-core finds no serious or critical violation at both sizes;
* a screenshot of it at each size in ``var/screenshots/`` (git-ignored).

Each page is loaded once and resized to check the other size (:func:`audit`).

axe-core is installed by the ``axe_source`` fixture (tests/web/conftest.py) with
npm (``npm install --prefix var/cache/axe``); without npm these checks skip and say so.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, CDPSession, Page

from server.services.bundle import Services
from tests.conftest import Player
from tests.web.conftest import TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "var" / "screenshots"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
READY = {"table": ".board", "replay": ".board", "ladder": ".ladder-board, .health"}
"""What a page of each kind draws last, by the start of its name."""


def new_context(browser: Browser, size: str) -> BrowserContext:
    # axe is injected as a script: this context lets it past the pages' CSP.
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def open_in(context: BrowserContext, url: str) -> Page:
    """A new page (a tab: its own sessionStorage, where the app keeps a token) at ``url``."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return page


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on ``page`` as it is laid out now
    (axe must be on the page: :func:`audit` adds it once per page load)."""
    # Only violations are asked for: axe then skips gathering its passes (the same rules run).
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


Look = Callable[[str, str, Page], None]
"""Called with ``(name, size, page)`` once the page is checked at that size (a test's
own look at it, on the same load)."""


def open_fresh(page: Page, url: str) -> None:
    """Load ``url`` in ``page`` as in a new tab: the app keeps nothing but the tab's
    sessionStorage (the token), so that is emptied first. A URL that differs from the
    page's only by a ``#token=`` would not load the page again, so it goes by
    ``about:blank``."""
    if page.url.startswith(("http:", "https:")):
        page.evaluate("() => sessionStorage.clear()")
        if "#" in url and url.split("#")[0] == page.url.split("#")[0]:
            page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def check(page: Page) -> list[str]:
    """What the page as laid out now fails, but axe: landmarks (one ``main``, an ``h1``),
    cards without an accessible name, sideways scrolling (by how much, and the widest
    element that sticks out). One call into the page."""
    mains, h1s, unnamed, width, client, culprit = page.evaluate(
        """() => { const all = (s) => [...document.querySelectorAll(s)];
          const unnamed = all('[data-card]').filter(
            (e) => !(e.getAttribute('aria-label') || e.textContent.trim())).length;
          const d = document.documentElement, w = d.clientWidth;
          let worst = null;
          if (d.scrollWidth > w) {
            for (const e of all('body *')) {
              const r = e.getBoundingClientRect();
              if (r.right > w + 0.5 && (!worst || r.right > worst[1])) worst = [e, r.right];
            }
          }
          const culprit = worst ? `${worst[0].tagName.toLowerCase()}.${worst[0].className}` : '?';
          return [all('main').length, all('h1').length, unnamed, d.scrollWidth, w, culprit]; }"""
    )
    found = []
    if mains != 1 or h1s < 1:
        found.append("no main landmark or no h1")
    if unnamed:
        found.append(f"{unnamed} cards without an accessible name")
    if width > client:
        found.append(f"scrolls sideways: {width} > {client} px, widest {culprit}")
    return found


_tabs: dict[Browser, Page] = {}
_devtools: dict[Page, CDPSession] = {}


def shoot(page: Page, path: Path) -> None:
    """A PNG of the whole page (as ``page.screenshot(full_page=True)``, pixel for
    pixel), which Chromium encodes with its fast setting (``optimizeForSpeed``, which
    Playwright does not offer): a bigger file, a third less CPU."""
    devtools = _devtools.get(page)
    if devtools is None:
        devtools = _devtools[page] = page.context.new_cdp_session(page)
    size = devtools.send("Page.getLayoutMetrics")["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
    shot = devtools.send(
        "Page.captureScreenshot",
        {"format": "png", "captureBeyondViewport": True, "optimizeForSpeed": True, "clip": clip},
    )
    path.write_bytes(base64.b64decode(shot["data"]))


def audit_tab(browser: Browser) -> Page:
    """The one tab of ``browser`` that :func:`audit` loads every page in, made on first
    use and closed with the browser: each page loads afresh in it (:func:`open_fresh`),
    and a tab of its own per page, or per test, cost a renderer's start each."""
    page = _tabs.get(browser)
    if page is None or page.is_closed():
        page = _tabs[browser] = new_context(browser, next(iter(SIZES))).new_page()
    return page


def audit(
    browser: Browser, url: str, axe: str, pages: dict[str, str], look: Look | None = None
) -> dict[str, list[str]]:
    """Each page at both sizes: what it fails, by ``"<name> <size>"`` (empty: all pass).

    Each page is loaded once, afresh (:func:`open_fresh`), in :func:`audit_tab`, and
    checked at each size in turn: the viewport is resized on the loaded page, which
    lays itself out by CSS media queries alone (no script reads the window's size;
    test_access_finished.py checks a resized page is laid out as one loaded at that
    size). axe-core is added once per load and run at each size. A page named
    ``*-seated`` must show one seat as yours, a ``*-spectator`` none (so a load that
    kept the previous page's token fails).
    """
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: dict[str, list[str]] = {}
    first = next(iter(SIZES))
    page = audit_tab(browser)
    for name, path in pages.items():
        page.set_viewport_size(SIZES[first])
        open_fresh(page, url + path)
        ready = READY.get(name.split("-")[0])
        if ready:
            page.wait_for_selector(ready)
        seated = page.locator(".seat.you").count()
        if name.endswith("-seated") and seated != 1 or name.endswith("-spectator") and seated:
            problems[f"{name} load"] = [f"{seated} seats shown as yours"]  # a stale load
        page.add_script_tag(content=axe)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            found = check(page)
            shoot(page, SHOTS / f"{name}-{size}.png")
            found += serious_violations(page)
            if look is not None:
                look(name, size, page)
            if found:
                problems[f"{name} {size}"] = found
    return problems


def layout(page: Page) -> list[str]:
    """Where every element of the page sits (rounded CSS pixels), and the page's size."""
    return page.evaluate(
        """() => { const d = document.documentElement;
          return [`page ${d.scrollWidth}x${d.scrollHeight}`,
            ...[...document.querySelectorAll('body *')].map((e) => {
              const r = e.getBoundingClientRect(), box = [r.x, r.y, r.width, r.height];
              return `${e.tagName.toLowerCase()}.${e.className} ${box.map(Math.round)}`;
            })]; }"""
    )


def differing_pixels(page: Page, first: bytes, second: bytes) -> int | str:
    """How many pixel channels of two PNGs differ (decoded by ``page``'s browser), or
    their sizes when those differ."""
    return page.evaluate(
        """async (pngs) => {
          const bitmaps = await Promise.all(pngs.map((b64) => createImageBitmap(new Blob(
            [Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], {type: 'image/png'}))));
          const [a, b] = bitmaps.map((bm) => {
            const g = new OffscreenCanvas(bm.width, bm.height).getContext('2d');
            g.drawImage(bm, 0, 0);
            return g.getImageData(0, 0, bm.width, bm.height).data;
          });
          const sizes = bitmaps.map((bm) => `${bm.width}x${bm.height}`);
          if (sizes[0] !== sizes[1]) return sizes.join(' vs ');
          let differ = 0;
          for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
          return differ; }""",
        [base64.b64encode(first).decode(), base64.b64encode(second).decode()],
    )


def report(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{k}: {v}" for k, vs in problems.items() for v in vs)


def play(
    service: Services,
    game_id: str,
    players: list[Player],
    rng: random.Random,
    *,
    after: int = 0,
    until: Callable[[dict[str, Any]], bool] | None = None,
) -> dict[str, Any]:
    """Random legal moves through the services (in-process: a whole game in moments),
    each by its seat's own token, to the end, or (after ``after`` moves) until
    ``until(view)`` holds for the view of the seat to move. Returns that view (at the
    end: the first seat's)."""
    view = service.games.view(players[0].token, game_id)
    played = 0
    while view["status"] == "active":
        seat = view["to_move"][0]
        mine = service.games.view(players[seat].token, game_id)
        if until is not None and played >= after and until(mine):
            return mine
        played += 1
        move = rng.choice(mine["legal_moves"])
        view = service.games.move(players[seat].token, game_id, move, mine["version"])
    return service.games.view(players[0].token, game_id)


def seat_zero_to_move(view: dict[str, Any]) -> bool:
    return 0 in view["to_move"]


def table_name(game: str, options: dict[str, Any]) -> str:
    """``concerto``; ``pinochle-firehouse`` (Pinochle's variant in the name)."""
    return f"{game}-{options['variant']}" if game == "pinochle" else game
