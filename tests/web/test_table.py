"""The live table in a real Chromium: bots' moves appear, a person plays by clicking.

Every page talks to the live server over a real socket, through the public API only.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bots.uniform import RandomBot
from client_sdk import Client, Runner
from tests.conftest import ADMIN_TOKEN, Player
from tests.web.conftest import Seats, Web, play_random, wait_for_version

HAND_ONE_LED_BY_NORTH = {"first_dealer": 3, "deals": 1}  # hand k is led by (dealer + k) % 4


@contextmanager
def bots(url: str, players: list[Player], seed: int = 0) -> Iterator[None]:
    """Random bots (client_sdk runners) playing for these players until the block ends."""
    runners = [
        Runner(
            RandomBot(random.Random(seed + i)),
            Client(url, p.token),
            wait=0.5,
            handle_signals=False,
            recheck_every=0.5,
        )
        for i, p in enumerate(players)
    ]
    threads = [threading.Thread(target=r.run, daemon=True) for r in runners]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        for runner in runners:
            runner.stop()
        for thread in threads:
            thread.join(10)


def test_a_bots_move_appears_without_a_reload(web: Web, seats: Seats) -> None:
    players = [seats.register(name) for name in ("nora", "ed", "sue", "walt")]
    game_id = seats.game("concerto", players, HAND_ONE_LED_BY_NORTH)["id"]
    page = web.open(f"/table/{game_id}")
    page.wait_for_selector(".seat[data-seat='0'].to-move")
    assert page.locator(".center [data-card]").count() == 0
    page.evaluate("window.stillTheSamePage = true")

    with bots(web.url, players[:1]):  # North's bot only: it leads, then South must act
        page.wait_for_selector(".center [data-card]")

    (played,) = seats.view(game_id)["state"]["current_hand"]
    assert played["seat"] == 0
    assert page.locator(".center [data-card]").get_attribute("data-card") == played["card"]
    assert page.locator(".log li[data-kind=play]").count() == 1
    assert page.locator(".seat[data-seat='2']").get_attribute("class").count("to-move") == 1
    assert page.evaluate("window.stillTheSamePage") is True


def test_a_person_plays_a_full_concerto_hand_by_clicking(web: Web, seats: Seats) -> None:
    me, *others = [seats.register(name) for name in ("me", "east bot", "south bot", "west bot")]
    game_id = seats.game("concerto", [me, *others], HAND_ONE_LED_BY_NORTH)["id"]
    done = ".seat[data-seat='0'] .hand-record[data-hand='1']"  # in front of its leader
    clicked: list[str] = []
    passed = False
    with bots(web.url, others, seed=7):
        page = web.open(f"/table/{game_id}#token={me.token}")
        assert page.locator(".table-bar .who").inner_text() == "Playing North as me."
        while True:
            page.wait_for_selector(f".seat.you button.card.legal, {done}")
            if page.locator(done).count():
                break
            version = int(page.locator(".board").get_attribute("data-version"))
            pass_button = page.locator("button.move[data-move-type=pass]")
            if clicked and not passed and pass_button.count():
                pass_button.click()
                passed = True
            else:
                card = page.locator(".seat.you button.card.legal").first
                clicked.append(card.get_attribute("data-card"))
                card.click()
            page.wait_for_selector(f".board:not([data-version='{version}'])")

    hand = seats.view(game_id)["state"]["completed_hands"][0]
    assert hand["number"] == 1 and hand["leader"] == 0
    assert sorted(c["card"] for c in hand["cards"] if c["seat"] == 0) == sorted(clicked)
    record = page.locator(done)
    shown = record.locator("[data-card]")
    assert shown.count() == 5
    assert [shown.nth(i).get_attribute("data-card") for i in range(5)] == [
        c["card"] for c in hand["cards"]
    ]
    assert [shown.nth(i).locator(".by").inner_text() for i in range(5)] == [
        "NESW"[c["seat"]] for c in hand["cards"]
    ]
    for code in clicked:  # played cards left the hand
        assert page.locator(f".seat.you .hand [data-card='{code}']").count() == 0
    if passed:
        assert page.locator(".log li[data-kind=pass]", has_text="North passes").count() >= 1


def hands_now(seats: Seats, game_id: str, players: list[Player]) -> dict[int, set[str]]:
    return {i: set(seats.view(game_id, p)["hand"]) for i, p in enumerate(players)}


def assert_page_holds_none_of(web: Web, hidden: set[str]) -> None:
    """No hidden card in the page: not as data, not as text, not in any /v1 response."""
    from tests.api.helpers import cards_in

    page = web.page
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    assert not shown & hidden
    html = page.content()
    text = page.inner_text("body")
    for code in hidden:
        glyph = ("10" if code[0] == "T" else code[0]) + "♠♥♦♣"["SHDC".index(code[1])]
        assert glyph not in text, code
        assert f'data-card="{code}"' not in html
    for url, body in web.responses:
        assert not cards_in(body) & hidden, url


def test_no_hidden_card_reaches_a_spectator_or_another_seat(web: Web, seats: Seats) -> None:
    players = [seats.register(name) for name in ("n", "e", "s", "w")]
    game_id = seats.game("concerto", players, {"deals": 1})["id"]
    page = web.open(f"/table/{game_id}")
    rng = random.Random(3)
    for _ in range(4):
        view = play_random(seats, game_id, players, rng, limit=6)
        wait_for_version(page, view["version"])
        hands = hands_now(seats, game_id, players)
        assert_page_holds_none_of(web, set().union(*hands.values()))
    assert page.locator(".center [data-card], .hand-record [data-card]").count() > 0
    assert web.responses and any('"card"' in body for _, body in web.responses)

    web.responses.clear()
    page.goto("about:blank")
    page = web.open(f"/table/{game_id}#token={players[1].token}")  # East
    view = play_random(seats, game_id, players, rng, limit=5)
    wait_for_version(page, view["version"])
    hands = hands_now(seats, game_id, players)
    assert page.locator(".seat.you .hand [data-card]").count() == len(hands[1])
    assert_page_holds_none_of(web, hands[0] | hands[2] | hands[3])


@pytest.mark.parametrize(
    ("game", "options", "n"),
    [
        ("seconds", {}, 4),
        ("cowpoke", {}, 3),
        ("pinochle", {}, 4),
        ("pinochle", {"variant": "firehouse", "first_dealer": 0}, 4),
    ],
)
def test_every_game_is_drawn_and_played_by_clicking(
    web: Web, seats: Seats, game: str, options: dict, n: int
) -> None:
    players = [seats.register(f"p{i}") for i in range(n)]
    view = seats.game(game, players, options)
    game_id, me = view["id"], view["to_move"][0]
    page = web.open(f"/table/{game_id}#token={players[me].token}")
    rng = random.Random(11)
    clicks = 0
    while clicks < 3 and view["status"] == "active":
        view = play_random(seats, game_id, players, rng, stop_at_seat=me)
        if view["status"] != "active":
            break
        wait_for_version(page, view["version"])
        legal = page.locator("button.card.legal, button.move")
        assert legal.count() > 0
        legal.first.click()
        page.wait_for_selector(f".board:not([data-version='{view['version']}'])")
        view = seats.view(game_id)
        clicks += 1
    assert clicks == 3
    assert page.locator(f".board.game-{game} .seat").count() == n


def test_a_game_without_a_renderer_of_its_own_shows_its_state_readably(web: Web) -> None:
    page = web.open("/")
    page.evaluate("""async () => {
        const {renderBoard} = await import('/web/js/board.js');
        const view = {id: 'x', game: 'some_new_game', options: {}, status: 'active', version: 3,
            seats: [{seat: 0, name: 'ann', player_id: 'a'}, {seat: 1, name: 'bo', player_id: 'b'}],
            you: 0, to_move: [0], legal_moves: [{type: 'play', card: 'QS'}, {type: 'fold'}],
            hand: ['QS', '2H'], scores: [1, 2], deadline: null, result: null,
            state: {pot: 5, table: ['AS', 'KD'], cards_left: [2, 7], bets: [{seat: 1, amount: 2}]}};
        document.getElementById('main').replaceChildren(
            renderBoard(view, {interactive: true, onMove: (m) => { window.moved = m; }}));
    }""")
    assert page.locator(".seat[data-seat='1'] .fan .count").inner_text() == "×7"
    assert page.locator(".state-json dl.tree dt", has_text="pot").count() == 1
    assert page.locator(".state-json [data-card='KD']").count() == 1
    page.locator(".seat.you button.card.legal[data-card='QS']").click()
    assert page.evaluate("window.moved") == {"type": "play", "card": "QS"}
    page.locator("button.move[data-move-type=fold]").click()
    assert page.evaluate("window.moved") == {"type": "fold"}


def test_a_person_takes_the_open_seat_and_the_game_starts(web: Web, seats: Seats) -> None:
    me, *others = [seats.register(name) for name in ("me", "e", "s", "w")]
    game_id = seats.call(
        "post",
        "/v1/games",
        {"game": "concerto", "options": {"deals": 1}, "seats": [None, *(p.id for p in others)]},
        ADMIN_TOKEN,  # the admin seats the others without invitations
    )["id"]
    watcher = web.page.context.new_page()  # a spectator in another tab: it sees the start
    watcher.goto(f"{web.url}/table/{game_id}")
    watcher.wait_for_selector(".board[data-status=waiting]")
    page = web.open(f"/table/{game_id}#token={me.token}")
    assert "Waiting for players: 1 open seat." in page.locator(".status").inner_text()
    page.locator("button.join", has_text="Take North").click()
    page.wait_for_selector(".board[data-status=active]")
    assert page.locator(".table-bar .who").inner_text() == "Playing North as me."
    assert page.locator(".seat.you .hand [data-card]").count() == 13
    watcher.wait_for_selector(".board[data-status=active]")
    assert watcher.locator(".seat[data-seat='0'] .player").inner_text() == "me"


def play_until_deal(seats: Seats, game_id: str, players: list[Player], deal: int, rng) -> dict:
    """Random legal moves until the game's state is at ``deal``; returns the public view."""
    view = seats.view(game_id)
    while view["state"]["deal_number"] < deal:
        view = play_random(seats, game_id, players, rng, limit=1)
    return view


def events_of(seats: Seats, game_id: str, kind: str) -> list[dict]:
    return [
        e["data"]
        for e in seats.call("get", f"/v1/games/{game_id}/events?after=0&wait=0")["events"]
        if e["kind"] == kind
    ]


@pytest.mark.parametrize(
    ("game", "options", "kind"),
    [("seconds", {}, "trick"), ("concerto", {"deals": 2}, "hand_complete")],
)
def test_the_last_trick_of_a_deal_stays_until_the_next_card(
    web: Web, seats: Seats, game: str, options: dict, kind: str
) -> None:
    players = [seats.register(name) for name in ("nora", "ed", "sue", "walt")]
    game_id = seats.game(game, players, options)["id"]
    view = play_until_deal(seats, game_id, players, 2, random.Random(6))
    last = events_of(seats, game_id, kind)[-1]  # deal 1's last trick (Concerto: hand)
    assert last["deal"] == 1
    page = web.open(f"/table/{game_id}")
    shown = page.locator(".center .last-trick")
    shown.wait_for()
    assert "deal 1" in shown.inner_text()
    cards = shown.locator("[data-card]")
    assert [cards.nth(i).get_attribute("data-card") for i in range(cards.count())] == [
        c["card"] for c in last["cards"]
    ]
    view = play_random(seats, game_id, players, random.Random(7), limit=1)  # deal 2's first card
    wait_for_version(page, view["version"])
    assert page.locator(".center .last-trick").count() == 0
