"""The way in: rules pages, and a visitor with no token playing against the bot pool."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Locator

from server.games import REGISTRY
from server.processes.botpool import POOL, BotPool, BotSpec
from tests.api.helpers import cards_in
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.web.conftest import Web, appears, wait_for
from tests.web.test_table import assert_page_holds_none_of
from tests.web.visitor_tables import check_every_game_has_a_visitor_table, visitor_tables

RULE_TAGS = {"concerto": "c17", "seconds": "s3", "cowpoke": "w4", "pinochle": "p20"}
"""One tag per game that its docs page defines (docs/rules/<game>.md#<tag>)."""


def test_every_rules_link_of_the_lobby_resolves_with_its_tags(web: Web) -> None:
    page = web.open("/")
    links = page.locator("#way-in a.rules-link")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert sorted(hrefs) == sorted(f"/rules/{g}" for g in RULE_TAGS)
    for game, tag in RULE_TAGS.items():
        reply = requests.get(f"{web.url}/rules/{game}", timeout=10)
        assert reply.status_code == 200 and reply.headers["Content-Type"].startswith("text/html")
        assert f'id="{tag}"' in reply.text, game
        source = Path(f"docs/rules/{game}.md").read_text(encoding="utf-8")
        tags = set(re.findall(r'<a id="([a-z]+\d+)"></a>', source))
        assert tags and all(f'id="{t}"' in reply.text for t in tags), game
    page.locator("#way-in a.rules-link[href='/rules/concerto']").click()
    page.wait_for_selector("article.rules h1")
    assert page.locator("#c17").count() == 1


def test_unknown_pages_answer_an_html_404_and_the_api_keeps_json(live_server: LiveServer) -> None:
    crumbs = {  # where each page is: "Lobby", then the pages above it, then itself
        "/nowhere": '<a href="/">Lobby</a></nav>',
        "/rules/chess": '<a href="/">Lobby</a> › <a href="/rules">Rules</a></nav>',
    }
    for path, trail in crumbs.items():
        reply = requests.get(live_server.url + path, timeout=10)
        assert reply.status_code == 404 and "text/html" in reply.headers["Content-Type"], path
        assert "<h1>" in reply.text and trail in reply.text, path
    game = next(iter(REGISTRY))
    page = requests.get(f"{live_server.url}/rules/{game}", timeout=10).text
    assert f'<a href="/rules">Rules</a> › <span>{game.capitalize()}</span></nav>' in page
    # the rules page opens with the minute: its first section heading
    assert re.search(r"<h2[^>]*>", page).group(0) == '<h2 id="minute">'
    api = requests.get(live_server.url + "/v1/nowhere", timeout=10)
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


@pytest.fixture
def pool(live_server: LiveServer) -> Iterator[BotPool]:
    """The real bot pool: random bots for every game, as many as the pool makes by default."""
    running = BotPool(
        live_server.url, ADMIN_TOKEN, bots=[BotSpec("random", None)], wait=0.5, seed=3
    )
    running.start()
    yield running
    running.stop(timeout=5)


DEAL_ENDS = ("deal_end", "showdown")
"""The event that closes a deal: Cowpoke's showdown, every other game's deal_end."""


def deal_over(web: Web, game_id: str) -> bool:
    got = requests.get(f"{web.url}/v1/games/{game_id}/events?after=0&wait=0", timeout=10).json()
    return any(e["kind"] in DEAL_ENDS for e in got["events"])


def measured(target: Locator) -> dict | None:
    """Where ``target`` is on the screen; None only if it stays hidden for half a second
    (the table redraws itself, at the same version too, so one look may miss it)."""
    for _ in range(5):
        box = target.bounding_box(timeout=2000)
        if box is not None:
            return box
        target.page.wait_for_timeout(100)
    return None


def play_one_deal(web: Web, game_id: str, *, tap: bool = False, limit: int = 200) -> int:
    """Click (or tap) the visitor's moves (a card, else pass, else the first move) until a
    deal ends; returns how many. Tapping, each target must be on the first screen as it is
    (the page never scrolled), and so must the action bar whenever it shows."""
    page = web.page
    height = page.viewport_size["height"] if page.viewport_size else 0
    presses = 0
    mine = "button.card.legal, button.move"
    while not deal_over(web, game_id):
        assert presses < limit, "the deal never ended"
        if not appears(page, f"{mine}, .board[data-status=finished]", 1500):
            continue  # the bots are thinking, or the deal just ended
        if page.locator(".board[data-status=finished]").count():
            break
        version = page.locator(".board").get_attribute("data-version")
        cards = page.locator("button.card.legal:not([disabled])")
        passing = page.locator("button.move[data-move-type=pass]:not([disabled])")
        target = cards.first if cards.count() else passing.first if passing.count() else None
        target = target or page.locator("button.move:not([disabled])").first
        try:
            if tap:
                boxes = [measured(target)]
                if page.locator(".board .moves").count():
                    boxes.append(measured(page.locator(".board .moves")))
                scrolled = page.evaluate("window.scrollY")
        except Exception:  # noqa: BLE001 - redrawn meanwhile: look again
            continue
        if tap and None in boxes and page.locator(f".board[data-version='{version}']").count() == 0:
            continue  # the game moved on meanwhile: look again
        if tap:
            assert scrolled == 0, "the page scrolled"
            for box in boxes:
                assert box is not None and box["y"] >= 0, (version, boxes)
                assert box["y"] + box["height"] <= height + 0.5, (version, box)
        try:
            target.tap(timeout=2000) if tap else target.click(timeout=2000)
        except Exception:  # noqa: BLE001 - redrawn under the pointer: look again
            continue
        presses += 1
        wait_for(page, f".board:not([data-version='{version}'])")
    return presses


def bots_hands(web: Web, pool: BotPool, view: dict) -> set[str]:
    """Every card the bots hold now, read with their own tokens (the pool's)."""
    tokens = {p["id"]: p["token"] for bot in pool.register() for p in bot["players"]}
    cards: set[str] = set()
    for seat in view["seats"]:
        token = tokens.get(seat["player_id"])
        if token:
            mine = requests.get(
                f"{web.url}/v1/games/{view['id']}",
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            ).json()
            cards |= set(mine["hand"])
    return cards


VISITS = [
    ("concerto", {"rules": "parlett-2013"}, 4),
    ("concerto", {"rules": "penguin"}, 4),
    ("seconds", {}, 4),
    ("cowpoke", {"players": "3"}, 3),
    ("pinochle", {"variant": "partnership"}, 4),
    ("pinochle", {"variant": "double-deck"}, 6),
]


PHONE_VISITS = VISITS
"""The set-ups played again on a phone, by taps."""


@pytest.mark.parametrize(
    ("size", "game", "choices", "seats"),
    [pytest.param("desktop", *v, id=f"desktop-{v[0]}-{'-'.join(v[1].values())}") for v in VISITS]
    + [
        pytest.param("phone", *v, id=f"phone-{v[0]}-{'-'.join(v[1].values())}")
        for v in PHONE_VISITS
    ],
)
def test_a_visitor_plays_a_whole_deal_against_the_bots(
    request: pytest.FixtureRequest, pool: BotPool, size: str, game: str, choices: dict, seats: int
) -> None:
    """Each set-up of the lobby, played to the end of a deal: at the desktop size by clicks,
    and on a touch phone (390×844) by taps that all land on the first screen."""
    phone = size == "phone"
    web: Web = request.getfixturevalue("phone_web" if phone else "web")
    page = web.open("/")
    offer = page.locator(f"form.offer[data-game='{game}']")
    for option, value in choices.items():
        offer.locator(f"select[data-option='{option}']").select_option(value)
    button = offer.locator("button.play-bots")
    button.tap() if phone else button.click()
    page.wait_for_selector(".board[data-status=active]")
    game_id = page.url.rsplit("/", 1)[1]
    assert page.evaluate("sessionStorage.getItem('parlour.token')").startswith("gst")
    assert page.locator(".seat").count() == seats
    assert page.locator(".seat.you").count() == 1
    view = requests.get(f"{web.url}/v1/games/{game_id}", timeout=10).json()
    for option, value in choices.items():
        assert str(view["options"][option]) == value
    page.wait_for_selector("button.card.legal, button.move")  # the visitor's turn: bots wait
    token = page.evaluate("sessionStorage.getItem('parlour.token')")
    mine = requests.get(
        f"{web.url}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    ).json()
    public = cards_in(requests.get(f"{web.url}/v1/games/{game_id}", timeout=10).text)
    assert_page_holds_none_of(web, bots_hands(web, pool, view) - set(mine["hand"]) - public)
    if game in ("concerto", "pinochle"):  # a visitor's game is one deal, not "to 100"/"to 1000"
        info = page.locator(".board .info").inner_text()
        assert "one deal" in info and "to 100" not in info, info
    presses = play_one_deal(web, game_id, tap=phone)
    assert presses > 0 and deal_over(web, game_id)
    if game == "concerto" and not phone:
        play_again(web, game_id, choices)


def play_again(web: Web, game_id: str, choices: dict) -> None:
    """The end of a visitor's game says whether the visitor won, lost or drew (a Concerto
    deal can end level, with no winner side), and "Play again" deals a new game of the same
    game and edition against the bots."""
    page = web.page
    page.wait_for_selector(".board[data-status=finished]")
    result = requests.get(f"{web.url}/v1/games/{game_id}", timeout=10).json()["result"]
    verdict = page.locator(".status .verdict").inner_text()
    winners = result["winners"]
    expected = "You won!" if 0 in winners else "You lost." if winners else "A draw."
    assert verdict == expected, result
    page.locator(".status button.play-again").click()
    page.wait_for_url(lambda url: game_id not in url and "/table/" in url)
    page.wait_for_selector(".board[data-status=active]")
    again = requests.get(f"{web.url}/v1/games/{page.url.rsplit('/', 1)[1]}", timeout=10).json()
    assert again["game"] == "concerto" and again["options"]["rules"] == choices["rules"]
    assert again["options"]["deals"] == 1
    assert page.locator(".seat.you").count() == 1


def test_the_default_pool_fills_the_largest_table_of_each_bot_s_games(
    web: Web, live_server: LiveServer
) -> None:
    """The default pool is every game's house bots and ``random``, each with as many
    identities as its games' largest table: Pinochle's is double-deck for eight
    (docs/rules/pinochle.md), Cowpoke's five; so the lobby offers double-deck with
    nothing greyed out."""
    made = {b["name"]: len(b["players"]) for b in BotPool(live_server.url, ADMIN_TOKEN).register()}
    assert made == {
        "concerto_signals": 4,
        "concerto_greedy": 4,
        "seconds": 4,
        "cowpoke": 5,
        "pinochle": 8,
        "random": 8,
    }
    bots = requests.get(f"{web.url}/v1/visitors", timeout=10).json()["bots"]
    assert bots["pinochle"] >= 5 and bots["concerto"] >= 3
    page = web.open("/")
    select = page.locator("form.offer[data-game='pinochle'] select[data-option='variant']")
    assert select.locator("option[value='double-deck']").is_enabled()
    assert select.locator("option:disabled").count() == 0
    assert page.locator("form.offer button.play-bots").count() == len(REGISTRY)
    intro = page.locator("#way-in p.intro").inner_text()
    assert "play Concerto, Seconds, Cowpoke and Pinochle at the same tables" in intro


def test_visitors_are_limited_per_address_capped_and_can_be_turned_off(app, client) -> None:
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    assert client.post("/v1/bots", json={"bots": [{"name": "random", "count": 3}]}, headers=admin)
    visitors = app.extensions["parlour"].visitors
    body = {"game": "seconds"}

    visitors.configure(enabled=True, max_live=2, per_client=3, period=3600)
    made = [client.post("/v1/visitors/games", json=body) for _ in range(2)]
    assert [m.status_code for m in made] == [201, 201]
    full = client.post("/v1/visitors/games", json=body)  # third of a cap of two
    assert full.status_code == 429 and "guest tables" in full.json["error"]["message"]
    visitors.configure(enabled=True, max_live=10, per_client=3, period=3600)
    assert client.post("/v1/visitors/games", json=body).status_code == 201  # this address: 3rd
    limited = client.post("/v1/visitors/games", json=body)
    assert limited.status_code == 429 and limited.headers["Retry-After"]
    # the message says when to come back (the page shows it as it is): when this hour's
    # window ends, in minutes, or in seconds in its last minute
    wait = int(limited.headers["Retry-After"])
    minutes = -(-wait // 60)
    when = (
        f"{wait} second{'s' if wait != 1 else ''}"
        if wait < 60
        else f"{minutes} minute{'s' if minutes != 1 else ''}"
    )
    assert 0 < wait <= 3600
    assert limited.json["error"]["message"] == f"too many requests: try again in {when}"
    other = client.post("/v1/visitors/games", json=body, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201

    guest = made[0].json
    mine = client.get(
        f"/v1/games/{guest['game']['id']}", headers={"Authorization": f"Bearer {guest['token']}"}
    )
    assert mine.status_code == 200 and mine.json["you"] == 0 and len(mine.json["hand"]) > 0
    elsewhere = client.get(
        f"/v1/games/{made[1].json['game']['id']}",
        headers={"Authorization": f"Bearer {guest['token']}"},
    )
    assert elsewhere.status_code == 403  # a guest token plays its own game only

    visitors.configure(enabled=False, max_live=10, per_client=0, period=3600)
    off = client.post("/v1/visitors/games", json=body, environ_base={"REMOTE_ADDR": "10.0.0.8"})
    assert off.status_code == 403 and "turned off" in off.json["error"]["message"]
    assert client.get("/v1/visitors").json["enabled"] is False


def test_every_game_has_its_visitor_table() -> None:
    check_every_game_has_a_visitor_table()


def test_visitors_are_seated_with_the_best_house_bot_of_their_game(app, client) -> None:
    """Every seat but the visitor's goes to the first of the game's house bots (its Game
    record's ``house_bots``), whatever else the pool holds: ``random`` plays every game
    and is registered first here, yet a Seconds visitor meets the ``seconds`` bot."""
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    specs = [BotSpec("random", None), *reversed(POOL)]  # the best of each game comes last
    asked = [
        {"name": b.name, "games": None if b.games is None else list(b.games), "count": 8}
        for b in specs
    ]
    made = client.post("/v1/bots", json={"bots": asked}, headers=admin)
    assert made.status_code == 200, made.json
    bot_of = {p["id"]: b["name"] for b in made.json["bots"] for p in b["players"]}
    app.extensions["parlour"].visitors.configure(
        enabled=True, max_live=50, per_client=0, period=3600
    )
    for game, options in visitor_tables().items():
        reply = client.post("/v1/visitors/games", json={"game": game, "options": options})
        assert reply.status_code == 201, reply.json
        seats = [s["player_id"] for s in reply.json["game"]["seats"]][1:]
        assert {bot_of[p] for p in seats} == {REGISTRY[game].house_bots[0]}, game


def test_the_concerto_edition_choice_says_what_differs(web: Web) -> None:
    """The lobby's edition choice says what changes (docs/rules/concerto.md#c2, #c15, #c17)."""
    page = web.open("/")
    select = page.locator("form.offer[data-game='concerto'] select[data-option='rules']")
    help_id = select.get_attribute("aria-describedby")
    about = page.locator(f"#{help_id}")
    assert "three pairs among the left-overs score 60" in about.inner_text()
    select.select_option("penguin")
    text = about.inner_text()
    assert "two by the leader and three by the partner scores 25" in text
    assert "count as two pairs (20)" in text and "better left-overs loses" in text
