"""Caps that fresh accounts do not multiply.

Registration was open and unlimited, and two caps counted per account only: 25
fresh players held 200 streams from one address (the address cap counted callers
without a token alone), and three fresh accounts filled a player's 50 invitation
slots, so its friends got 409 for up to a day. Now a player's streams count
against its address's cap too, one inviter may hold only ``INVITATIONS_PER_PAIR``
of a player's invitations, and an address registers at most
``PARLOUR_REGISTER_LIMIT`` players an hour by default. An IPv6 client counts per
/64 in each (a client picks any address inside its prefix at will).
"""

from __future__ import annotations

from typing import Any

import pytest

from server.api import create_app
from tests.api.helpers import Api, assert_error
from tests.conftest import Player
from tests.security.test_invitation_spam import invitations, invite

PER_PLAYER = 3
PER_ADDRESS = 5
PER_INVITEE = 7
PER_PAIR = 2


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {
        "STREAMS_PER_PLAYER": PER_PLAYER,
        "STREAMS_PER_ADDRESS": PER_ADDRESS,
        "INVITATIONS_PER_INVITEE": PER_INVITEE,
        "INVITATIONS_PER_PAIR": PER_PAIR,
    }


def everything(r) -> dict[bytes, Any]:
    """Every key's contents, but the request counters (metrics, rate windows); read
    by type, not dumped: a large hash's dump changes order as reads rehash it."""
    read = {
        b"hash": r.hgetall,
        b"zset": lambda k: r.zrange(k, 0, -1, withscores=True),
        b"set": r.smembers,
        b"list": lambda k: r.lrange(k, 0, -1),
        b"stream": r.xrange,
        b"string": r.get,
    }
    return {
        key: read[r.type(key)](key)
        for key in sorted(r.scan_iter(count=1000))
        if not key.startswith((b"metrics:", b"rl:"))
    }


def stream(client, who: Player, address: str):
    """A turn stream of ``who`` from ``address``, its headers read and its body left open
    (the slot is held until the response is closed)."""
    return client.get(
        "/v1/me/turns/stream",
        headers=who.headers,
        environ_base={"REMOTE_ADDR": address},
        buffered=False,
    )


def test_fresh_players_from_one_address_share_its_cap_of_streams(client, players, redis_client):
    crowd = players.many(25, "fresh")
    opened = [stream(client, p, "203.0.113.5") for p in crowd]
    try:
        ok = [r for r in opened if r.status_code == 200]
        refused = [r for r in opened if r.status_code != 200]
        assert len(ok) == PER_ADDRESS
        for r in refused:
            assert r.status_code == 429
            error = r.get_json()["error"]
            assert error["code"] == "too_many_streams"
            assert error["details"]["limit"] == PER_ADDRESS
            assert int(r.headers["Retry-After"]) >= 1
        # a refusal held nothing: neither the address's slot nor the player's
        assert redis_client.zcard("slots:{a:203.0.113.5}") == PER_ADDRESS
        assert not redis_client.exists(f"slots:{{p:{crowd[-1].id}}}")
        # another address is not affected; an IPv4-mapped form is the same address
        other = stream(client, crowd[-1], "198.51.100.9")
        assert other.status_code == 200
        other.close()
        mapped = stream(client, crowd[-1], "::ffff:203.0.113.5")
        assert mapped.status_code == 429
        mapped.close()
    finally:
        for r in opened:
            r.close()
    assert not redis_client.exists("slots:{a:203.0.113.5}")  # every slot given back
    again = stream(client, crowd[-1], "203.0.113.5")
    assert again.status_code == 200
    again.close()


def test_an_ipv6_client_counts_per_64(client, players):
    crowd = players.many(PER_ADDRESS + 1, "six")
    # every stream from another address of one /64
    opened = [stream(client, p, f"2001:db8:7:1::{i + 1:x}") for i, p in enumerate(crowd)]
    try:
        assert [r.status_code for r in opened] == [200] * PER_ADDRESS + [429]
        other = stream(client, crowd[-1], "2001:db8:7:2::1")  # the next /64
        assert other.status_code == 200
        other.close()
    finally:
        for r in opened:
            r.close()
    from server.services.ratelimit import client_key  # the rule, as the counts apply it

    assert client_key("2001:db8:7:1:ffff::1") == "2001:db8:7:1::/64"
    assert client_key("::ffff:192.0.2.1") == "192.0.2.1"
    assert client_key("192.0.2.1") == "192.0.2.1"


def test_the_house_bots_count_per_player_only(client, players, redis_client):
    """The server's bot pool runs every identity from one host: its streams are not
    counted against that address (each identity keeps its own cap)."""
    made = client.post(
        "/v1/bots",
        json={"bots": [{"name": "random", "games": None, "count": PER_ADDRESS + 1}]},
        headers=players.admin_headers(),
    )
    assert made.status_code == 200, made.get_json()
    pool = [Player(p["id"], p["name"], p["token"]) for p in made.get_json()["bots"][0]["players"]]
    opened = [stream(client, p, "203.0.113.6") for p in pool]
    try:
        assert [r.status_code for r in opened] == [200] * len(pool)
        assert not redis_client.exists("slots:{a:203.0.113.6}")
    finally:
        for r in opened:
            r.close()


def test_throwaway_inviters_cannot_fill_a_players_invitations(api, players, redis_client):
    friend, victim = players.register("friend"), players.register("victim")
    throwaway = players.many(3, "throwaway")
    for who in throwaway:
        for _ in range(PER_PAIR):
            assert invite(api, who, victim).status == 201
        before = everything(redis_client)
        refused = invite(api, who, victim)  # past its share: refused, nothing made
        details = assert_error(refused, 409, "invitation_refused")
        assert details == {"players": [victim.id]}
        assert everything(redis_client) == before
    assert len(invitations(api, victim)["invitations"]) == 3 * PER_PAIR
    assert invite(api, friend, victim).status == 201  # the friend still gets through
    assert len(invitations(api, victim)["invitations"]) == 3 * PER_PAIR + 1


def _players(redis_client) -> int:
    return len(list(redis_client.scan_iter("p:{*}", count=1000)))


def test_registration_is_limited_per_address_by_default(app_config, redis_client):
    """The production default (``PARLOUR_REGISTER_LIMIT`` 10 an hour), not the tests'."""
    config = {k: v for k, v in app_config.items() if k != "REGISTER_LIMIT"}
    app = create_app(config)
    assert (app.config["REGISTER_LIMIT"], app.config["REGISTER_PERIOD"]) == (10, 3600)
    client = app.test_client()

    def register(address: str, name: str):
        return client.post(
            "/v1/players", json={"name": name}, environ_base={"REMOTE_ADDR": address}
        )

    for i in range(10):  # ten addresses of one /64: one client
        assert register(f"2001:db8:9:1::{i + 1:x}", f"r{i}").status_code == 201
    count = _players(redis_client)
    before = everything(redis_client)
    refused = register("2001:db8:9:1::ff", "one-too-many")
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    assert _players(redis_client) == count  # nothing was created
    assert everything(redis_client) == before
    assert register("2001:db8:9:2::1", "next-prefix").status_code == 201
    admin = Api(client).post("/v1/players", {"name": "by-admin"}, "admin")  # never counted
    assert admin.status == 201
