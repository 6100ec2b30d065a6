"""Invitation spam: limits, pages, blocks and a fair lobby.

One player created 300 games naming a victim in 2 s: 300 open invitations in one
unpaginated list, each pushed on the victim's stream, and the spammer's games
filled the lobby. Now an inviter holds at most ``INVITATIONS_PER_INVITER`` open
invitations and a player at most ``INVITATIONS_PER_INVITEE``; a refusal is 409
and creates nothing (the whole database is compared before and after); the list
is paged; a player may block an inviter; the lobby shows at most
``LOBBY_PER_CREATOR`` live games of one player.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import Api, assert_error
from tests.conftest import Player

PER_INVITER = 4
PER_INVITEE = 3


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {
        "INVITATIONS_PER_INVITER": PER_INVITER,
        "INVITATIONS_PER_INVITEE": PER_INVITEE,
        "LOBBY_PER_CREATOR": 3,
    }


def everything(r) -> dict[bytes, bytes]:
    """Every key's serialised value, but the request counters (metrics, rate windows)."""
    return {
        key: r.dump(key)
        for key in sorted(r.scan_iter(count=1000))
        if not key.startswith((b"metrics:", b"rl:"))
    }


def invite(api: Api, who: Player, guest: Player):
    """A Concerto game seating ``who`` and holding a seat for ``guest``."""
    return api.post("/v1/games", {"game": "concerto", "seats": [who.id, guest.id, None, None]}, who)


def invitations(api: Api, who: Player, **query: Any) -> dict[str, Any]:
    reply = api.get("/v1/me/invitations", who, **query)
    assert reply.status == 200, reply.body
    return reply.body


def test_an_inviter_past_its_limit_is_refused_and_nothing_is_created(api, players, redis_client):
    spammer = players.register("spammer")
    victims = players.many(PER_INVITER + 1, "victim")
    for v in victims[:PER_INVITER]:
        assert invite(api, spammer, v).status == 201
    before = everything(redis_client)
    details = assert_error(invite(api, spammer, victims[-1]), 409, "too_many_invitations")
    assert details == {"open": PER_INVITER, "limit": PER_INVITER}
    assert everything(redis_client) == before  # no game, no hold, no invitation, no wake-up
    assert invitations(api, victims[-1])["invitations"] == []
    # an answer frees a place
    first = invitations(api, victims[0])["invitations"][0]["id"]
    assert api.post(f"/v1/invitations/{first}/decline", {}, victims[0]).status == 200
    assert invite(api, spammer, victims[-1]).status == 201


def test_an_invitee_past_its_limit_is_refused_and_nothing_is_created(api, players, redis_client):
    victim = players.register("victim")
    spammers = players.many(PER_INVITEE + 1, "spammer")
    for s in spammers[:PER_INVITEE]:
        assert invite(api, s, victim).status == 201
    before = everything(redis_client)
    details = assert_error(invite(api, spammers[-1], victim), 409, "invitation_refused")
    assert details == {"players": [victim.id]}
    assert everything(redis_client) == before
    assert len(invitations(api, victim)["invitations"]) == PER_INVITEE


def test_a_tournament_entry_past_the_limit_is_refused_and_not_entered(api, players, redis_client):
    organiser = players.register("organiser")
    guests = players.many(PER_INVITER + 2, "guest")
    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    tid = api.post("/v1/tournaments", body, organiser).body["id"]
    entries = f"/v1/tournaments/{tid}/entries"
    for a, b in zip(guests[0:4:2], guests[1:4:2], strict=True):
        assert api.post(entries, {"players": [a.id, b.id]}, organiser).status == 201
    before = everything(redis_client)
    shown = api.get(f"/v1/tournaments/{tid}").body
    pair = [guests[4].id, guests[5].id]
    assert_error(api.post(entries, {"players": pair}, organiser), 409, "too_many_invitations")
    assert everything(redis_client) == before
    assert api.get(f"/v1/tournaments/{tid}").body == shown
    assert invitations(api, guests[4])["invitations"] == []


def test_the_invitation_list_is_paged_oldest_first(api, players):
    victim = players.register("victim")
    inviters = players.many(PER_INVITEE, "inviter")
    games = [invite(api, p, victim).body["id"] for p in inviters]
    seen: list[str] = []
    page = invitations(api, victim, limit=2)
    assert len(page["invitations"]) == 2 and page["next_cursor"]
    seen += [i["game_id"] for i in page["invitations"]]
    page = invitations(api, victim, limit=2, cursor=page["next_cursor"])
    assert len(page["invitations"]) == 1 and page["next_cursor"] is None
    seen += [i["game_id"] for i in page["invitations"]]
    assert seen == games  # every one once, oldest first
    assert invitations(api, victim)["next_cursor"] is None
    assert_error(api.get("/v1/me/invitations", victim, cursor="nonsense"), 400, "invalid_request")
    assert_error(api.get("/v1/me/invitations", victim, limit=0), 400, "invalid_request")


def test_a_blocked_inviter_gets_the_full_inbox_answer_and_reaches_nothing(
    api, client, players, redis_client
):
    victim = players.register("victim")
    spammer = players.register("spammer")
    friend = players.register("friend")
    gid = invite(api, spammer, victim).body["id"]
    assert len(invitations(api, victim)["invitations"]) == 1
    reply = client.put(f"/v1/me/blocks/{spammer.id}", headers=victim.headers)
    assert reply.status_code == 200
    assert reply.get_json()["player_id"] == spammer.id
    # the open invitation was declined: the held seat is free again
    assert invitations(api, victim)["invitations"] == []
    assert api.view(gid)["seats"][1]["player_id"] is None
    before = everything(redis_client)
    wake = redis_client.xlen(f"p:{{{victim.id}}}:wake")
    refused = invite(api, spammer, victim)
    assert_error(refused, 409, "invitation_refused")
    # told no more than a full inbox tells
    assert refused.body["error"]["details"] == {"players": [victim.id]}
    assert refused.body["error"]["message"] == "this player cannot take your invitation now"
    assert everything(redis_client) == before
    assert redis_client.xlen(f"p:{{{victim.id}}}:wake") == wake  # nothing pushed
    # others still reach the victim; the block is listed; lifting it lets the spammer in
    assert invite(api, friend, victim).status == 201
    listed = api.get("/v1/me/blocks", victim).body
    assert [b["player_id"] for b in listed["blocks"]] == [spammer.id]
    assert listed["next_cursor"] is None
    assert client.delete(f"/v1/me/blocks/{spammer.id}", headers=victim.headers).status_code == 204
    assert api.get("/v1/me/blocks", victim).body["blocks"] == []
    assert invite(api, spammer, victim).status == 201


def test_blocking_refuses_a_tournament_entry_too(api, client, players, redis_client):
    victim, organiser = players.register("victim"), players.register("organiser")
    client.put(f"/v1/me/blocks/{organiser.id}", headers=victim.headers)
    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    tid = api.post("/v1/tournaments", body, organiser).body["id"]
    before = everything(redis_client)
    reply = api.post(
        f"/v1/tournaments/{tid}/entries", {"players": [organiser.id, victim.id]}, organiser
    )
    assert_error(reply, 409, "invitation_refused")
    assert everything(redis_client) == before


def test_blocking_oneself_or_nobody_is_refused(client, players):
    me = players.register("me")
    own = client.put(f"/v1/me/blocks/{me.id}", headers=me.headers)
    assert own.status_code == 400 and own.get_json()["error"]["code"] == "invalid_request"
    nobody = client.put("/v1/me/blocks/0123456789abcdef", headers=me.headers)
    assert nobody.status_code == 404 and nobody.get_json()["error"]["code"] == "not_found"
    assert nobody.get_json()["error"]["details"] == {"player_id": "0123456789abcdef"}


def test_the_lobby_shows_a_few_games_of_each_creator(api, players):
    quiet, spammer = players.register("quiet"), players.register("spammer")
    mine = api.create(quiet, [quiet.id, None, None, None])["id"]
    burst = [api.create(spammer, [spammer.id, None, None, None])["id"] for _ in range(12)]
    live = api.get("/v1/games", limit=100).body["games"]
    ids = [g["id"] for g in live]
    assert mine in ids  # not pushed off by the burst
    assert ids.count(mine) == 1
    assert [i for i in ids if i in burst] == burst[::-1][:3]  # the newest three, newest first
    everything_of_spammer = api.get("/v1/games", limit=100, created_by=spammer.id).body["games"]
    assert [g["id"] for g in everything_of_spammer] == burst[::-1]
    assert [g["id"] for g in api.get("/v1/games", created_by=quiet.id).body["games"]] == [mine]


def test_the_tournament_list_shows_a_few_of_each_creator(api, players):
    quiet, spammer = players.register("quiet"), players.register("spammer")
    body = {"game": "concerto", "format": "round_robin", "options": {"deals": 1}}
    mine = api.post("/v1/tournaments", body, quiet).body["id"]
    burst = [api.post("/v1/tournaments", body, spammer).body["id"] for _ in range(8)]
    ids = [t["id"] for t in api.get("/v1/tournaments", limit=5).body["tournaments"]]
    assert ids == [*burst[::-1][:3], mine]  # three of the burst, and the quiet one
