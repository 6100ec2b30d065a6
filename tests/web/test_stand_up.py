"""Stand up on the web table: before the game starts it frees the seat
(docs/api.md#leaving-a-seat); once started, the button only turns you into a spectator."""

from __future__ import annotations

from urllib.parse import quote

from tests.conftest import ADMIN_TOKEN
from tests.web.conftest import Seats, Web


def test_stand_up_frees_the_seat_of_a_waiting_game(web: Web, seats: Seats) -> None:
    me, east, south, west = [seats.register(name) for name in ("me", "e", "s", "w")]
    game_id = seats.call(
        "post",
        "/v1/games",
        {"game": "concerto", "options": {"deals": 1}, "seats": [me.id, east.id, None, None]},
        ADMIN_TOKEN,  # the admin seats players without invitations
    )["id"]
    page = web.open(f"/table/{game_id}#token={me.token}")
    assert page.locator(".table-bar .who").inner_text() == "You are North (me)."
    assert "2 open seats." in page.locator(".status").inner_text()
    page.locator("button.leave", has_text="Stand up").click()
    page.wait_for_selector(".table-bar .who:text('Watching as a spectator.')")
    page.wait_for_selector(".status:has-text('3 open seats.')")
    assert seats.view(game_id)["seats"][0]["player_id"] is None
    # the seat is free again: someone else takes it
    assert seats.call("post", f"/v1/games/{game_id}/join", {"seat": 0}, south.token)["you"] == 0

    # once the game has started, the seat stays taken: the button only makes a spectator
    seats.call("post", f"/v1/games/{game_id}/join", {"seat": 2}, west.token)
    seats.call("post", f"/v1/games/{game_id}/join", {"seat": 3}, me.token)
    page = web.open(f"/table/{game_id}#token={me.token}")
    page.wait_for_selector(".board[data-status=active]")
    page.locator("button.leave", has_text="Watch as spectator").click()
    # it asks first; "Stay seated" changes nothing
    assert "Your seat stays yours" in page.locator(".table-bar .confirm").inner_text()
    page.locator(".confirm button", has_text="Stay seated").click()
    assert page.locator(".table-bar .who").inner_text() == "You are West (me)."
    page.locator("button.leave", has_text="Watch as spectator").click()
    page.locator(".confirm button", has_text="Yes, watch").click()
    page.wait_for_selector(".table-bar .who:text('Watching as a spectator.')")
    assert page.locator(".seat.you").count() == 0  # no hand shown: a spectator's view
    assert seats.view(game_id)["seats"][3]["player_id"] == me.id
    # the way back: the seat's token was kept aside in this tab
    page.locator("button.back-to-seat").click()
    page.wait_for_selector(".table-bar .who:text('You are West (me).')")


def test_an_embedded_table_s_ways_out_go_where_the_app_says(web: Web, seats: Seats) -> None:
    """``#return=<url>`` beside the token (docs/embed.md): the crumb and, at the end, Play
    again go back to the embedding app, named by its host; a non-web address is ignored."""
    players = [seats.register(name) for name in ("me", "e", "s", "w")]
    game_id = seats.game("concerto", players, {"deals": 1})["id"]
    page = web.open(f"/table/{game_id}#token={players[0].token}&return=javascript:alert(1)")
    assert page.locator("#crumbs a").first.get_attribute("href") == "/"
    back = "https://cards.example/lobby?room=7"
    page.goto("about:blank")
    page = web.open(f"/table/{game_id}#token={players[0].token}&return={quote(back)}")
    crumb = page.locator("#crumbs a").first
    assert crumb.inner_text() == "Back to cards.example" and crumb.get_attribute("href") == back
    assert "return" not in page.url and "token" not in page.url  # the fragment is taken in
    assert page.locator(".table-bar .who").inner_text() == "You are North (me)."
    other = seats.game("concerto", players, {"deals": 1})["id"]  # another table, same tab
    page.goto(f"{web.url}/table/{other}")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#crumbs a").first.get_attribute("href") == "/"  # that game's only
    other = seats.game("concerto", players, {"deals": 1})["id"]  # another table, same tab
    page.goto(f"{web.url}/table/{other}")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#crumbs a").first.get_attribute("href") == "/"  # that game's only
