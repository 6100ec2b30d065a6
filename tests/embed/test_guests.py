"""Apps, guests and invitations: a guest token plays its own seat of its own game, nothing else."""

from __future__ import annotations

import random
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from server.api import create_app
from tests.api.helpers import Api, assert_error, cards_in
from tests.api.play import play_random_moves
from tests.conftest import Player
from tests.embed.conftest import app_game, make_app, register_bots


def guest(invitation: dict) -> Player:
    token = invitation["token"]
    return Player(token.partition(".")[0], "Guest", token)


def test_only_the_admin_creates_apps(api, players):
    someone = players.register("ann")
    assert_error(api.post("/v1/apps", {"name": "x"}, someone), 403, "forbidden")
    assert_error(api.post("/v1/apps", {"name": "x"}), 401, "unauthorized")
    assert_error(api.post("/v1/apps", {"nom": "x"}, "admin"), 400, "invalid_request")
    details = assert_error(
        api.post("/v1/apps", {"name": "x", "invite_url": "javascript:alert(1)"}, "admin"),
        400,
        "invalid_request",
    )
    assert "invite_url" in details
    app = make_app(api, invite_url="https://cards.example/play")
    assert app.id.startswith("app") and app.token.startswith(app.id + ".")
    shown = api.get(f"/v1/apps/{app.id}", app.token)
    assert shown.status == 200 and shown.body["invite_url"] == "https://cards.example/play"
    assert app.token not in shown.text


def test_an_app_game_gets_one_invitation_per_open_seat_and_bots_by_name(api):
    register_bots(api)
    app = make_app(api, invite_url="https://cards.example/play")
    made = app_game(
        api,
        app,
        [None, "bot:concerto_signals", None, "bot:concerto_signals"],
        guest_names=["Ann", "Bea"],
    )
    game = made["game"]
    assert game["status"] == "active" and game["you"] is None and "hand" not in game
    assert not cards_in(str(made)), "the app's answer shows no card"
    names = [s["name"] for s in game["seats"]]
    assert names[0] == "Ann" and names[2] == "Bea"
    assert names[1] != names[3] and all(n.startswith("concerto_signals") for n in names[1::2])
    assert [i["seat"] for i in made["invitations"]] == [0, 2]
    tokens = {i["token"] for i in made["invitations"]}
    assert len(tokens) == 2
    for invitation in made["invitations"]:
        link = urlsplit(invitation["url"])
        assert link._replace(fragment="").geturl() == "https://cards.example/play"
        fragment = parse_qs(link.fragment)  # in the fragment: never sent to a server
        assert fragment == {
            "game": [game["id"]],
            "seat": [str(invitation["seat"])],
            "token": [invitation["token"]],
        }
        mine = api.view(game["id"], invitation["token"])
        assert mine["you"] == invitation["seat"] and len(mine["hand"]) == 13


def test_bot_seats_must_name_a_bot_of_the_pool_that_plays_the_game(api):
    app = make_app(api)
    body = {"game": "concerto", "seats": [None, "bot:random", None, "bot:random"]}
    details = assert_error(
        api.post(f"/v1/apps/{app.id}/games", body, app.token), 400, "invalid_request"
    )
    assert set(details["seats"]) == {"1", "3"}  # no pool registered yet
    register_bots(api, count=1)
    details = assert_error(
        api.post(f"/v1/apps/{app.id}/games", body, app.token), 400, "invalid_request"
    )
    assert set(details["seats"]) == {"3"}  # one identity: one seat per game
    seconds = {"game": "seconds", "seats": [None, "bot:concerto_signals"]}
    details = assert_error(
        api.post(f"/v1/apps/{app.id}/games", seconds, app.token), 400, "invalid_request"
    )
    assert "concerto" in details["seats"]["1"]
    ghost = {"game": "concerto", "seats": [None, "bot:ghost", None, None]}
    assert_error(api.post(f"/v1/apps/{app.id}/games", ghost, app.token), 400, "invalid_request")
    assert_error(
        api.post(f"/v1/apps/{app.id}/games", {"game": "concerto"}, app.token),
        400,
        "invalid_request",
    )


def test_a_guest_token_acts_only_in_its_own_seat_of_its_own_game(api, players):
    app = make_app(api)
    made = app_game(api, app, [None, None, None, None])
    gid = made["game"]["id"]
    guests = [guest(i) for i in made["invitations"]]
    other = app_game(api, app, [None, None, None, None])
    ann = players.register("ann")
    plain = api.create(ann, [ann.id, None, None, None])
    view = api.view(gid)
    first = view["to_move"][0]
    mover, idle = guests[first], guests[(first + 1) % 4]

    # Its own game: its own seat only.
    assert api.view(gid, mover)["you"] == first
    assert_error(api.get(f"/v1/games/{gid}", mover, seat=(first + 1) % 4), 403, "forbidden")
    assert_error(api.get(f"/v1/games/{gid}/events", mover, seat=(first + 1) % 4), 403, "forbidden")
    mine = api.view(gid, mover)
    assert_error(api.move(gid, idle, mine["legal_moves"][0]), 409, "not_your_turn")
    body = {"move": mine["legal_moves"][0], "seat": (first + 1) % 4}
    assert_error(api.post(f"/v1/games/{gid}/moves", body, mover), 403, "forbidden")
    assert_error(api.post(f"/v1/games/{gid}/join", {"seat": first}, mover), 409, "already_seated")
    other_seat = {"seat": (first + 1) % 4}  # bound to its seat (docs/api.md, before the start)
    assert_error(api.post(f"/v1/games/{gid}/join", other_seat, mover), 403, "forbidden")

    # Any other game: refused, whatever the seat.
    for game_id in (other["game"]["id"], plain["id"]):
        assert_error(api.get(f"/v1/games/{game_id}", mover), 403, "forbidden")
        assert_error(api.get(f"/v1/games/{game_id}/events", mover), 403, "forbidden")
        assert_error(api.get(f"/v1/games/{game_id}/stream", mover), 403, "forbidden")
        assert_error(api.get(f"/v1/games/{game_id}/replay", mover), 403, "forbidden")
        assert_error(api.move(game_id, mover, {"type": "pass"}), 403, "forbidden")
        assert_error(api.post(f"/v1/games/{game_id}/join", {}, mover), 403, "forbidden")
    # Anything that is not a game: refused.
    assert_error(api.get("/v1/me/turns", mover), 403, "forbidden")
    assert_error(api.get("/v1/players/me", mover), 403, "forbidden")
    assert_error(api.post("/v1/games", {"game": "concerto"}, mover), 403, "forbidden")
    assert_error(
        api.post("/v1/tournaments", {"game": "concerto", "format": "swiss"}, mover),
        403,
        "forbidden",
    )
    assert_error(api.get(f"/v1/apps/{app.id}", mover), 403, "forbidden")
    assert_error(
        api.post(f"/v1/apps/{app.id}/games", {"game": "concerto", "seats": [None] * 4}, mover),
        403,
        "forbidden",
    )
    # A forged guest token (right id, wrong secret) is unknown.
    forged = mover.token.partition(".")[0] + ".not-the-secret"
    assert_error(api.get(f"/v1/games/{gid}", forged), 401, "unauthorized")

    # And the move it may make works.
    assert api.move(gid, mover, mine["legal_moves"][0], mine["version"]).status == 200


def test_app_tokens_act_only_for_their_own_app(api, players):
    first, second = make_app(api, "one"), make_app(api, "two")
    body = {"game": "concerto", "seats": [None] * 4}
    assert_error(api.post(f"/v1/apps/{second.id}/games", body, first.token), 403, "forbidden")
    assert_error(api.get(f"/v1/apps/{second.id}", first.token), 403, "forbidden")
    assert_error(
        api.post(f"/v1/apps/{first.id}/games", body, players.register("ann")), 403, "forbidden"
    )
    assert_error(
        api.post(f"/v1/apps/{first.id}/games", body, first.id + ".wrong"), 401, "unauthorized"
    )
    assert_error(api.post("/v1/apps/appnope/games", body, "admin"), 404, "not_found")
    assert api.post(f"/v1/apps/{first.id}/games", body, "admin").status == 201
    # An app token is not a player's: the player endpoints do not know it.
    assert_error(api.get("/v1/players/me", first.token), 401, "unauthorized")


@pytest.fixture
def short_lived(redis_client, app_config):
    """A server whose guests expire fast (``GUEST_TTL``, ``GUEST_GRACE`` in seconds)."""

    def make(ttl: float, grace: float) -> Api:
        config = app_config | {"GUEST_TTL": ttl, "GUEST_GRACE": grace}
        return Api(client=create_app(config).test_client())

    return make


def test_a_guest_token_reads_its_final_view_for_the_grace_period_then_expires(short_lived):
    api = short_lived(ttl=60, grace=0.3)
    made = app_game(api, make_app(api), [None, None, None, None])
    gid = made["game"]["id"]
    guests = [guest(i) for i in made["invitations"]]
    final = play_random_moves(api, gid, guests, random.Random(3))
    assert final["status"] == "finished"
    after_end = api.view(gid, guests[0])  # within the grace period: still its seat's view
    assert after_end["you"] == 0 and after_end["result"] is not None
    assert_error(api.move(gid, guests[0], {"type": "pass"}), 409, "game_over")
    time.sleep(0.4)
    assert_error(api.get(f"/v1/games/{gid}", guests[0]), 401, "unauthorized")
    assert api.view(gid)["status"] == "finished"  # the game itself stays readable


def test_an_unused_invitation_expires_after_its_lifetime(short_lived):
    api = short_lived(ttl=1.5, grace=60)
    made = app_game(api, make_app(api), [None, None, None, None])
    token = made["invitations"][0]["token"]
    assert api.get(f"/v1/games/{made['game']['id']}", token).status == 200
    time.sleep(1.6)
    assert_error(api.get(f"/v1/games/{made['game']['id']}", token), 401, "unauthorized")
