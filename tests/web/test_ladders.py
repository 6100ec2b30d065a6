"""A ladder's leaderboard and an entry's page in a real Chromium, over a ladder whose
games the house bots played in-process (real Redis, engines and scheduler)."""

from __future__ import annotations

import time

import requests

from bots import uniform
from server.processes.scheduler import Runner
from server.services.bundle import Services
from server.services.ladders import pool
from server.store import keys
from tests.conftest import ADMIN_TOKEN
from tests.ladder.support import HouseBots
from tests.web.conftest import Web
from tests.web.test_table import assert_page_holds_none_of


def played_ladder(service: Services, contests: int) -> tuple[str, list[dict[str, str]]]:
    """A Concerto ladder of eight entries (a duplicate board's two tables seat eight
    players, nobody at both) with at least ``contests`` rated boards, and one more board
    in play."""
    names = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")
    players = [service.players.register(None, name) for name in names]
    ladder = service.ladders.create(
        ADMIN_TOKEN, game="concerto", options={"deals": 1}, name="Evening", rematch_seconds=0.0
    )
    for p in players:
        service.ladders.join(p["token"], ladder["id"])
    bots = HouseBots(service, players, [uniform.make_bot] * 8, seed=3)
    runner = Runner(service)
    deadline = time.monotonic() + 30
    while service.core.r.scard(keys.ratings_applied(pool(ladder["id"]))) < contests:
        assert time.monotonic() < deadline, "the ladder did not play"
        runner.tick()
        bots.step()
    runner.tick()  # and a board in play: every entry is free again after its last one
    return ladder["id"], players


def test_a_ladder_s_leaderboard_and_an_entry_s_games_form_and_health(web: Web, app) -> None:
    service = app.extensions["parlour"]
    ladder_id, players = played_ladder(service, contests=3)
    board = service.ladders.leaderboard(ladder_id)["leaderboard"]

    page = web.open("/")
    ladder_rows = page.locator("#live tr[data-game], #finished tr[data-game]")
    assert ladder_rows.count() >= 6  # three boards of two tables, each told a ladder's
    assert all("ladder game" in text for text in ladder_rows.all_inner_texts())
    row = page.locator(f"#ladders tr[data-ladder='{ladder_id}']")
    assert "Evening" in row.inner_text() and "Concerto" in row.inner_text()
    row.locator("a").click()
    page.wait_for_selector(".ladder-board tbody tr")
    rows = page.locator(".ladder-board tbody tr")
    assert page.locator("#crumbs span").last.inner_text() == "Evening"  # its name, not its id
    assert rows.count() == len(board) >= 4  # every rated entry, in the API's order
    top = rows.first.locator("td").all_inner_texts()
    assert top[0] == "1" and board[0]["name"] in top[1]
    ordinal, mu, sigma = (float(v) for v in top[2:5])
    # ranked by the conservative rating; each figure is shown rounded to 2 decimals,
    # so the shown ones may disagree by 0.005 + 0.005 + 3 * 0.005
    assert abs(ordinal - (mu - 3 * sigma)) <= 0.025 + 1e-9
    assert int(top[5]) == board[0]["games"] and top[6] != "—"
    # the 95% range, mu -+ 1.96 sigma, each end shown to one decimal
    low, high = (float(v) for v in top[7].split("–"))
    assert abs(low - (mu - 1.96 * sigma)) <= 0.05 + 0.005 + 1.96 * 0.005 + 1e-9
    assert abs(high - (mu + 1.96 * sigma)) <= 0.05 + 0.005 + 1.96 * 0.005 + 1e-9
    # three contests each, fewer than the ladder's 10 and sigma far above 25/6: every row
    # is marked provisional, and the legend under the table says what the mark means
    assert all(row["provisional"] for row in board)
    assert rows.locator(".tag.provisional").count() == len(board)
    legend = page.locator(".rating-legend").inner_text()
    assert "4.17" in legend and "fewer than 10 contests" in legend
    assert "99.9%" in page.locator(".rating-meaning").inner_text()

    who = next(p for p in players if p["id"] == board[0]["player_id"])
    rows.first.locator("a").click()
    page.wait_for_selector(".ladder-player-page .health")
    entry = service.ladders.entry(ladder_id, who["id"])
    assert page.locator("h1").inner_text() == who["name"]
    history = page.locator(".ladder-history tbody tr")
    assert history.count() == min(20, len(entry["history"]))
    for row, shown in zip(entry["history"][:20], history.all(), strict=True):
        for game in row["games"]:  # a finished table links its replay, one in play its table
            href = f"/{'replay' if game['over'] else 'table'}/{game['game_id']}"
            assert shown.locator(f"a[href='{href}']").count() == (1 if game["game_id"] else 0)
    assert page.locator(".ladder-history a[href^='/replay/']").count() >= 2  # a board: 2 tables
    # The plot: the entry's rating (its ordinal) after each contest, one point per contest.
    label = page.locator("svg.plot").get_attribute("aria-label") or ""
    over = sum(entry["results"].values())
    assert label.startswith("Rating (μ − 3σ) after each contest"), label
    assert f"over {over} points" in label, label
    assert "the 95% range narrowed from" in label, label  # sigma only falls: it narrows
    assert page.locator("svg.plot path.band").count() == 1
    assert page.locator(".ladder-player-page .rating .tag.provisional").count() == 1
    figures = {
        name: page.locator(f".health [data-figure={name}] .figure").inner_text()
        for name in ("timeouts", "refused_moves", "response_p50", "response_p99")
    }
    assert figures["timeouts"] == str(entry["health"]["timeouts"]) == "0"  # bots moved in time
    assert figures["refused_moves"] == "0"
    assert figures["response_p50"].endswith(" ms") and figures["response_p99"].endswith(" ms")

    # No page of the ladder holds a card of a game still in play (its hands are secret).
    in_play = {
        g["game_id"]
        for p in players
        for row in service.ladders.entry(ladder_id, p["id"])["history"]
        for g in row["games"]
        if g["game_id"] and not g["over"]
    }
    hidden: set[str] = set()
    for game_id in in_play:
        for p in players:
            view = requests.get(
                f"{web.url}/v1/games/{game_id}",
                headers={"Authorization": f"Bearer {p['token']}"},
                timeout=10,
            ).json()
            hidden |= set(view.get("hand") or [])
    assert in_play and hidden
    for path in (f"/ladders/{ladder_id}", f"/ladders/{ladder_id}/players/{who['id']}"):
        web.open(path)
        assert_page_holds_none_of(web, hidden)
