"""The lobby in a real Chromium, and every page on a phone-sized screen."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from server.processes.scheduler import Runner
from tests.conftest import ADMIN_TOKEN
from tests.web.conftest import Seats, Web, play_random
from tests.web.test_table import assert_page_holds_none_of, hands_now


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
    page = web.open(f"/tournaments/{made['id']}")  # live: drawn running, then finished
    assert page.locator("h1").inner_text() == "Friday"
    assert page.locator(".tournament-page").get_attribute("data-status") == "running"
    row = page.locator(f".round tr[data-game='{table['game_id']}']")
    assert "playing" in row.inner_text() and "ann & cat v ben & dan" in row.inner_text()
    assert row.locator(f"a[href='/table/{table['game_id']}']").inner_text() == "Watch"
    assert_page_holds_none_of(
        web, set().union(*hands_now(seats, table["game_id"], players).values())
    )
    play_random(seats, table["game_id"], players, random.Random(3))
    scheduler.tick()
    page.wait_for_selector(".tournament-page[data-status=finished]")  # no reload
    standings = page.locator("table.standings tbody tr")
    assert standings.count() == 2
    final = seats.call("get", f"/v1/games/{table['game_id']}")["result"]["scores"]
    winners = "ann & cat" if final[0] > final[1] else "ben & dan"  # seats 0, 2 against 1, 3
    if final[0] != final[1]:
        assert winners in standings.first.inner_text()
    assert row.locator(f"a[href='/replay/{table['game_id']}']").count() == 1
    page.goto("about:blank")

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
    in_tournament = page.locator(f"#finished tr[data-game='{table['game_id']}']")
    assert in_tournament.locator(f"a[href='/tournaments/{made['id']}']").inner_text() == (
        "tournament round 1"
    )
    # its replay leads back to its tournament
    in_tournament.locator("a", has_text="Replay").click()
    page.wait_for_selector(".board")
    back = page.locator("#crumbs a", has_text="Tournament")
    assert back.get_attribute("href") == f"/tournaments/{made['id']}"
    page.goto(web.url + "/")
    page.wait_for_selector("body[data-ready=true]")

    tournament = page.locator(f"tr[data-tournament='{made['id']}']")
    assert "Friday" in tournament.inner_text() and "finished" in tournament.inner_text()
    assert tournament.locator(f"a[href='/tournaments/{made['id']}']").count() == 1

    board = page.locator(".leaderboard[data-game='concerto'] tbody tr")
    assert board.count() == 4
    page.locator(".leaderboard[data-game='concerto'] h3 a").click()
    page.wait_for_selector(".ratings-page tbody tr")
    rows = page.locator(".ratings-page tbody tr")
    assert rows.count() == 4 and page.url.endswith("/ratings/concerto")
    shown = [rows.nth(i).locator("td").all_inner_texts() for i in range(4)]
    ordinals = [float(r[2]) for r in shown]
    assert ordinals == sorted(ordinals, reverse=True)
    for r in shown:  # the rating shown is the conservative one, mu - 3 sigma
        assert abs(float(r[2]) - (float(r[3]) - 3 * float(r[4]))) < 0.02
        low, high = (float(v) for v in r[6].split("–"))  # mu -+ 1.96 sigma, to 0.1
        assert abs(low - (float(r[3]) - 1.96 * float(r[4]))) < 0.07
        assert abs(high - (float(r[3]) + 1.96 * float(r[4]))) < 0.07
        assert "provisional" in r[1]  # one tournament game: sigma near 25/3
    assert "4.17" in page.locator(".ratings-page .rating-legend").inner_text()
    # a player's rating history: its one rated game so far, with that game's replay
    first = rows.first.get_attribute("data-player")
    rows.first.locator("a").first.click()
    page.wait_for_selector(".rating-history-page")
    assert page.url.endswith(f"/ratings/concerto/players/{first}")
    history = page.locator(".rating-history tbody tr")
    assert history.count() == 1 and history.locator("a[href^='/replay/']").count() == 1
    assert "provisional" in page.locator(".rating-history-page .rating").inner_text()
    page.goto(web.url + "/")
    page.wait_for_selector("body[data-ready=true]")

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
