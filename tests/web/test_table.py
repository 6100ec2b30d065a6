"""The live table in a real Chromium: bots' moves appear, a person plays by clicking.

Every page talks to the live server over a real socket, through the public API only.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bots.uniform import RandomBot
from client_sdk import Client, Runner
from server.games import REGISTRY
from tests.conftest import ADMIN_TOKEN, Player
from tests.web.conftest import Seats, Web, play_random, wait_for, wait_for_version

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
    page.evaluate("window.stillTheSamePage = true; window.board = document.querySelector('.board')")

    with bots(web.url, players[:1]):  # North's bot only: it leads, then South must act
        wait_for(page, ".center [data-card]")

    (played,) = seats.view(game_id)["state"]["current_hand"]
    assert played["seat"] == 0
    assert page.locator(".center [data-card]").get_attribute("data-card") == played["card"]
    assert page.locator(".log li[data-kind=play]").count() == 1
    assert page.locator(".seat[data-seat='2']").get_attribute("class").count("to-move") == 1
    assert page.evaluate("window.stillTheSamePage") is True
    # The move changed the table in place (the board drawn before stays, changed where the
    # move changed it), and into exactly what a fresh look at the table draws.
    assert page.evaluate("document.querySelector('.board') === window.board") is True
    drawn = page.inner_html(".board-host")
    fresh = page.context.new_page()
    fresh.goto(f"{web.url}/table/{game_id}")
    fresh.wait_for_selector("body[data-ready=true]")
    assert fresh.inner_html(".board-host") == drawn


def test_a_person_plays_a_full_concerto_hand_by_clicking(web: Web, seats: Seats) -> None:
    me, *others = [seats.register(name) for name in ("me", "east bot", "south bot", "west bot")]
    game_id = seats.game("concerto", [me, *others], HAND_ONE_LED_BY_NORTH)["id"]
    done = ".seat[data-seat='0'] .hand-record[data-hand='1']"  # in front of its leader
    clicked: list[str] = []
    passed = False
    with bots(web.url, others, seed=7):
        page = web.open(f"/table/{game_id}#token={me.token}")
        assert page.locator(".table-bar .who").inner_text() == "You are North (me)."
        legal = ".seat.you button.card.legal"  # North leads: a card to play shows
        page.wait_for_selector(legal)
        rises = f"getComputedStyle(document.querySelector('{legal}')).transitionDuration"
        assert page.evaluate(rises) == "0s"  # asked for reduced motion: at once
        page.emulate_media(reduced_motion="no-preference")
        assert page.evaluate(rises) == "0.08s"  # else it glides
        page.emulate_media(reduced_motion="reduce")
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


def test_a_move_s_late_answer_never_draws_an_older_table(web: Web, seats: Seats) -> None:
    """The answer to a click can arrive after the long-poll has drawn a newer table (the
    next seat already moved): the page keeps the newer one. Drawing the older one would
    leave a finished deal showing as active, the long-poll stopped (seen in CI)."""
    players = [seats.register(name) for name in ("me", "east", "south", "west")]
    game_id = seats.game("concerto", players, HAND_ONE_LED_BY_NORTH)["id"]
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:  # the server applies the move; its answer waits
        held.append((route, route.fetch()))

    page = web.open(f"/table/{game_id}#token={players[0].token}")
    page.wait_for_selector(".seat.you button.card.legal")
    version = int(page.locator(".board").get_attribute("data-version"))
    page.route(f"**/v1/games/{game_id}/moves", hold)
    page.locator(".seat.you button.card.legal").first.click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the click sent no move"
    (nxt,) = seats.view(game_id)["to_move"]
    theirs = seats.view(game_id, players[nxt])
    assert theirs["version"] == version + 1
    seats.move(game_id, players[nxt], theirs["legal_moves"][0], theirs["version"])
    wait_for_version(page, version + 2)  # drawn from the long-poll while the click waits
    route, answer = held[0]
    assert answer.json()["version"] == version + 1
    route.fulfill(response=answer)
    wait_for(page, ".board:not(.pending)")
    assert page.locator(".board").get_attribute("data-version") == str(version + 2)


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


def _default_table(game_id: str, options: dict[str, Any]) -> tuple[str, dict[str, Any], int]:
    return game_id, options, len(REGISTRY[game_id].new_state(options, "seats").seat_scores())


# every registered game at its default table (a new game with the generic renderer too),
# and Pinochle's auction, where the moves are buttons
TABLES = [
    *(_default_table(game_id, {}) for game_id in REGISTRY),
    _default_table("pinochle", {"variant": "firehouse", "first_dealer": 0}),
]


@pytest.mark.parametrize(("game", "options", "n"), TABLES)
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
    assert page.locator(".table-bar .who").inner_text() == "You are North (me)."
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
    # ... and the side panel's review still shows it, on demand
    review = page.locator(".side .last-review")
    review.locator("summary").click()
    cards = review.locator("[data-card]")
    assert [cards.nth(i).get_attribute("data-card") for i in range(cards.count())] == [
        c["card"] for c in last["cards"]
    ]
    assert review.locator("summary").inner_text() == (
        "Last trick" if kind == "trick" else "Last hand"
    )


# -- the table explains itself ------------------------------------------------------------


def test_concerto_says_what_pass_and_play_do_and_reads_the_partner_s_signal(
    web: Web, seats: Seats
) -> None:
    """South, North's partner: the Pass and Call 'Play' buttons say what they do (docs/rules/
    concerto.md#c6, #c9), and North's lead then pass is read out as the convention card reads
    it (docs/bots/conventions.md: a red card then pass is threes, a black one one pair)."""
    players = [seats.register(name) for name in ("nora", "ed", "me", "walt")]
    north, me = players[0], players[2]
    view = seats.game("concerto", players, HAND_ONE_LED_BY_NORTH)
    game_id = view["id"]
    hand = seats.view(game_id, north)["hand"]
    lead = next((c for c in hand if c[1] == "H"), None) or next(c for c in hand if c[1] in "SC")
    view = seats.move(game_id, north, {"type": "play", "card": lead}, view["version"])
    page = web.open(f"/table/{game_id}#token={me.token}")
    pass_button = page.locator("button.move[data-move-type=pass]")
    play_button = page.locator("button.move[data-move-type=force]")
    assert "your partner plays the next card" in pass_button.get_attribute("title")
    assert "your partner finishes this hand alone" in play_button.get_attribute("title")
    helps = page.locator(".moves .move-help").all_inner_texts()
    assert helps == [pass_button.get_attribute("title"), play_button.get_attribute("title")]
    legend = page.locator(".legend").inner_text()
    assert "A letter under a card: who played it (N North, E East, S South, W West)." in legend
    assert page.locator(".center .signal").count() == 0  # one card is no signal yet

    pass_button.click()  # South passes: North's next action completes the signal
    wait_for_version(page, view["version"] + 1)
    seats.move(game_id, north, {"type": "pass"}, view["version"] + 1)
    wait_for_version(page, view["version"] + 2)
    glyph = ("10" if lead[0] == "T" else lead[0]) + "♠♥♦♣"["SHDC".index(lead[1])]
    names = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "T": "tens"}
    rank = names.get(lead[0], f"{lead[0]}s")
    meaning = f"threes: three {rank}" if lead[1] == "H" else f"one pair: two {rank}"
    assert page.locator(".center .signal").inner_text() == (
        f"Your partner North signalled {glyph} then a pass. By Parlett's signals "
        f"(the house bots' convention card), that shows {meaning}."
    )


SIGNALS = [  # the convention card's examples (docs/bots/conventions.md), read by hand
    ("AS", "card", "5S", "five to a straight flush (all five cards in sequence) in spades"),
    ("7H", "card", "7D", "fours: four 7s"),
    ("7C", "card", "7H", "two pairs, one of them 7s"),
    ("5S", "card", "2S", "four to a straight flush with one card missing between in spades"),
    ("4D", "card", "JD", "a five-card flush in diamonds"),
    ("4H", "card", "JD", "two threes: three 4s and three jacks"),
    ("4H", "card", "JS", "a full house: three 4s and two jacks"),
    ("4C", "card", "8S", "a five-card straight"),
    ("4C", "card", "6S", "four to a straight"),
    ("8C", "card", "4S", "three to a straight"),
    ("7H", "pass", None, "threes: three 7s"),
    ("7S", "pass", None, "one pair: two 7s"),
    ("2C", "force", None, "nothing worth showing"),
]


def test_every_signal_of_the_convention_card_is_read_in_words(web: Web) -> None:
    page = web.open("/")
    read = page.evaluate(
        """async (cases) => {
            const {readSignal} = await import('/web/js/games/concerto.js');
            return cases.map(([first, then, second]) => readSignal(first, then, second, new Set()));
        }""",
        [list(case[:3]) for case in SIGNALS],
    )
    for (first, then, second, meaning), got in zip(SIGNALS, read, strict=True):
        assert got.startswith(meaning), (first, then, second, got)


def finished(
    seats: Seats, game: str, options: dict, n: int = 4, **extra: Any
) -> tuple[str, list[Player], dict]:
    players = [seats.register(f"p{i}") for i in range(n)]
    game_id = seats.game(game, players, options, **extra)["id"]
    view = play_random(seats, game_id, players, random.Random(5))
    assert view["status"] == "finished"
    return game_id, players, view


def test_the_end_of_a_partnership_game_says_which_side_won_and_whether_you_did(
    web: Web, seats: Seats
) -> None:
    game_id, players, view = finished(seats, "concerto", HAND_ONE_LED_BY_NORTH, seed="won-0")
    ns, ew = view["result"]["scores"][0], view["result"]["scores"][1]
    assert ns != ew  # this seed and these moves: a deal with a winner
    page = web.open(f"/table/{game_id}#token={players[1].token}")  # East
    text = page.locator(".status.result").inner_text()
    winner, loser = (("North–South", ns), ("East–West", ew)) if ns > ew else (
        ("East–West", ew), ("North–South", ns))  # fmt: skip
    assert f"Game over. {winner[0]} won, {winner[1]} to {loser[1]}." in text
    assert page.locator(".status .verdict").inner_text() == (
        "You won!" if winner[0] == "East–West" else "You lost."
    )
    assert " · ".join(map(str, view["result"]["scores"])) not in text  # no per-seat list
    badge = page.locator(".hand-record .tag").first
    assert badge.get_attribute("title").startswith(f"hand {badge.inner_text()[1:]} of this deal")
    assert "#n beside a finished hand" in page.locator(".legend").inner_text()
    again = page.locator(".status .play-again")
    assert again.inner_text() == "Play again"
    again.click()  # not a visitor's game: back to the lobby, to pick one
    page.wait_for_selector("#way-in")
    assert page.url.rstrip("/") == web.url


def test_a_level_concerto_game_is_a_draw_for_both_sides(web: Web, seats: Seats) -> None:
    """A deal that ends level has no winner side (docs/rules/concerto.md): the end says so,
    and tells a seated player neither "You won!" nor "You lost."."""
    game_id, players, view = finished(seats, "concerto", HAND_ONE_LED_BY_NORTH, seed="level-0")
    ns, ew = view["result"]["scores"][0], view["result"]["scores"][1]
    assert ns == ew and view["result"]["winners"] == []  # this seed and these moves: level
    page = web.open(f"/table/{game_id}#token={players[2].token}")  # South
    text = page.locator(".status.result").inner_text()
    assert f"Game over. A draw: North–South {ns}, East–West {ew}." in text
    assert page.locator(".status .verdict").inner_text() == "A draw."


def test_a_pinochle_game_s_end_names_the_sides(web: Web, seats: Seats) -> None:
    game_id, _, view = finished(seats, "pinochle", {"max_deals": 1})
    page = web.open(f"/table/{game_id}")
    text = page.locator(".status.result").inner_text()
    scores, winners = view["result"]["scores"], view["result"]["winners"]
    side = "North–South" if 0 in winners else "East–West"
    assert f"{side} won, {scores[winners[0]]} to {scores[(winners[0] + 1) % 4]}." in text
    assert page.locator(".status .verdict").count() == 0  # a spectator neither won nor lost
    assert "one deal" in page.locator(".info").inner_text()
    assert "to 1000" not in page.locator(".info").inner_text()


def test_a_one_deal_concerto_game_says_one_deal_not_a_target(web: Web, seats: Seats) -> None:
    players = [seats.register(f"p{i}") for i in range(4)]
    game_id = seats.game("concerto", players, {"deals": 1})["id"]
    page = web.open(f"/table/{game_id}")
    rows = page.locator(".info table.scores").inner_text()
    assert "game (one deal)" in rows and "to 100" not in rows


def test_a_tap_on_a_card_that_is_no_legal_move_says_why(web: Web, seats: Seats) -> None:
    """Seconds: a card of another suit when one must follow suit (docs/rules/seconds.md): the
    page shows the server's reason and the game does not move."""
    players = [seats.register(f"p{i}") for i in range(4)]
    game_id = seats.game("seconds", players, {})["id"]
    rng = random.Random(4)
    while True:  # until someone must follow suit and holds a card that may not be played
        view = seats.view(game_id)
        seat = view["to_move"][0]
        mine = seats.view(game_id, players[seat])
        legal = {m["card"] for m in mine["legal_moves"]}
        if view["state"]["current_trick"] and set(mine["hand"]) - legal:
            break
        seats.move(game_id, players[seat], rng.choice(mine["legal_moves"]), mine["version"])
    other = next(p for i, p in enumerate(players) if i != seat)
    page = web.open(f"/table/{game_id}#token={other.token}")
    page.locator(".seat.you .hand span.card").first.click()
    label = ["North", "East", "South", "West"][seat]
    assert page.locator(".message").inner_text() == f"Not your turn yet: {label} to move."

    page.goto("about:blank")
    page = web.open(f"/table/{game_id}#token={players[seat].token}")
    wrong = sorted(set(mine["hand"]) - legal)[0]
    page.locator(f".seat.you .hand span.card[data-card='{wrong}']").click()
    led = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[
        view["state"]["current_trick"][0]["card"][1]
    ]
    message = page.locator(".message.error")
    message.wait_for()
    assert message.inner_text() == (
        f"That card cannot be played now: you must follow suit: {led} were led."
    )
    assert seats.view(game_id)["version"] == view["version"]  # refused: nothing moved
    assert wrong in seats.view(game_id, players[seat])["hand"]


def test_the_cowpoke_exchange_says_that_choosing_takes_the_card(web: Web, seats: Seats) -> None:
    players = [seats.register(f"p{i}") for i in range(3)]
    game_id = seats.game("cowpoke", players, {})["id"]
    rng = random.Random(8)
    view = seats.view(game_id)
    while view["state"]["phase"] != "exchange":
        view = play_random(seats, game_id, players, rng, limit=1)
    chooser = view["state"]["chooser"]
    page = web.open(f"/table/{game_id}#token={players[chooser].token}")
    assert page.locator(".center .exchange-note").inner_text() == (
        "Your turn to choose: the card you choose is taken into your hand."
    )
    assert page.locator(".moves .hint").inner_text() == (
        "Your move: choose a card on the table; choosing takes it into your hand."
    )
    # A tap on a card of the hand, no choice now: said in words, nothing sent, nothing moved.
    sent = len(web.responses)
    page.locator(".seat.you .hand span.card").first.click()
    assert page.locator(".message").inner_text() == (
        "That card is not one to choose now: choose one of the highlighted cards."
    )
    assert len(web.responses) == sent and seats.view(game_id)["version"] == view["version"]
    watcher = page.context.new_page()  # a spectator in another tab (no token)
    watcher.goto(f"{web.url}/table/{game_id}")
    watcher.wait_for_selector("body[data-ready=true]")
    assert watcher.locator(".center .exchange-note").inner_text() == (
        f"Seat {chooser + 1} chooses a card: the card chosen goes into their hand."
    )


def test_a_fast_click_in_the_simultaneous_put_out_is_never_lost(web: Web, seats: Seats) -> None:
    """Cowpoke's put-out: the others put out between the page's last view and the click, so
    the click goes with an old version (409 stale_version); the page sends it again at the
    new one, since the move is still legal, and says nothing of a table that moved on."""
    players = [seats.register(f"p{i}") for i in range(3)]
    game_id = seats.game("cowpoke", players, {})["id"]
    start = seats.view(game_id, players[0])
    assert start["state"]["phase"] == "put_out" and sorted(start["to_move"]) == [0, 1, 2]
    page = web.open(f"/table/{game_id}#token={players[0].token}")
    held = []
    holding = [True]

    def hold(route) -> None:  # the page's next views of the game wait, so its view stays old
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    page.route(f"**/v1/games/{game_id}", hold)
    for seat in (1, 2):
        mine = seats.view(game_id, players[seat])
        seats.move(game_id, players[seat], mine["legal_moves"][0], mine["version"])
    for _ in range(100):  # the long-poll saw the others' moves and asked for the view
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for the newer view"
    card = next(m["card"] for m in start["legal_moves"] if m["card"] in start["hand"])
    page.locator(f".seat.you .hand .card[data-card='{card}']").click()
    for _ in range(100):
        if "stale_version" in web.received():
            break
        page.wait_for_timeout(50)
    holding[0] = False
    for route in held:
        route.continue_()
    for _ in range(100):
        after = seats.view(game_id, players[0])
        if after["version"] > start["version"] + 2:
            break
        page.wait_for_timeout(50)
    assert "stale_version" in web.received()  # it did lose the race, once
    assert after["state"]["phase"] != "put_out" or after["state"]["round"] > 1, after["state"]
    assert "moved on" not in page.locator(".message").inner_text()


def test_a_lone_keep_says_why_and_a_forced_move_plays_itself_when_asked(
    web: Web, seats: Seats
) -> None:
    """Pinochle's dix exchange for a seat with no dix: one legal move, Keep, whose line says
    why it is alone. With "Play forced moves for me" ticked in the table's settings (kept
    in this browser's localStorage, so still ticked after a reload) it plays itself after
    a short pause; a card of the hand then waits for a second click with "Confirm before
    playing"."""
    players = [seats.register(f"p{i}") for i in range(4)]
    for number in range(20):  # a deal whose first seat asked holds no dix (seeds, in turn)
        options = {"variant": "partnership", "max_deals": 1}
        game_id = seats.game("pinochle", players, options, seed=f"keep-{number}")["id"]
        seat = seats.view(game_id)["to_move"][0]
        mine = seats.view(game_id, players[seat])
        if mine["legal_moves"] == [{"type": "keep"}]:
            break
    assert mine["legal_moves"] == [{"type": "keep"}]
    rng = random.Random(3)
    page = web.open(f"/table/{game_id}#token={players[seat].token}")
    assert page.locator(".moves button.move").all_inner_texts() == ["Keep"]
    assert "Keep: you hold no dix (the 9 of trumps), so you cannot take the turned card" in (
        page.locator(".moves .move-help").inner_text()
    )
    try:
        page.locator(".prefs summary").click()
        page.locator(".prefs input[name=autoplay]").check()
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator(".prefs input[name=autoplay]").is_checked()  # kept
        wait_for(page, f".board:not([data-version='{mine['version']}'])")
        assert seats.view(game_id)["version"] > mine["version"]  # Keep was played
        page.locator(".prefs summary").click()  # closed again after the reload
        page.locator(".prefs input[name=autoplay]").uncheck()
        page.locator(".prefs input[name=confirm]").check()
        play_random(seats, game_id, players, rng, stop_at_seat=seat)
        mine = seats.view(game_id, players[seat])
        assert len(mine["legal_moves"]) > 1, mine["legal_moves"]
        wait_for_version(page, mine["version"])
        card = mine["legal_moves"][0]["card"]
        page.locator(f".seat.you .hand button.card[data-card='{card}']").click()
        page.wait_for_selector(f".seat.you .hand button.card.chosen[data-card='{card}']")
        assert seats.view(game_id)["version"] == mine["version"]  # picked, not played
        page.locator(".confirm-bar button.confirm-play").click()
        wait_for(page, f".board:not([data-version='{mine['version']}'])")
        assert card not in seats.view(game_id, players[seat])["hand"]
    finally:
        page.evaluate("() => localStorage.clear()")  # the shared context's other tests


RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def spoken_card(code: str) -> str:
    return f"{RANKS.get(code[0], code[0])} of {SUITS[code[1]]}"


def test_single_keys_read_the_table_aloud(web: Web, seats: Seats) -> None:
    """The screen-reader keys (server/web/js/reader.js), read from the accessibility tree:
    H the hand by suit, T the middle, L the last trick, W whose turn, S the score, M the
    legal moves."""
    players = [seats.register(f"p{i}") for i in range(4)]
    game_id = seats.game("seconds", players, {})["id"]
    view = play_random(seats, game_id, players, random.Random(1), limit=5)  # trick 2's lead
    seat = view["to_move"][0]
    mine = seats.view(game_id, players[seat])
    page = web.open(f"/table/{game_id}#token={players[seat].token}")
    wait_for_version(page, mine["version"])
    labels = ["North", "East", "South", "West"]

    def read(key: str) -> str:
        page.keyboard.press(key)
        tree = page.locator(".reader").aria_snapshot()  # what assistive technology is given
        assert tree.startswith('- status "read out"'), tree
        return page.locator(".reader").inner_text()

    hand = read("h")
    assert hand.startswith(f"Your hand, {len(mine['hand'])} cards: ")
    for suit, name in SUITS.items():  # each suit held, in order spades, hearts, diamonds, clubs
        held = [spoken_card(c).split(" of ")[0] for c in mine["hand"] if c[1] == suit]
        assert (f"{name}: {', '.join(held)}" in hand) == bool(held), (name, hand)
    assert read("w").startswith("Your move.")
    moves = read("m")
    assert (
        moves
        == "Your moves: "
        + "; ".join(f"play {spoken_card(m['card'])}" for m in mine["legal_moves"])
        + "."
    )
    scores = view["scores"]
    assert read("s") == "Score: " + " · ".join(f"{labels[i]} {scores[i]}" for i in range(4)) + "."
    first = events_of(seats, game_id, "trick")[0]
    last = read("l")
    assert last.startswith(f"Trick 1 to {labels[first['winner']]}"), last
    for c in first["cards"]:
        assert f"{labels[c['seat']]} {spoken_card(c['card'])}" in last
    table = read("t")
    lead = view["state"]["current_trick"][0]
    assert table.startswith("The table: Deal 1 of 7") and spoken_card(lead["card"]) in table
    assert read("?").startswith("Keys: H your hand")


def test_phones_show_the_score_on_the_first_screen(phone_web: Web, seats: Seats) -> None:
    players = [seats.register(f"p{i}") for i in range(4)]
    game_id = seats.game("seconds", players, {})["id"]
    view = play_random(seats, game_id, players, random.Random(2), limit=40)
    page = phone_web.open(f"/table/{game_id}#token={players[0].token}")
    wait_for_version(page, view["version"])
    line = page.locator(".score-line")
    scores = view["scores"]
    assert line.inner_text() == "Score: " + " · ".join(
        f"{label} {scores[i]}" for i, label in enumerate(("North", "East", "South", "West"))
    )
    box = line.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


def test_link_buttons_line_up_with_buttons(web: Web, seats: Seats) -> None:
    game_id, players, _ = finished(seats, "concerto", HAND_ONE_LED_BY_NORTH)
    page = web.open(f"/table/{game_id}#token={players[0].token}")
    link = page.locator(".table-bar a.button", has_text="Replay").bounding_box()
    button = page.locator(".table-bar button.leave").bounding_box()
    assert link and button
    assert abs(link["height"] - button["height"]) < 1 and abs(link["y"] - button["y"]) < 1
    text = page.locator(".table-bar a.button", has_text="Replay").evaluate(
        "a => { const r = document.createRange(); r.selectNodeContents(a);"
        " const t = r.getBoundingClientRect(), b = a.getBoundingClientRect();"
        " return [t.top - b.top, b.bottom - t.bottom]; }"
    )
    assert abs(text[0] - text[1]) < 2  # its text is centred, as a button's is


def test_an_empty_hand_says_so_rather_than_a_bare_count(web: Web) -> None:
    page = web.open("/")
    page.evaluate("""async () => {
        const {renderBoard} = await import('/web/js/board.js');
        const view = {id: 'x', game: 'some_new_game', options: {}, status: 'active', version: 3,
            seats: [{seat: 0, name: 'ann', player_id: 'a'}, {seat: 1, name: 'bo', player_id: 'b'}],
            you: null, to_move: [0], scores: [1, 2], deadline: null, result: null,
            state: {cards_left: [2, 0]}};
        document.getElementById('main').replaceChildren(renderBoard(view));
    }""")
    empty = page.locator(".seat[data-seat='1'] .hand")
    assert empty.inner_text() == "no cards left"
    assert "×0" not in page.inner_text("body")
    assert page.locator(".seat[data-seat='0'] .fan .count").inner_text() == "×2"
