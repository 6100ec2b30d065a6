"""Stand up on the web table: before the game starts it frees the seat
(docs/api.md#leaving-a-seat); once started, the button only turns you into a spectator."""

from __future__ import annotations

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
    page.wait_for_selector(".table-bar .who:text('Watching as a spectator.')")
    assert seats.view(game_id)["seats"][3]["player_id"] == me.id
