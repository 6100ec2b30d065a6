"""Consent: nobody is seated or entered without asking (docs/api.md#consent-and-invitations).

A player who names someone else in a game's seats or a tournament entry only
*invites* them: the seat or entry is held, the game or tournament cannot start,
and nothing shows in the victim's turns until they accept. Declining frees it.
The admin seats and enters players directly. Ratings move only for tournaments
started with every entry accepted. Refused requests change nothing.
"""

from __future__ import annotations

import threading
import time

import pytest

from client_sdk import Client
from client_sdk.bot import Bot
from client_sdk.runner import Runner
from server.services.bundle import Services
from server.store import keys
from tests.api.helpers import Api, assert_error
from tests.conftest import ADMIN_TOKEN as ADMIN

SHORT = {"deals": 1}


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


def _game(api: Api, game_id: str) -> dict:
    return api.view(game_id)


def _invitations(api: Api, who) -> list[dict]:
    reply = api.get("/v1/me/invitations", who)
    assert reply.status == 200, reply.body
    return reply.body["invitations"]


def _turn_games(api: Api, who) -> set[str]:
    reply = api.get("/v1/me/turns", who, wait=0)
    assert reply.status == 200, reply.body
    return {t["game_id"] for t in reply.body["turns"]}


def _tournament(api: Api, who) -> str:
    body = {
        "game": "concerto",
        "format": "round_robin",
        "options": SHORT,
        "clock": {"move_seconds": 1},
        "timeout_policy": {"kind": "forfeit", "after": 1},
    }
    reply = api.post("/v1/tournaments", body, who)
    assert reply.status == 201, reply.body
    return reply.body["id"]


def _enter(api: Api, tid: str, who, *ids: str) -> dict:
    reply = api.post(f"/v1/tournaments/{tid}/entries", {"players": list(ids)}, who)
    assert reply.status == 201, reply.body
    return reply.body


# -- tournaments ------------------------------------------------------------------------
def test_entering_a_victim_needs_their_acceptance(api, players, redis_client):
    mallory, victim, *others = players.many(4)
    tid = _tournament(api, mallory)
    entry = _enter(api, tid, mallory, victim.id)
    assert entry["pending"] == [victim.id]
    for p in (mallory, *others):
        assert _enter(api, tid, p, p.id)["pending"] == []
    before = api.get(f"/v1/tournaments/{tid}").body
    raw_before = redis_client.hgetall(keys.tournament(tid))

    details = assert_error(
        api.post(f"/v1/tournaments/{tid}/start", {}, mallory), 409, "invitations_pending"
    )
    assert details["entries"] == {entry["id"]: [victim.id]}
    assert api.get(f"/v1/tournaments/{tid}").body == before  # the refusal changed nothing
    assert redis_client.hgetall(keys.tournament(tid)) == raw_before
    assert before["status"] == "open" and before["consented"] is False

    (inv,) = _invitations(api, victim)
    assert inv["kind"] == "tournament" and inv["tournament_id"] == tid
    assert inv["from"]["id"] == mallory.id and inv["entry_id"] == entry["id"]
    assert api.post(f"/v1/invitations/{inv['id']}/accept", {}, victim).status == 200
    assert _invitations(api, victim) == []
    started = api.post(f"/v1/tournaments/{tid}/start", {}, mallory)
    assert started.status == 200, started.body
    assert started.body["status"] == "running" and started.body["consented"] is True


def test_declining_an_entry_withdraws_it(api, players):
    mallory, victim, partner = players.many(3)
    tid = _tournament(api, mallory)
    held = _enter(api, tid, mallory, victim.id)
    (inv,) = _invitations(api, victim)
    reply = api.post(f"/v1/invitations/{inv['id']}/decline", {}, victim)
    assert reply.status == 200 and reply.body["status"] == "declined"
    shown = api.get(f"/v1/tournaments/{tid}").body
    assert held["id"] not in [e["id"] for e in shown["entries"]]
    # the victim is free again: entering themself works now
    assert _enter(api, tid, victim, victim.id)["pending"] == []
    # a declined invitation cannot be accepted afterwards
    assert_error(api.post(f"/v1/invitations/{inv['id']}/accept", {}, victim), 404, "not_found")
    assert partner.id not in [p["id"] for e in shown["entries"] for p in e["players"]]


def test_the_admin_enters_players_directly(api, players):
    people = players.many(4)
    tid = _tournament(api, "admin")
    for p in people:
        assert _enter(api, tid, "admin", p.id)["pending"] == []
    assert all(_invitations(api, p) == [] for p in people)
    started = api.post(f"/v1/tournaments/{tid}/start", {}, "admin")
    assert started.status == 200 and started.body["consented"] is True


# -- games ------------------------------------------------------------------------------
def test_seating_a_victim_needs_acceptance_and_stays_out_of_their_turns(api, players):
    mallory, victim = players.many(2)
    body = {"game": "concerto", "seats": [victim.id] * 4, "allow_multiple_seats": True}
    created = api.post("/v1/games", body, mallory)
    assert created.status == 201, created.body
    gid = created.body["id"]
    assert created.body["status"] == "waiting"
    assert _turn_games(api, victim) == set()
    # the held seats are not the victim's yet: no hand, no move
    view = api.view(gid, victim)
    assert view["you"] is None and "hand" not in view
    before = api.view(gid)
    assert_error(api.move(gid, victim, {"type": "pass"}), 403, "forbidden")
    assert api.view(gid) == before

    (inv,) = _invitations(api, victim)
    assert inv["kind"] == "game" and inv["game_id"] == gid and inv["seats"] == [0, 1, 2, 3]
    accepted = api.post(f"/v1/invitations/{inv['id']}/accept", {}, victim)
    assert accepted.status == 200, accepted.body
    assert api.view(gid)["status"] == "active"
    assert _turn_games(api, victim) == {gid}


def test_a_game_with_a_held_seat_does_not_start(api, players):
    alice, bob, carol, dave = players.many(4)
    created = api.post(
        "/v1/games", {"game": "concerto", "seats": [alice.id, bob.id, None, None]}, alice
    )
    gid = created.body["id"]
    for p in (carol, dave):
        assert api.post(f"/v1/games/{gid}/join", {}, p).status == 200
    before = api.view(gid)
    assert before["status"] == "waiting"  # every seat taken, one still held for bob
    # the check comes before the engine: any move is refused the same way
    details = assert_error(api.move(gid, alice, {"type": "pass"}), 409, "invitations_pending")
    assert details["players"] == [bob.id]
    assert api.view(gid) == before


def test_declining_a_seat_frees_it(api, players):
    alice, bob, carol = players.many(3)
    created = api.post(
        "/v1/games", {"game": "concerto", "seats": [alice.id, bob.id, None, None]}, alice
    )
    gid = created.body["id"]
    (inv,) = _invitations(api, bob)
    assert_error(api.post(f"/v1/games/{gid}/join", {"seat": 1}, carol), 409, "seat_taken")
    assert api.post(f"/v1/invitations/{inv['id']}/decline", {}, bob).status == 200
    assert _invitations(api, bob) == []
    joined = api.post(f"/v1/games/{gid}/join", {"seat": 1}, carol)
    assert joined.status == 200 and joined.body["you"] == 1
    assert api.view(gid)["seats"][1]["player_id"] == carol.id


def test_an_expired_invitation_frees_its_seat(app_config, redis_client, players):
    from server.api import create_app

    # long enough for the invitation to be listed first on a loaded machine (0.2 s was
    # not, once, in a full run), short enough to wait out
    app = create_app({**app_config, "INVITATION_TTL": 1.0})
    api = Api(client=app.test_client())
    alice, bob = players.many(2)
    gid = api.post(
        "/v1/games", {"game": "concerto", "seats": [alice.id, bob.id, None, None]}, alice
    ).body["id"]
    (inv,) = _invitations(api, bob)
    time.sleep(1.1)
    assert_error(
        api.post(f"/v1/invitations/{inv['id']}/accept", {}, bob), 409, "invitation_expired"
    )
    assert api.view(gid)["seats"][1]["player_id"] is None


def test_the_admin_seats_players_directly(api, players):
    people = players.many(4)
    created = api.post("/v1/games", {"game": "concerto", "seats": [p.id for p in people]}, "admin")
    assert created.status == 201 and created.body["status"] == "active"
    gid = created.body["id"]
    assert any(gid in _turn_games(api, p) for p in people)
    assert all(_invitations(api, p) == [] for p in people)


def test_an_app_seating_a_registered_player_needs_their_acceptance(api, players):
    victim = players.register("victim")
    made = api.post("/v1/apps", {"name": "site"}, "admin").body
    reply = api.post(
        f"/v1/apps/{made['id']}/games",
        {"game": "concerto", "seats": [victim.id, None, None, None]},
        made["token"],
    )
    assert reply.status == 201, reply.body
    gid = reply.body["game"]["id"]
    assert len(reply.body["invitations"]) == 3  # the app's own guests need none
    assert api.view(gid)["status"] == "waiting"
    (inv,) = _invitations(api, victim)
    assert inv["from"]["id"] == made["id"]
    assert api.post(f"/v1/invitations/{inv['id']}/accept", {}, victim).status == 200
    assert api.view(gid)["status"] == "active"


# -- ratings ------------------------------------------------------------------------------
def test_ratings_change_only_for_consented_tournaments(redis_client, redis_server):
    service = Services(redis_client, admin_token=ADMIN)
    a, b, c, d = (service.players.register(None, n) for n in "abcd")
    tours = service.tournaments
    tid = tours.create(ADMIN, game="concerto", format="round_robin", options=SHORT)["id"]
    teams = ((a["id"],), (b["id"],))
    # not started (so never recorded as consented): the event is skipped
    assert service.ratings.rate("concerto", f"{tid}:r0t0", teams, (0, 1)) is False
    assert service.ratings.leaderboard("concerto")["leaderboard"] == []
    # a tournament whose entries were all accepted (here: entered by the admin) is rated
    tid2 = tours.create(ADMIN, game="concerto", format="round_robin", options=SHORT)["id"]
    for p in (a, b, c, d):
        tours.enter(ADMIN, tid2, [p["id"]])
    tours.start(ADMIN, tid2)
    assert service.ratings.rate("concerto", f"{tid2}:r0t0", teams, (0, 1)) is True
    board = service.ratings.leaderboard("concerto")["leaderboard"]
    assert [row["player_id"] for row in board] == [a["id"], b["id"]]


# -- the SDK runner's policy ---------------------------------------------------------------
class _Idle(Bot):
    def choose_move(self, view):
        return view["legal_moves"][0]


@pytest.mark.parametrize(
    ("policy", "accepted_from"),
    [("anyone", {"alice", "mallory"}), ("none", set()), ("from:alice", {"alice"})],
)
def test_runner_accepts_invitations_by_policy(live_server, live_players, policy, accepted_from):
    alice, mallory, bot = (live_players.register(n) for n in ("alice", "mallory", "bot"))
    games = {}
    with Client(live_server.url, alice.token) as c:
        games["alice"] = c.games.create("concerto", seats=[alice.id, bot.id, None, None])
    with Client(live_server.url, mallory.token) as c:
        games["mallory"] = c.games.create("concerto", seats=[mallory.id, bot.id, None, None])
    client = Client(live_server.url, bot.token)
    runner = Runner(_Idle(), client, wait=0.1, handle_signals=False, accept_invitations=policy)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while (
            runner.stats.invitations_accepted < len(accepted_from) and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        time.sleep(0.3)  # a few more passes: nothing else may be accepted
    finally:
        runner.stop()
        thread.join(10)
        client.close()
    assert runner.stats.invitations_accepted == len(accepted_from)
    with Client(live_server.url) as anon:
        for who, game in games.items():
            seat = anon.games.view(game["id"])["seats"][1]
            held_by_bot = who in accepted_from
            assert (seat["player_id"] == bot.id) is True  # held or taken, still the bot's
            left = {inv["game_id"] for inv in Client(live_server.url, bot.token).invitations.mine()}
            assert (game["id"] not in left) is held_by_bot


def test_only_the_invited_player_answers_an_invitation(api, players, redis_client):
    mallory, victim = players.many(2)
    gid = api.create(mallory, [mallory.id, victim.id, None, None])["id"]
    (inv,) = _invitations(api, victim)
    before = api.view(gid)
    raw_before = redis_client.hgetall(keys.game_seats(gid))
    for path in ("accept", "decline"):
        assert_error(api.post(f"/v1/invitations/{inv['id']}/{path}", {}, mallory), 404, "not_found")
    assert_error(api.get("/v1/me/invitations", "admin"), 403, "forbidden")
    assert api.view(gid) == before
    assert redis_client.hgetall(keys.game_seats(gid)) == raw_before
    assert [i["id"] for i in _invitations(api, victim)] == [inv["id"]]


def test_the_cli_takes_the_accept_policy():
    import argparse

    from client_sdk.cli import add_bot_commands
    from client_sdk.runner import AcceptPolicy

    parser = argparse.ArgumentParser()
    add_bot_commands(parser.add_subparsers())
    args = parser.parse_args(["bot", "run", "random", "--accept-invitations", "from:alice,bob"])
    assert args.accept_invitations == AcceptPolicy("from", frozenset({"alice", "bob"}))
    assert parser.parse_args(["bot", "run", "random"]).accept_invitations == AcceptPolicy("none")
    with pytest.raises(SystemExit):
        parser.parse_args(["bot", "run", "random", "--accept-invitations", "everyone"])
