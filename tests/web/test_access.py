"""Accessibility and looks: axe-core on every page at desktop and phone sizes, screenshots,
the phone's first screen, and a whole Concerto deal played by keyboard alone.

axe-core is installed by this module with npm (``npm install --prefix var/cache/axe``);
without npm these checks skip and say so. Screenshots land in ``var/screenshots/``
(the session prints the path at its end).
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Page

from server.processes.botpool import BotPool, BotSpec
from server.processes.scheduler import Runner
from tests.conftest import ADMIN_TOKEN, LiveServer, Player
from tests.web.conftest import TIMEOUT_MS, Seats, play_random
from tests.web.test_ladders import played_ladder

ROOT = Path(__file__).resolve().parents[2]
AXE_DIR = ROOT / "var" / "cache" / "axe"
SHOTS = ROOT / "var" / "screenshots"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
TABLES = [
    ("concerto", {"deals": 1}, 4),
    ("seconds", {}, 4),
    ("cowpoke", {"players": 3}, 3),
    ("pinochle", {"variant": "partnership"}, 4),
    ("pinochle", {"variant": "double-deck"}, 6),
]
"""One table of each game (and of each Pinochle shape) that axe checks, mid-deal."""


@pytest.fixture(scope="session")
def axe_source() -> str:
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
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


def open_page(browser: Browser, url: str, size: str) -> Page:
    """``url`` in a context of its own."""
    return open_in(new_context(browser, size), url)


def start_axe(page: Page, axe: str) -> None:
    """Start axe on ``page`` and return at once; :func:`serious_violations` awaits it, so
    the browser checks one page while the next one loads."""
    page.add_script_tag(content=axe)
    # Only violations are asked for: axe then skips gathering its passes (the same rules run).
    page.evaluate("() => { window.axeRun = axe.run(document, {resultTypes: ['violations']}); }")


def serious_violations(page: Page) -> list[str]:
    found = page.evaluate("async () => (await window.axeRun).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture
def pool(live_server: LiveServer) -> Iterator[BotPool]:
    running = BotPool(
        live_server.url, ADMIN_TOKEN, bots=[BotSpec("random", None)], seats=3, wait=0.5, seed=9
    )
    running.start()
    yield running
    running.stop(timeout=5)


def a_running_tournament(seats: Seats, app, players: list[Player]) -> str:
    """A Concerto round robin of two partnerships, its one table paired and under way."""
    made = seats.call(
        "post",
        "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1}, "name": "Friday"},
        ADMIN_TOKEN,
    )
    for pair in ((players[0], players[2]), (players[1], players[3])):
        body = {"players": [p.id for p in pair]}
        seats.call("post", f"/v1/tournaments/{made['id']}/entries", body, ADMIN_TOKEN)
    seats.call("post", f"/v1/tournaments/{made['id']}/start", {}, ADMIN_TOKEN)
    Runner(app.extensions["parlour"]).tick()
    return made["id"]


def live_tables(seats: Seats, players: list[Player]) -> dict[str, str]:
    """Each game of ``TABLES`` a few moves in, as a spectator and as seat 0 see it.

    Seat 0 is left to move, so its page shows its legal cards and move buttons too.
    """
    pages: dict[str, str] = {}
    for number, (game, options, count) in enumerate(TABLES):
        name = "-".join([game, *map(str, options.values())]) if game == "pinochle" else game
        live = seats.game(game, players[:count], options)["id"]
        rng = random.Random(number)
        play_random(seats, live, players[:count], rng, limit=7)
        assert play_random(seats, live, players[:count], rng, stop_at_seat=0)["to_move"] == [0]
        pages[f"table-{name}-spectator"] = f"/table/{live}"
        pages[f"table-{name}-seated"] = f"/table/{live}#token={players[0].token}"
    return pages


def collect(name: str, page: Page, size: str) -> dict[str, list[str]]:
    """The serious violations axe found on ``page`` (keyed by page and size), and close it."""
    found = serious_violations(page)
    page.close()
    return {f"{name} {size}": found} if found else {}


def test_every_page_passes_axe_at_both_sizes_and_is_photographed(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    """Every kind of page, and every game's table both watched and seated, at both sizes."""
    names = ("ann", "ben", "cat", "dan", "eve", "fay")
    players = [seats.register(name) for name in names]
    tables = live_tables(seats, players)
    players = players[:4]
    done = seats.game("concerto", players, {"deals": 1})["id"]
    play_random(seats, done, players, random.Random(2))
    tournament = a_running_tournament(seats, app, players)
    ladder, entries = played_ladder(app.extensions["parlour"], contests=2)
    pages = {
        "lobby": "/",
        **tables,
        "replay": f"/replay/{done}?step=30",
        "rules": "/rules/concerto",
        "tournament": f"/tournaments/{tournament}",
        "ratings": "/ratings/concerto",
        "ladder": f"/ladders/{ladder}",
        "ladder-player": f"/ladders/{ladder}/players/{entries[0]['id']}",
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: dict[str, list[str]] = {}
    for size in SIZES:
        # One context per size, a new tab per page: the app keeps nothing but a tab's
        # sessionStorage, so each page opens as in a fresh browser.
        context = new_context(browser, size)
        checking: tuple[str, Page] | None = None  # the page axe is checking meanwhile
        for name, path in pages.items():
            page = open_in(context, live_server.url + path)
            if name.startswith("table"):
                page.wait_for_selector(".board")
            if name.startswith("ladder"):
                page.wait_for_selector(".ladder-board, .health")
            assert page.locator("main").count() == 1 and page.locator("h1").count() >= 1, name
            unnamed = page.eval_on_selector_all(
                "[data-card]",
                "els => els.filter(e => !(e.getAttribute('aria-label') || "
                "e.textContent.trim())).length",
            )
            assert unnamed == 0, name  # every visible card has an accessible name
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
            start_axe(page, axe_source)
            if checking is not None:
                problems |= collect(*checking, size)
            checking = (name, page)
        if checking is not None:
            problems |= collect(*checking, size)
        context.close()
    assert not problems, "\n".join(f"{k}: {v}" for k, vs in problems.items() for v in vs)


def test_on_a_phone_the_hand_and_every_action_are_on_the_first_screen(
    browser: Browser, live_server: LiveServer, pool: BotPool
) -> None:
    page = open_page(browser, live_server.url + "/", "phone")
    page.locator("form.offer[data-game='concerto'] button.play-bots").click()
    page.wait_for_selector(".seat.you button.card.legal")
    height = SIZES["phone"]["height"]
    for selector in (".seat.you .hand", ".board .center"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + min(box["height"], 60) <= height, selector
    for target in page.locator(".seat.you button.card.legal, button.move").all():
        box = target.bounding_box()
        assert box is not None and box["y"] + box["height"] <= height
        assert box["width"] >= 44 and box["height"] >= 44
    page.context.close()


def test_a_whole_concerto_deal_by_keyboard_alone(
    browser: Browser, live_server: LiveServer, pool: BotPool
) -> None:
    page = open_page(browser, live_server.url + "/", "desktop")
    page.locator("form.offer[data-game='concerto'] button.play-bots").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".board[data-status=active]")
    game_id = page.url.rsplit("/", 1)[1]
    events = f"{live_server.url}/v1/games/{game_id}/events?after=0&wait=0"
    presses = 0
    while not any(
        e["kind"] == "deal_end" for e in requests.get(events, timeout=10).json()["events"]
    ):
        try:
            page.wait_for_selector("button.card.legal, button.move", timeout=1500)
        except Exception:  # noqa: BLE001 - the bots are playing, or the deal just ended
            continue
        version = page.locator(".board").get_attribute("data-version")
        for _ in range(80):  # Tab until a legal card (or a move button) has the focus
            page.keyboard.press("Tab")
            presses += 1
            if page.evaluate(
                "() => document.activeElement?.matches('button.card.legal, button.move') ?? false"
            ):
                break
        else:
            continue  # redrawn meanwhile: look again
        page.keyboard.press("Enter")
        try:
            page.wait_for_selector(f".board:not([data-version='{version}'])", timeout=5000)
        except Exception:  # noqa: BLE001 - focus was on a stale node: try again
            continue
    assert presses > 0
    page.context.close()
