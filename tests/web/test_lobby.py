"""The lobby in a real Chromium, and every page on a phone-sized screen."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from server.processes.scheduler import Runner
from tests.conftest import ADMIN_TOKEN
from tests.web.conftest import Seats, Web, play_random


def test_the_lobby_lists_games_tournaments_and_leaderboards(web: Web, seats: Seats, app) -> None:
    players = [seats.register(name) for name in ("ann", "ben", "cat", "dan")]
    ids = [p.id for p in players]
    live = seats.game("concerto", players, {"deals": 1})["id"]
    done = seats.game("concerto", players, {"deals": 1})["id"]
    play_random(seats, done, players, random.Random(2))
    made = seats.call(
        "post",
        "/v1/tournaments",
        {"game": "concerto", "format": "round_robin", "options": {"deals": 1}, "name": "Friday"},
        ADMIN_TOKEN,
    )
    for pair in ((ids[0], ids[2]), (ids[1], ids[3])):
        seats.call(
            "post", f"/v1/tournaments/{made['id']}/entries", {"players": list(pair)}, ADMIN_TOKEN
        )
    seats.call("post", f"/v1/tournaments/{made['id']}/start", {}, ADMIN_TOKEN)
    scheduler = Runner(app.extensions["parlour"])
    scheduler.tick()
    table = seats.call("get", f"/v1/tournaments/{made['id']}")["rounds"][0]["tables"][0]
    page = web.open(f"/table/{table['game_id']}")  # a clocked game: its deadline counts down
    page.wait_for_function(
        "/^Move due in \\d+ s\\.$/.test(document.querySelector('.deadline')?.textContent)"
    )
    page.goto("about:blank")
    play_random(seats, table["game_id"], players, random.Random(3))
    scheduler.tick()

    page = web.open("/")
    rows = page.locator("#live tr[data-game]")
    assert rows.count() == 1 and rows.get_attribute("data-game") == live
    assert "ann" in rows.inner_text() and "to move" in rows.inner_text()
    finished = page.locator("#finished tr[data-game]")
    assert {finished.nth(i).get_attribute("data-game") for i in range(finished.count())} == {
        done,
        table["game_id"],
    }
    assert page.locator(f"#finished tr[data-game='{done}'] a[href='/replay/{done}']").count() == 1

    tournament = page.locator(f"details[data-tournament='{made['id']}']")
    assert "Friday" in tournament.inner_text() and "finished" in tournament.inner_text()
    tournament.locator("summary").click()
    standings = tournament.locator("table.standings tbody tr")
    standings.first.wait_for()
    assert standings.count() == 2
    assert tournament.locator(f"a[href='/replay/{table['game_id']}']").count() == 1

    board = page.locator(".leaderboard[data-game='concerto'] tbody tr")
    assert board.count() == 4

    page.locator(f"#live tr[data-game='{live}'] a", has_text="Watch").click()
    page.wait_for_selector(".board[data-version='0']")
    assert page.url.endswith(f"/table/{live}")


def fits(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_every_page_fits_a_phone(web: Web, seats: Seats) -> None:
    web.page.set_viewport_size({"width": 375, "height": 740})
    players = [seats.register(name) for name in ("ann", "ben", "cat", "dan")]
    game_id = seats.game("concerto", players, {"deals": 1})["id"]
    play_random(seats, game_id, players, random.Random(4), limit=12)
    page = web.open(f"/table/{game_id}#token={players[0].token}")
    page.wait_for_selector(".board")
    assert fits(page)
    felt, side = page.locator(".felt").bounding_box(), page.locator(".side").bounding_box()
    assert side["y"] >= felt["y"] + felt["height"]  # stacked, not side by side
    play_random(seats, game_id, players, random.Random(5))
    page.goto("about:blank")
    for path in ("/", f"/replay/{game_id}?step=20"):
        page = web.open(path)
        assert fits(page), path


def test_the_lobby_names_each_game_s_variant(web: Web, seats: Seats) -> None:
    players = [seats.register(name) for name in ("ann", "ben", "cat", "dan")]
    fire = seats.game("pinochle", players, {"variant": "firehouse", "max_deals": 1})["id"]
    penguin = seats.game("concerto", players, {"rules": "penguin", "deals": 1})["id"]
    plain = seats.game("seconds", players)["id"]
    listed = {g["id"]: g for g in seats.call("get", "/v1/games?status=live")["games"]}
    assert listed[fire]["options"]["variant"] == "firehouse"  # the API's entry carries it
    page = web.open("/")
    assert page.locator(f"tr[data-game='{fire}'] td").first.inner_text() == "Pinochle (firehouse)"
    assert (
        "Penguin book edition" in page.locator(f"tr[data-game='{penguin}'] td").first.inner_text()
    )
    assert page.locator(f"tr[data-game='{plain}'] td").first.inner_text() == "Seconds"
