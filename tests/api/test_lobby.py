"""The lobby's lists and the replay's frames: public parts only, and frames exactly as played."""

from __future__ import annotations

import random

from server.store import keys
from tests.api.helpers import assert_error, cards_in
from tests.api.play import seat_holders

ONE_DEAL = {"deals": 1}


def test_live_and_finished_lists_follow_the_games(api, players):
    four = players.many(4)
    ids = [p.id for p in four]
    first = api.create("admin", ids, options=ONE_DEAL)["id"]
    second = api.create("admin", ids, options=ONE_DEAL)["id"]
    waiting = api.create(four[0], [ids[0], None, None, None], options=ONE_DEAL)["id"]
    live = api.get("/v1/games").body
    assert live["status"] == "live"
    assert [g["id"] for g in live["games"]] == [waiting, second, first]  # newest first
    by_id = {g["id"]: g for g in live["games"]}
    assert by_id[waiting]["status"] == "waiting" and by_id[waiting]["to_move"] == []
    assert [s["name"] for s in by_id[first]["seats"]] == ["p0", "p1", "p2", "p3"]
    assert by_id[first]["created"] and by_id[first]["ended"] is None
    assert [g["id"] for g in api.get("/v1/games", limit=1).body["games"]] == [waiting]
    assert api.get("/v1/games", status="finished").body["games"] == []

    play_all(api, first, four)
    assert [g["id"] for g in api.get("/v1/games").body["games"]] == [waiting, second]
    (ended,) = api.get("/v1/games", status="finished").body["games"]
    assert ended["id"] == first and ended["status"] == "finished"
    assert ended["result"]["scores"] == ended["scores"] and ended["ended"]
    assert_error(api.get("/v1/games", status="over"), 400, "invalid_request")
    assert_error(api.get("/v1/games", limit=101), 400, "invalid_request")


def test_a_finished_game_left_in_the_live_index_is_moved_by_the_next_reader(
    api, players, redis_client
):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four], options=ONE_DEAL)["id"]
    play_all(api, gid, four)
    redis_client.zadd(keys.lobby_live_games(), {gid: 1.0})  # as if a crash came after the commit
    redis_client.zadd(keys.lobby_live_games(), {"gone": 2.0})  # and an id with no game behind it
    assert api.get("/v1/games").body["games"] == []
    assert redis_client.zcard(keys.lobby_live_games()) == 0
    assert [g["id"] for g in api.get("/v1/games", status="finished").body["games"]] == [gid]


def test_lists_show_no_card_at_all(api, players):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four], options=ONE_DEAL)["id"]
    play_all(api, gid, four, limit=20)
    reply = api.get("/v1/games")
    assert reply.body["games"][0]["version"] == 20
    assert cards_in(reply.text) == set()


def test_frames_are_the_views_each_seat_and_a_spectator_saw(api, players):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four], options=ONE_DEAL)["id"]
    holders = seat_holders(api.view(gid), four)
    seen = {}  # version -> (spectator's view, every seat's view), read while playing
    rng = random.Random(8)
    view = api.view(gid)
    while True:
        seen[view["version"]] = (view, [api.view(gid, holders[s]) for s in range(4)])
        if view["status"] == "finished":
            break
        assert_error(api.get(f"/v1/games/{gid}/replay/0"), 409, "game_not_finished")
        seat = view["to_move"][0]
        mine = seen[view["version"]][1][seat]
        api.move(gid, holders[seat], rng.choice(mine["legal_moves"]), mine["version"])
        view = api.view(gid)
    last = view["version"]
    for version in sorted({0, 1, 2, last // 2, last - 1, last}):
        frame = api.get(f"/v1/games/{gid}/replay/{version}").body
        public, by_seat = seen[version]
        assert frame["version"] == version and frame["last_version"] == last
        assert frame["public"] == public
        assert frame["views"] == by_seat
        moves = api.get(f"/v1/games/{gid}/replay").body["events"]
        if version:
            assert frame["move"]["seat"] in seen[version - 1][0]["to_move"]
            assert any(e["version"] == version for e in moves)
        else:
            assert frame["move"] is None
    assert_error(api.get(f"/v1/games/{gid}/replay/{last + 1}"), 404, "not_found")
    assert_error(api.get(f"/v1/games/{gid}/replay/-1"), 404, "not_found")
    assert_error(api.get("/v1/games/nope/replay/0"), 404, "not_found")


def test_tournaments_are_listed_newest_first(api, players):
    four = players.many(4)
    body = {"game": "concerto", "format": "round_robin", "options": ONE_DEAL}
    first = api.post("/v1/tournaments", {**body, "name": "first"}, four[0]).body["id"]
    second = api.post("/v1/tournaments", {**body, "name": "second"}, four[1]).body["id"]
    api.post(f"/v1/tournaments/{first}/entries", {"players": [four[0].id, four[2].id]}, four[0])
    listed = api.get("/v1/tournaments").body["tournaments"]
    assert [t["id"] for t in listed] == [second, first]
    assert listed[1] == {
        "id": first,
        "name": "first",
        "game": "concerto",
        "format": "round_robin",
        "status": "open",
        "created": listed[1]["created"],
        "entries": 1,
        "rounds": 0,
        "leaders": [],
    }
    assert [t["id"] for t in api.get("/v1/tournaments", limit=1).body["tournaments"]] == [second]


def play_all(api, gid, four, limit=None):
    from tests.api.play import play_random_moves

    return play_random_moves(api, gid, four, random.Random(1), limit)
