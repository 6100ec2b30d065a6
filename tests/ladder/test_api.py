"""``/v1/ladders`` over HTTP (the Flask test client): who may define, join and leave,
and what the ladder, an entry and the leaderboard show."""

from __future__ import annotations

from client_sdk import Client
from server.processes.demo import define_ladders
from tests.api.helpers import Api, assert_error
from tests.conftest import ADMIN_TOKEN


def test_define_join_leave_and_read(client, players):
    api = Api(client=client)
    alice, bob = players.register("alice"), players.register("bob")
    body = {"game": "concerto", "options": {"deals": 1}, "clock": {"move_seconds": 2}}
    assert_error(api.post("/v1/ladders", body, who=alice), 403, "forbidden")
    created = api.post("/v1/ladders", body, who="admin")
    assert created.status == 201, created.body
    ladder = created.body
    # Concerto: two sides of two partners, played as duplicate boards
    assert (ladder["table_size"], ladder["side_size"], ladder["duplicate"]) == (4, 2, True)
    lid = ladder["id"]
    assert [x["id"] for x in api.get("/v1/ladders").body["ladders"]] == [lid]

    joined = api.post(f"/v1/ladders/{lid}/entries", {}, who=alice)
    assert joined.status == 201 and joined.body["player_id"] == alice.id
    # a player joins only for itself; the admin may enter anyone
    refused = api.post(f"/v1/ladders/{lid}/entries", {"player_id": bob.id}, who=alice)
    assert_error(refused, 403, "forbidden")
    by_admin = api.post(f"/v1/ladders/{lid}/entries", {"player_id": bob.id}, who="admin")
    assert by_admin.status == 201

    shown = api.get(f"/v1/ladders/{lid}").body
    assert {e["player_id"] for e in shown["entries"]} == {alice.id, bob.id}
    assert all(e["status"] == "away" for e in shown["entries"])  # neither is polling

    api.get("/v1/me/turns", who=alice)  # waiting for a turn: available
    entry = api.get(f"/v1/ladders/{lid}/entries/{alice.id}").body
    assert entry["status"] == "available" and entry["history"] == []
    assert entry["rating"] is None

    left = client.delete(f"/v1/ladders/{lid}/entries", headers=alice.headers)
    assert left.status_code == 200 and left.json["left"] is True
    again = client.delete(f"/v1/ladders/{lid}/entries", headers=alice.headers)
    assert again.status_code == 404 and again.json["error"]["code"] == "not_found"
    assert api.get(f"/v1/ladders/{lid}/leaderboard").body["leaderboard"] == []


def test_errors(client, players):
    api = Api(client=client)
    assert_error(api.get("/v1/ladders/nope"), 404, "not_found")
    bad = api.post("/v1/ladders", {"game": "chess"}, who="admin")
    assert_error(bad, 400, "invalid_request")
    odd = api.post("/v1/ladders", {"game": "concerto", "side_size": 3}, who="admin")
    assert_error(odd, 400, "invalid_request")
    no_auth = api.post("/v1/ladders/x/entries", {})
    assert no_auth.status == 401


def test_a_ladder_for_every_game_as_the_demo_defines_them(live_server):
    admin = Client(live_server.url, ADMIN_TOKEN)
    ladders = {x["game"]: x for x in define_ladders(admin)}
    # partnership games: two sides of two, played as duplicate boards; the others solo
    assert {g: (x["side_size"], x["duplicate"]) for g, x in ladders.items()} == {
        "concerto": (2, True),
        "pinochle": (2, True),
        "seconds": (1, False),
        "cowpoke": (1, False),
    }


def test_a_big_pinochle_table_defaults_to_two_sides_seated_alternately(client, players):
    """Double-deck Pinochle for six or eight is two teams seated alternately
    (docs/rules/pinochle.md P2): three or four a side by default, not three or four
    sides of two, which would put players who are not partners on one side."""
    api = Api(client=client)
    for seats, side in ((4, 2), (6, 3), (8, 4)):
        made = api.post("/v1/ladders", {"game": "pinochle", "table_size": seats}, who="admin")
        assert made.status == 201, made.body
        body = made.body
        assert (body["table_size"], body["side_size"], body["duplicate"]) == (seats, side, True)
