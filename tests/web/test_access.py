"""Accessibility in play: on a phone, the hand and every action on the first screen;
a whole Concerto deal played by keyboard alone.

axe-core, sideways scrolling and screenshots of every page at both sizes are the
``test_access_*.py`` files (one per kind of page: tests/web/audit.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from playwright.sync_api import Browser, Page

from server.processes.botpool import BotPool, BotSpec
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.web.audit import SIZES, new_context, open_in


def open_page(browser: Browser, url: str, size: str) -> Page:
    """``url`` in a context of its own."""
    return open_in(new_context(browser, size), url)


@pytest.fixture
def pool(live_server: LiveServer) -> Iterator[BotPool]:
    running = BotPool(
        live_server.url, ADMIN_TOKEN, bots=[BotSpec("random", None)], seats=3, wait=0.5, seed=9
    )
    running.start()
    yield running
    running.stop(timeout=5)


def test_on_a_phone_the_hand_and_every_action_are_on_the_first_screen(
    browser: Browser, live_server: LiveServer, pool: BotPool
) -> None:
    page = open_page(browser, live_server.url + "/", "phone")
    page.locator("form.offer[data-game='concerto'] button.play-bots").click()
    height = SIZES["phone"]["height"]
    # One snapshot of the boxes, taken in the page: the table re-renders as the bots
    # move, so boxes read one call at a time can belong to different renders.
    hand, center, targets = page.wait_for_function(
        """(selectors) => {
            const boxes = selectors.map((s) => [...document.querySelectorAll(s)].map((e) => {
                const r = e.getBoundingClientRect();
                return {y: r.y, height: r.height, width: r.width};
            }));
            return boxes.every((b) => b.length) && boxes;
        }""",
        arg=[".seat.you .hand", ".board .center", ".seat.you button.card.legal, button.move"],
    ).json_value()
    for name, boxes in (("hand", hand), ("center", center)):
        assert len(boxes) == 1 and boxes[0]["y"] + min(boxes[0]["height"], 60) <= height, name
    for box in targets:
        assert box["y"] + box["height"] <= height
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
