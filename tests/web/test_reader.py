"""Screen-reader mode (server/web/js/reader_mode.js, over reader.js's keys): a visitor plays
a whole Seconds deal against the house bots with single keys and the move field only,
reading the game off the accessibility tree (the "read out" live region), never the board.

The sentences are checked against the visitor's own view and the public events, read
from the API with the visitor's token: the hand suit by suit, the last trick's winner,
whose turn, the legal moves. The mode is kept per browser (a reload keeps it on).
"""

from __future__ import annotations

import re

import requests
from playwright.sync_api import Browser, Page

from server.games import REGISTRY
from server.processes.botpool import BotPool
from tests.conftest import LiveServer
from tests.web.audit import SHOTS, SIZES, audit_tab, check, open_fresh, serious_violations, shoot
from tests.web.test_visitors import pool  # noqa: F401 - the bot pool fixture

GAME = "seconds"
SUITS = (("S", "spades"), ("H", "hearts"), ("D", "diamonds"), ("C", "clubs"))
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}
SUIT_NAMES = dict(SUITS)
LABELS = ("North", "East", "South", "West")  # a four-seat table, seat 0 first


def card_words(code: str) -> str:
    return f"{RANKS.get(code[0], code[0])} of {SUIT_NAMES[code[1]]}"


def hand_sentence(hand: list[str]) -> str:
    """Each suit held, spades first, its ranks in the hand's order."""
    parts = []
    for suit, name in SUITS:
        held = [RANKS.get(c[0], c[0]) for c in hand if c[1] == suit]
        if held:
            parts.append(f"{name}: {', '.join(held)}")
    return f"Your hand, {len(hand)} cards: {'; '.join(parts)}."


def heard(page: Page, key: str) -> str:
    """Press ``key`` and read what the live region says, off the accessibility tree (once
    more if the table's own "Your turn" came in just after the key)."""
    for _ in range(3):
        page.keyboard.press(key)
        snapshot = page.get_by_role("status", name="read out").aria_snapshot()
        found = re.match(r'- status "read out": (.*)$', snapshot.strip(), re.DOTALL)
        assert found, snapshot
        said = found.group(1).strip().strip('"').strip()
        if key == "w" or not said.startswith("Your move"):
            return said
    return said


def test_a_visitor_plays_a_seconds_deal_by_keys_alone(
    pool: BotPool,  # noqa: F811
    browser: Browser,
    live_server: LiveServer,
    axe_source: str,
) -> None:
    """In the audit's tab (its context lets axe past the CSP): at the end of the deal the
    table with the panel open passes axe and fits at both sizes."""
    assert GAME in REGISTRY
    url = live_server.url
    page = audit_tab(browser)
    page.set_viewport_size(SIZES["desktop"])
    open_fresh(page, url + "/")
    page.locator(f"form.offer[data-game='{GAME}'] button.play-bots").click()
    page.wait_for_selector(".board[data-status=active]")
    game_id = page.url.rsplit("/", 1)[1]
    token = page.evaluate("sessionStorage.getItem('parlour.token')")
    auth = {"Authorization": f"Bearer {token}"}

    def mine() -> dict:
        return requests.get(f"{url}/v1/games/{game_id}", headers=auth, timeout=10).json()

    try:
        toggle = page.get_by_role("button", name="Screen-reader mode")
        toggle.focus()
        page.keyboard.press("Enter")
        assert page.get_by_role("button", name="Screen-reader mode", pressed=True).count() == 1
        page.reload()  # kept per browser
        page.wait_for_selector(".board")
        assert page.get_by_role("button", name="Screen-reader mode", pressed=True).count() == 1
        assert page.get_by_role("region", name="screen-reader table").count() == 1
        page.get_by_role("region", name="screen-reader table").focus()

        view = mine()
        assert heard(page, "h") == hand_sentence(view["hand"])
        played, checked_last = 0, False
        for _ in range(400):
            if deal_over(url, game_id):
                break
            said = heard(page, "w")
            if not said.startswith("Your move."):
                page.wait_for_timeout(200)
                continue
            view = mine()
            shown = page.locator(".board").get_attribute("data-version")
            if view["you"] not in view["to_move"] or shown != str(view["version"]):
                continue  # the page was a step behind the server: read it again
            moves = heard(page, "m")
            legal = view["legal_moves"]
            assert (
                moves
                == "Your moves: " + "; ".join(f"play {card_words(m['card'])}" for m in legal) + "."
            )
            if played == 0:
                assert heard(page, "t").startswith("The table: Deal 1 of ")
            trick = [e for e in public_events(url, game_id) if e["kind"] == "trick"]
            if trick and not checked_last:
                winner = LABELS[trick[-1]["data"]["winner"]]
                assert heard(page, "l").startswith(f"Trick {len(trick)} to {winner}")
                assert heard(page, "s").startswith("Score:")
                checked_last = True
            page.keyboard.press("p")
            page.keyboard.type(legal[0]["card"])  # its card, as QS
            page.keyboard.press("Enter")
            page.wait_for_function(
                f"() => fetch('/v1/games/{game_id}').then(r => r.json())"
                f".then(v => v.version > {view['version']})"
            )
            made = [e["data"] for e in public_events(url, game_id)
                    if e["kind"] == "play" and e["version"] == view["version"] + 1]  # fmt: skip
            assert made == [
                {
                    "seat": view["you"],
                    "card": legal[0]["card"],
                    "trick_number": made[0]["trick_number"],
                }
            ]
            played += 1
        assert deal_over(url, game_id) and played == 13 and checked_last
        page.add_script_tag(content=axe_source)
        SHOTS.mkdir(parents=True, exist_ok=True)
        problems = {}
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            found = check(page) + serious_violations(page)
            shoot(page, SHOTS / f"table-reader-{size}.png")
            if found:
                problems[size] = found
        assert not problems, problems
    finally:
        page.evaluate("localStorage.removeItem('parlour.reader')")  # the context is shared


def public_events(url: str, game_id: str) -> list[dict]:
    """Every public event of the game, page by page (a page holds at most 100)."""
    events: list[dict] = []
    while True:
        got = requests.get(
            f"{url}/v1/games/{game_id}/events?after={len(events) and events[-1]['seq']}"
            "&wait=0&limit=100",
            timeout=10,
        ).json()
        events += got["events"]
        if not got["events"]:
            return events


def deal_over(url: str, game_id: str) -> bool:
    return any(e["kind"] == "deal_end" for e in public_events(url, game_id))
