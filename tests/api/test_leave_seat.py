"""Leaving a seat: ``DELETE /v1/games/{id}/seats/{seat}`` (docs/api.md#leaving-a-seat).

A seat of a game still waiting may be left by its holder (or freed by the admin),
and someone else may then take it; once the game has started its seats stay
taken (409 ``game_started``) and nothing in Redis changes.
"""

from __future__ import annotations

from typing import Any

from server.store import keys
from tests.api.helpers import Api, Reply, assert_error
from tests.conftest import ADMIN_TOKEN

SHORT = {"deals": 1}


def leave(client, game_id: str, seat: int, who: Any = None) -> Reply:
    token = ADMIN_TOKEN if who == "admin" else who.token if who is not None else None
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.delete(f"/v1/games/{game_id}/seats/{seat}", headers=headers)
    return Reply(r.status_code, r.get_json(), r.get_data(as_text=True), dict(r.headers))


def my_games(api: Api, who) -> list[str]:
    return api.get("/v1/players/me", who).body["games"]


def stored(redis_client, game_id: str, player_ids: list[str]) -> dict[str, Any]:
    """Everything a leave could touch, as stored: the game, its seats, the players' lists."""
    return {
        "game": redis_client.hgetall(keys.game_state(game_id)),
        "seats": redis_client.hgetall(keys.game_seats(game_id)),
        "lists": {p: redis_client.smembers(keys.player_games(p)) for p in player_ids},
    }


def test_leave_frees_the_seat_for_another_player(api, client, players):
    ann, bob, cat = players.many(3)
    gid = api.create(ann, [ann.id, None, None, None], options=SHORT)["id"]
    assert api.post(f"/v1/games/{gid}/join", {"seat": 2}, bob).body["you"] == 2
    before = api.view(gid)
    assert gid in my_games(api, bob)

    reply = leave(client, gid, 2, bob)
    assert reply.status == 200, reply.body
    assert reply.body["you"] is None and reply.body["status"] == "waiting"
    assert reply.body["seats"][2]["player_id"] is None
    assert reply.body["version"] == before["version"]  # no move: the version stays
    assert gid not in my_games(api, bob)

    assert api.post(f"/v1/games/{gid}/join", {"seat": 2}, cat).body["you"] == 2
    assert api.view(gid)["seats"][2]["player_id"] == cat.id
    assert gid in my_games(api, cat)


def test_leave_is_refused_once_started_and_changes_nothing(api, client, players, redis_client):
    four = players.many(4)
    gid = api.create(four[0], [four[0].id, None, None, None], options=SHORT)["id"]
    for i in (1, 2, 3):
        assert api.post(f"/v1/games/{gid}/join", {"seat": i}, four[i]).status == 200
    ids = [p.id for p in four]
    before = stored(redis_client, gid, ids)
    assert before["game"][b"status"] == b"active" and len(before["seats"]) == 4

    details = assert_error(leave(client, gid, 1, four[1]), 409, "game_started")
    assert details == {"status": "active"}
    assert_error(leave(client, gid, 1, "admin"), 409, "game_started")
    assert stored(redis_client, gid, ids) == before
    assert api.view(gid, four[1])["you"] == 1


def test_another_players_seat_is_forbidden(api, client, players, redis_client):
    ann, bob, cat = players.many(3)
    gid = api.create(ann, [ann.id, None, None, None], options=SHORT)["id"]
    api.post(f"/v1/games/{gid}/join", {"seat": 1}, bob)
    before = stored(redis_client, gid, [ann.id, bob.id, cat.id])
    assert assert_error(leave(client, gid, 1, cat), 403, "forbidden") == {"seat": 1}
    assert_error(leave(client, gid, 0, bob), 403, "forbidden")
    assert stored(redis_client, gid, [ann.id, bob.id, cat.id]) == before


def test_the_admin_may_free_any_seat_of_a_waiting_game(api, client, players):
    ann, bob = players.many(2)
    gid = api.create(ann, [ann.id, None, None, None], options=SHORT)["id"]
    api.post(f"/v1/games/{gid}/join", {"seat": 3}, bob)
    reply = leave(client, gid, 3, "admin")
    assert reply.status == 200, reply.body
    assert reply.body["seats"][3]["player_id"] is None
    assert gid not in my_games(api, bob) and gid in my_games(api, ann)


def test_a_second_leave_and_other_mistakes_are_clear_errors(api, client, players):
    ann, bob = players.many(2)
    gid = api.create(ann, [ann.id, None, None, None], options=SHORT)["id"]
    api.post(f"/v1/games/{gid}/join", {"seat": 1}, bob)
    assert leave(client, gid, 1, bob).status == 200
    assert assert_error(leave(client, gid, 1, bob), 409, "seat_open") == {"seat": 1}
    assert_error(leave(client, gid, 4, bob), 400, "invalid_request")
    assert_error(leave(client, "nope", 1, bob), 404, "not_found")
    assert_error(leave(client, gid, 1), 401, "unauthorized")


def test_a_held_seat_is_declined_not_left(api, client, players):
    ann, bob = players.many(2)
    gid = api.create(ann, [ann.id, bob.id, None, None], options=SHORT)["id"]
    assert api.view(gid)["seats"][1]["player_id"] == bob.id  # held for bob's invitation
    assert_error(leave(client, gid, 1, bob), 409, "seat_held")
    assert_error(leave(client, gid, 1, ann), 403, "forbidden")


def test_a_player_with_several_seats_keeps_the_game_in_their_list(api, client, players):
    (ann,) = players.many(1)
    gid = api.create(ann, [ann.id, ann.id, None, None], options=SHORT, allow_multiple_seats=True)[
        "id"
    ]
    reply = leave(client, gid, 1, ann)
    assert reply.status == 200 and reply.body["you"] == 0
    assert gid in my_games(api, ann)
    assert leave(client, gid, 0, ann).status == 200
    assert gid not in my_games(api, ann)
