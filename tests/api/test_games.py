"""Games over the API: create, join, views, moves and versions, long-polls, replays."""

from __future__ import annotations

import hashlib
import random
import threading
import time

import pytest

from server.games import REGISTRY
from tests.api.helpers import assert_error
from tests.api.play import play_random_moves

ONE_DEAL = {"deals": 1}


def test_rules_list_concerto_with_defaults(api):
    body = api.get("/v1/rules").body
    (concerto,) = [g for g in body["games"] if g["id"] == "concerto"]
    assert concerto["seats"] == [4]
    assert set(concerto["variants"]) == {"parlett-2013", "penguin"}
    # docs/rules/concerto.md: the defaults.
    assert concerto["options"]["rules"]["default"] == "parlett-2013"
    assert concerto["options"]["deals"]["default"] == 4
    assert concerto["options"]["target"]["default"] == 100
    assert concerto["options"]["match_target"]["default"] is None
    # every game's variants are the choices of the option that names them (its record's)
    variants = {g["id"]: g["variants"] for g in body["games"]}
    assert variants["pinochle"] == ["partnership", "firehouse", "check", "double-deck"]
    assert variants["seconds"] == variants["cowpoke"] == []


def test_register_and_profile(api, players):
    alice = players.register("alice")
    assert "." in alice.token and alice.id in alice.token
    me = api.get("/v1/players/me", alice).body
    assert me == {"id": alice.id, "name": "alice", "ratings": {}, "games": []}


def test_token_is_stored_hashed(api, players, redis_client):
    alice = players.register("alice")
    secret = alice.token.split(".", 1)[1]
    dump = b"".join(redis_client.dump(k) or b"" for k in redis_client.scan_iter("*"))
    assert secret.encode() not in dump
    assert hashlib.sha256(secret.encode()).hexdigest().encode() in dump


def test_create_with_all_seats_starts_at_once(api, players):
    four = players.many(4)
    created = api.create("admin", [p.id for p in four])  # the admin seats without asking
    view = api.view(created["id"], four[0])
    assert view["status"] == "active" and view["version"] == 0 and view["you"] == 0
    assert [s["player_id"] for s in view["seats"]] == [p.id for p in four]
    assert [s["name"] for s in view["seats"]] == ["p0", "p1", "p2", "p3"]
    assert len(view["hand"]) == 13 and view["deadline"] is None
    assert len(view["deal_commitment"]) == 64
    assert view["options"]["rules"] == "parlett-2013" and view["result"] is None
    for key in (
        "deal_number",
        "dealer",
        "hand_number",
        "leader",
        "current_hand",
        "completed_hands",
        "cards_left",
        "deal_results",
    ):
        assert key in view["state"]
    to_move = view["to_move"][0]
    mover = api.view(view["id"], four[to_move])
    assert mover["legal_moves"] and mover["you"] == to_move
    for p in four:
        assert view["id"] in api.get("/v1/players/me", p).body["games"]


def test_open_seats_join_then_start(api, players):
    five = players.many(5)
    view = api.create(five[0], [five[0].id, None, None, None])
    gid = view["id"]
    assert view["status"] == "waiting" and view["to_move"] == [] and view["legal_moves"] == []
    assert api.post(f"/v1/games/{gid}/join", {}, five[1]).body["you"] == 1
    assert_error(api.post(f"/v1/games/{gid}/join", {"seat": 1}, five[2]), 409, "seat_taken")
    assert_error(api.post(f"/v1/games/{gid}/join", {}, five[1]), 409, "already_seated")
    assert api.post(f"/v1/games/{gid}/join", {"seat": 3}, five[2]).body["you"] == 3
    assert api.view(gid)["status"] == "waiting"
    last = api.post(f"/v1/games/{gid}/join", None, five[3]).body
    assert last["you"] == 2 and last["status"] == "active"
    assert_error(api.post(f"/v1/games/{gid}/join", {}, five[4]), 409, "no_open_seat")
    assert gid not in api.get("/v1/players/me", five[4]).body["games"]


def test_moves_wait_for_every_seat(api, players):
    two = players.many(2)
    view = api.create("admin", [two[0].id, two[1].id, None, None])
    for p in two:
        reply = api.move(view["id"], p, {"type": "pass"})
        assert_error(reply, 409, "game_not_started")
    assert api.view(view["id"])["version"] == 0


def test_one_seat_per_player_unless_allowed(api, players):
    alice = players.register("alice")
    details = assert_error(
        api.post("/v1/games", {"game": "concerto", "seats": [alice.id] * 4}, alice),
        400,
        "invalid_request",
    )
    assert "seats" in details
    view = api.create(alice, [alice.id] * 4, allow_multiple_seats=True, options=ONE_DEAL)
    assert view["status"] == "active"
    to_move = view["to_move"][0]
    assert view["you"] == to_move and view["legal_moves"]
    assert (
        api.get(f"/v1/games/{view['id']}", alice, seat=(to_move + 1) % 4).body["you"]
        == (to_move + 1) % 4
    )
    final = play_random_moves(api, view["id"], [alice], random.Random(3))
    assert final["status"] == "finished"


def test_spectator_sees_no_hand(api, players):
    four = players.many(4)
    view = api.create("admin", [p.id for p in four])
    spectator = api.view(view["id"])
    assert spectator["you"] is None and "hand" not in spectator
    assert spectator["legal_moves"] == []
    outsider = players.register("outsider")
    assert "hand" not in api.view(view["id"], outsider)


def test_stale_version_changes_nothing_and_retry_is_safe(api, players):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four])["id"]
    seat = api.view(gid)["to_move"][0]
    mine = api.view(gid, four[seat])
    first, second = mine["legal_moves"][:2]
    done = api.move(gid, four[seat], first, 0)
    assert done.status == 200 and done.body["version"] == 1
    events_before = api.get(f"/v1/games/{gid}/events", four[seat]).body
    # The same move and version again: the current view, not an error, not a second move.
    again = api.move(gid, four[seat], first, 0)
    assert again.status == 200 and again.body == api.view(gid, four[seat])
    # A different move at the old version: 409 and nothing changes.
    snapshot = api.view(gid, four[seat])
    details = assert_error(api.move(gid, four[seat], second, 0), 409, "stale_version")
    assert details == {"version": 1}
    assert api.view(gid, four[seat]) == snapshot
    assert api.get(f"/v1/games/{gid}/events", four[seat]).body == events_before


def test_events_filtered_per_seat(api, players):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four])["id"]
    for seat, p in enumerate(four):
        body = api.get(f"/v1/games/{gid}/events", p).body
        hands = [e for e in body["events"] if e["kind"] == "hand"]
        assert [h["data"]["seat"] for h in hands] == [seat]
        assert hands[0]["data"]["cards"] == api.view(gid, p)["hand"]
        assert body["last"] == 5  # deal header + four hands, numbered 1..5
    public = api.get(f"/v1/games/{gid}/events").body
    assert [e["kind"] for e in public["events"]] == ["deal"]
    assert api.get(f"/v1/games/{gid}/events", four[0], after=5).body == {"events": [], "last": 5}


def test_events_long_poll_returns_when_a_move_lands(live_api, live_players):
    four = live_players.many(4)
    gid = live_api.create("admin", [p.id for p in four])["id"]
    seat = live_api.view(gid)["to_move"][0]
    move = live_api.view(gid, four[seat])["legal_moves"][0]
    timer = threading.Timer(0.4, lambda: live_api.move(gid, four[seat], move, 0))
    start = time.monotonic()
    timer.start()
    body = live_api.get(f"/v1/games/{gid}/events", four[(seat + 1) % 4], after=5, wait=4).body
    took = time.monotonic() - start
    timer.join()
    assert 0.3 < took < 3.0
    assert [e["kind"] for e in body["events"]] == ["play"]
    assert body["events"][0]["data"]["card"] == move["card"] and body["last"] == 6


def test_events_long_poll_times_out_empty(api, players):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four])["id"]
    start = time.monotonic()
    body = api.get(f"/v1/games/{gid}/events", four[0], after=5, wait=0.3).body
    assert time.monotonic() - start >= 0.29
    assert body == {"events": [], "last": 5}


def test_turns_long_poll_wakes_the_next_player(live_api, live_players):
    four = live_players.many(4)
    gid = live_api.create("admin", [p.id for p in four])["id"]
    seat = live_api.view(gid)["to_move"][0]
    first = live_api.get("/v1/me/turns", four[seat]).body["turns"]
    assert [(t["game_id"], t["seat"], t["version"]) for t in first] == [(gid, seat, 0)]
    assert first[0]["view"]["legal_moves"]
    # The leader must play the first card; then the partner is on turn (docs/rules/concerto.md).
    partner = (seat + 2) % 4
    assert live_api.get("/v1/me/turns", four[partner]).body == {"turns": []}
    move = first[0]["view"]["legal_moves"][0]
    timer = threading.Timer(0.4, lambda: live_api.move(gid, four[seat], move, 0))
    start = time.monotonic()
    timer.start()
    turns = live_api.get("/v1/me/turns", four[partner], wait=4).body["turns"]
    took = time.monotonic() - start
    timer.join()
    assert 0.3 < took < 3.0
    assert [(t["game_id"], t["seat"], t["version"]) for t in turns] == [(gid, partner, 1)]


def test_turns_come_from_the_state_not_the_wake_up(api, players, redis_client):
    four = players.many(4)
    gid = api.create("admin", [p.id for p in four])["id"]
    seat = api.view(gid)["to_move"][0]
    for key in redis_client.scan_iter("p:*:wake"):
        redis_client.delete(key)  # every notification lost
    turns = api.get("/v1/me/turns", four[seat], wait=0.2).body["turns"]
    assert [t["game_id"] for t in turns] == [gid]


def test_replay_is_public_while_playing_and_complete_after(api, players):
    four = players.many(4)
    created = api.create("admin", [p.id for p in four], options=ONE_DEAL)
    gid, commitment = created["id"], created["deal_commitment"]
    play_random_moves(api, gid, four, random.Random(5), limit=7)
    during = api.get(f"/v1/games/{gid}/replay", four[0]).body
    assert during["revealed"] is None and during["status"] == "active"
    assert "hand" not in {e["kind"] for e in during["events"]}
    assert [e["kind"] for e in during["events"]].count("play") >= 3
    final = play_random_moves(api, gid, four, random.Random(5))
    after = api.get(f"/v1/games/{gid}/replay").body
    assert after["status"] == "finished" and after["result"] == final["result"]
    hands = {e["data"]["seat"]: e["data"]["cards"] for e in after["events"] if e["kind"] == "hand"}
    assert sorted(hands) == [0, 1, 2, 3]
    assert len({c for h in hands.values() for c in h}) == 52
    seed = after["revealed"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment == after["deal_commitment"]
    # The seed regenerates exactly the hands that were dealt.
    redealt = REGISTRY["concerto"].new_state(ONE_DEAL, seed)
    assert [redealt.view(s)["hand"] for s in range(4)] == [hands[s] for s in range(4)]
    for p in four:
        assert gid not in api.get("/v1/players/me", p).body["games"]


def test_seeds_differ_per_game_and_stay_secret(api, players):
    four = players.many(4)
    a = api.create("admin", [p.id for p in four])
    b = api.create("admin", [p.id for p in four])
    assert a["deal_commitment"] != b["deal_commitment"]
    assert a["state"]["completed_hands"] == [] and "seed" not in a["state"]


def test_admin_presets_deals_and_seed(api, players):
    four = players.many(4)
    pack = [r + s for s in "SHDC" for r in "AKQJT98765432"]
    hands = [pack[i::4] for i in range(4)]
    view = api.create(
        "admin", [p.id for p in four], seed="chosen", deals=[{"dealer": 3, "hands": hands}]
    )
    assert view["you"] is None and view["state"]["dealer"] == 3
    assert view["deal_commitment"] == hashlib.sha256(b"chosen").hexdigest()
    for seat, p in enumerate(four):
        assert sorted(api.view(view["id"], p)["hand"]) == sorted(hands[seat])


@pytest.mark.parametrize("extra", [{"seed": "x"}, {"deals": [{"dealer": 0, "hands": []}]}])
def test_presets_are_admin_only(api, players, extra):
    four = players.many(4)
    reply = api.post(
        "/v1/games", {"game": "concerto", "seats": [p.id for p in four], **extra}, four[0]
    )
    assert assert_error(reply, 403, "forbidden") == {"fields": list(extra)}
