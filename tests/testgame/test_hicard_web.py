"""The web table shows a game it has no renderer for: Hicard, registered for these tests
only, drawn by the generic renderer (server/web/js/games/generic.js) in a real Chromium.

The app runs in this process (the ``live_server`` fixture, a werkzeug thread), so it sees
the registry with Hicard in it; the page talks to it through the public API only.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from server.games import Game
from tests.conftest import LiveServer, Player
from tests.web.audit import open_fresh
from tests.web.conftest import DESKTOP, Seats, Web, shared_context, wait_for_version, web_page
from tests.web.test_table import assert_page_holds_none_of

pytestmark = pytest.mark.usefixtures("hicard")  # registered before the app is made


RULES_PAGE = (
    '<h1>Hicard</h1><h2 id="minute">How to play in one minute</h2>'
    "<p>Each round, both play a card; the higher card takes the trick.</p><h2>The rules</h2>"
)
"""The rules page a new game brings (docs/rules/<game>.md): Hicard has none in the docs
build, so the browser is given this one at ``/rules/hicard``, its minute first."""


@pytest.fixture
def web(hicard: Game, browser: Browser, live_server: LiveServer) -> Iterator[Web]:
    """tests/web/conftest.py's ``web`` (a page watched for errors), here too, with
    Hicard's rules page served as the docs build would."""
    context = shared_context(browser, "desktop", viewport=DESKTOP)
    pattern = f"**/rules/{hicard.id}"
    context.route(pattern, lambda route: route.fulfill(content_type="text/html", body=RULES_PAGE))
    try:
        with web_page(context, live_server.url) as made:
            yield made
    finally:
        context.unroute(pattern)


@pytest.fixture
def seats(hicard: Game, live_server: LiveServer) -> Iterator[Seats]:
    helper = Seats(live_server.url)
    yield helper
    helper.http.close()


def shown(page: Page, selector: str) -> list[str | None]:
    return page.eval_on_selector_all(selector, "(els) => els.map((e) => e.dataset.card)")


def play_a_card(page: Page, seats: Seats, game_id: str, player: Player) -> str:
    """As ``player``'s page: its hand and its legal moves drawn (a legal card is a button),
    one clicked, and the table drawn again a version on. The card played."""
    mine = seats.view(game_id, player)
    version = mine["version"]
    wait_for_version(page, version)
    assert shown(page, ".seat.you .hand [data-card]") == mine["hand"]
    legal = [m["card"] for m in mine["legal_moves"]]
    assert legal and shown(page, ".seat.you button.card.legal") == legal
    other = 1 - mine["you"]
    assert page.locator(f".seat[data-seat='{other}'] .hand [data-card]").count() == 0
    page.locator(f".seat.you button.card.legal[data-card='{legal[-1]}']").click()
    wait_for_version(page, version + 1)
    assert seats.view(game_id)["version"] == version + 1
    return legal[-1]


def test_a_hicard_table_is_drawn_played_and_watched(web: Web, seats: Seats) -> None:
    first, second = seats.register("ann"), seats.register("bob")
    game_id = seats.game("hicard", [first, second], {"rounds": 2})["id"]
    page = web.open(f"/table/{game_id}#token={first.token}")
    assert page.locator(".board.game-hicard").count() == 1
    assert page.locator(".table-bar .who").inner_text() == "You are Seat 1 (ann)."
    assert page.locator(".info .state-json").count() == 1  # the generic renderer's state tree
    minute = page.locator("details.minute").text_content() or ""
    assert "the higher card takes the trick" in minute  # the rules page's minute
    led = play_a_card(page, seats, game_id, first)
    assert seats.view(game_id)["state"]["trick"] == [led]

    open_fresh(page, f"{web.url}/table/{game_id}#token={second.token}")  # (a tab's token)
    followed = play_a_card(page, seats, game_id, second)  # the trick is complete
    (trick,) = seats.view(game_id)["state"]["tricks"]
    assert trick["cards"] == [led, followed]

    with web_page(page.context, web.url) as watching:  # a tab of its own, no token
        watcher = watching.open(f"/table/{game_id}")
        wait_for_version(watcher, 2)
        assert watcher.locator(".table-bar .who").inner_text() == "Watching as a spectator."
        hands = [seats.view(game_id, p)["hand"] for p in (first, second)]
        assert [len(hand) for hand in hands] == [3, 3]  # the second round's deal
        assert set(shown(watcher, "[data-card]")) == {led, followed}  # the trick, in the state
        hidden = {*hands[0], *hands[1]} - {led, followed}  # (a played card may be dealt again)
        assert_page_holds_none_of(watching, hidden)  # as data, as text, in what it was sent
        assert watcher.locator(".seat .hand .back").count() == 6  # both hands face down
        log = watcher.locator(".log li").all_inner_texts()
    assert len(log) >= 4, log
    assert not [line for line in log if "undefined" in line or "NaN" in line], log
    assert 'deal {"round":1,"leader":0}' in log  # a kind's other shape: the generic line


def test_the_lobby_offers_hicard_with_nothing_written_for_it(web: Web, hicard: Game) -> None:
    """The lobby's offers come from ``GET /v1/rules``: a game with no renderer of its own is
    offered too, by its title, at its defaults."""
    page = web.open("/")
    offer = page.locator(f"form.offer[data-game='{hicard.id}']")
    assert offer.locator("h3").inner_text() == hicard.title
    assert offer.locator(f"a[href='/rules/{hicard.id}']").count() == 1
    assert hicard.title in page.locator("#way-in p.intro").inner_text()
