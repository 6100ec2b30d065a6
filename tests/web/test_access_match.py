"""A match's page at phone and desktop sizes: one match waiting for agreement and one
played to its decision (a bot that follows suit and signals against one that plays at
random, on duplicate one-deal boards, moved in-process). The page says the decision in
words and shows the API's numbers, and a page left open follows the match (waiting, then
running once everybody has agreed); axe-core finds no serious or critical violation, no
page scrolls sideways, each is photographed (tests/web/audit.py: var/screenshots/match-*.png)."""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from playwright.sync_api import Browser, Page

from bots import concerto_signals, uniform
from server.games import REGISTRY
from server.processes.scheduler import Runner
from server.store import matches as match_store
from tests.conftest import LiveServer
from tests.web.audit import audit, audit_tab, open_fresh, report
from tests.web.conftest import Seats

GAME = "concerto"  # the bots below are Concerto's
ONE_DEAL = {"deals": 1, "target": 10000}
BOUNDS = [-1.0, 1.0]
"""Wide bounds: LLR = n (e1 - e0) (effect - 0) = 2 n effect, so at the test's first look
(8 boards) an effect above 2.944 / 16 = 0.18 passes; signals against random play is far
above that."""


def a_decided_match(seats: Seats, app) -> dict[str, Any]:
    """Eight players, strong against weak, everybody agreed; the scheduler's passes and the
    bots' moves through the services until the test decides. Returns the API's match."""
    people = [seats.register(f"M{i}") for i in range(8)]
    moves = {p.id: (p.token, (concerto_signals if i < 4 else uniform).make_bot(random.Random(i)))
             for i, p in enumerate(people)}  # fmt: skip
    body = {"game": GAME, "options": ONE_DEAL, "new": [p.id for p in people[:4]],
            "old": [p.id for p in people[4:]], "max_boards": 12, "bounds": BOUNDS}  # fmt: skip
    made = seats.call("post", "/v1/matches", body, people[0].token)
    for p in people[1:]:
        seats.call("post", f"/v1/matches/{made['id']}/agree", {}, p.token)
    services = app.extensions["parlour"]
    runner = Runner(services)
    for _ in range(2000):
        runner.tick()
        if services.matches.get(made["id"])["status"] not in ("waiting", "running"):
            return seats.call("get", f"/v1/matches/{made['id']}")
        for token, bot in moves.values():
            for turn in services.feeds.turns(token)["turns"]:
                move = bot.choose_move(turn["view"])
                services.games.move(token, turn["game_id"], move, turn["version"], turn["seat"])
    raise AssertionError("the match did not decide")


def fixed(x: float | None, digits: int = 2) -> str:
    """As JavaScript's ``toFixed``: the exact binary value, a tie away from zero (Python's
    format rounds a tie to even: 34.125 is 34.12 there, 34.13 in the page)."""
    if x is None:
        return "–"
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def test_a_match_s_page_says_its_decision_with_the_api_s_numbers(
    browser: Browser, live_server: LiveServer, seats: Seats, axe_source: str, app
) -> None:
    assert GAME in REGISTRY
    decided = a_decided_match(seats, app)
    assert decided["status"] == "pass", decided
    others = [seats.register(f"W{i}") for i in range(8)]
    waiting = seats.call("post", "/v1/matches", {
        "game": GAME, "options": ONE_DEAL, "new": [p.id for p in others[:4]],
        "old": [p.id for p in others[4:]]}, others[0].token)  # fmt: skip
    pages = {
        "match-decided": f"/matches/{decided['id']}",
        "match-waiting": f"/matches/{waiting['id']}",
    }
    est = decided["estimate"]
    # by hand: the effect interval is the points interval over the spread
    effect_low, effect_high = est["low"] / est["spread"], est["high"] / est["spread"]
    seen: dict[str, dict[str, Any]] = {}

    def look(name: str, size: str, page: Page) -> None:
        seen[f"{name} {size}"] = {
            "verdict": page.locator(".verdict").inner_text(),
            "status": page.locator(".match-page").get_attribute("data-status"),
            "numbers": dict(page.locator(".match-numbers td.num").evaluate_all(
                "(tds) => tds.map((td) => [td.dataset.value, td.textContent])")),
            "differences": page.locator(".match-boards td.difference").all_inner_texts(),
            "new": page.locator(".match-boards td.new").all_inner_texts(),
            "old": page.locator(".match-boards td.old").all_inner_texts(),
            "replays": page.locator(".match-boards a").evaluate_all(
                "(as) => as.map((a) => a.getAttribute('href'))"),
            "download": page.locator("a[download]").get_attribute("href"),
        }  # fmt: skip

    problems = audit(browser, live_server.url, axe_source, pages, look)
    assert not problems, report(problems)
    for size in ("desktop", "phone"):
        shown = seen[f"match-decided {size}"]
        assert shown["status"] == "pass"
        assert shown["verdict"].startswith("Passed: NEW is better than OLD")
        n = shown["numbers"]
        assert n["Boards"] == f"{decided['boards_scored']} of 12"
        assert n["LLR"] == fixed(decided["llr"])
        assert float(n["LLR"]) >= 2.94  # ln(0.95 / 0.05) = 2.944, the pass bound
        assert (
            n["Bounds"] == f"{fixed(decided['llr_bounds'][0])} / {fixed(decided['llr_bounds'][1])}"
        )
        assert n["Estimate"] == fixed(est["mean"])
        assert n["95% interval"] == f"{fixed(est['low'])} – {fixed(est['high'])}"
        assert n["Effect"] == fixed(est["effect"], 3)
        assert n["Effect interval"] == f"{fixed(effect_low, 3)} – {fixed(effect_high, 3)}"
        assert shown["differences"] == [fixed(b["difference"]) for b in decided["boards"]]
        assert shown["new"] == [fixed(b["new_points"]) for b in decided["boards"]]
        assert shown["old"] == [fixed(b["old_points"]) for b in decided["boards"]]
        assert shown["replays"] == [f"/replay/{g}" for b in decided["boards"] for g in b["games"]]
        assert shown["download"] == f"/v1/matches/{decided['id']}/regression"
        wait = seen[f"match-waiting {size}"]
        assert wait["status"] == "waiting"
        assert wait["verdict"].startswith("Waiting for agreement: 7 named player(s)")
        assert wait["numbers"]["Boards"] == "0 of 200"
        assert wait["numbers"]["95% interval"] == "none yet"
    # live: the waiting page, left open, redraws itself once the last player agrees
    page = audit_tab(browser)
    open_fresh(page, live_server.url + pages["match-waiting"])
    assert page.locator(".match-page").get_attribute("data-status") == "waiting"
    for p in others[1:]:
        seats.call("post", f"/v1/matches/{waiting['id']}/agree", {}, p.token)
    page.wait_for_selector(".match-page[data-status=running]")  # within a refresh (3 s)
    assert page.locator(".verdict").inner_text().startswith("Running:")
    # stopped here, so that no later test's scheduler pass deals it a board
    match_store.finish(app.extensions["parlour"].core.r, waiting["id"], "inconclusive")
