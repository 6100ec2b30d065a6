"""Tokens can be rotated and revoked (docs/api.md#tokens-rotate-and-revoke).

A rotated or revoked token stops working at once, in every API process: each
request reads the token's hash from Redis (no process keeps a copy), and
compares it in constant time. Refused requests change nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.api import create_app
from server.store import keys
from tests.api.helpers import Api, Reply, _auth, assert_error
from tests.embed.conftest import app_game, make_app


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@pytest.fixture
def other(app_config: dict[str, Any]) -> Api:
    """A second API process over the same Redis (another worker)."""
    return Api(create_app(app_config).test_client())


def delete(api: Api, path: str, who=None) -> Reply:
    """``DELETE path`` as ``who`` (the test client's; :class:`Api` has no delete)."""
    r = api.client.delete(path, headers=_auth(who))
    return Reply(r.status_code, r.get_json(silent=True), r.get_data(as_text=True))


def _digest(redis_client, key: str) -> bytes:
    return redis_client.hget(key, "token_sha256")


def test_a_player_rotates_its_token_and_the_old_one_dies_everywhere(api, other, players):
    ann = players.register("ann")
    assert other.get("/v1/players/me", ann.token).status == 200
    reply = api.post("/v1/players/me/token", None, ann.token)
    assert reply.status == 200, reply.body
    new = reply.body["token"]
    assert reply.body["id"] == ann.id and new != ann.token and new.startswith(ann.id + ".")
    assert_error(other.get("/v1/players/me", ann.token), 401, "unauthorized")
    assert_error(api.post("/v1/players/me/token", None, ann.token), 401, "unauthorized")
    me = other.get("/v1/players/me", new)
    assert me.status == 200 and me.body["id"] == ann.id and me.body["name"] == "ann"


def test_a_player_revokes_its_own_token(api, other, players, redis_client):
    ann = players.register("ann")
    assert delete(api, "/v1/players/me/token", ann.token).status == 204
    assert_error(other.get("/v1/players/me", ann.token), 401, "unauthorized")
    # the admin may give the player a new one (the record, ratings and games stay)
    reply = api.post(f"/v1/players/{ann.id}/token", None, "admin")
    assert reply.status == 200
    assert other.get("/v1/players/me", reply.body["token"]).body["id"] == ann.id


def test_the_admin_revokes_any_player_and_only_the_admin_may(api, players, redis_client):
    ann, bob = players.many(2)
    key = keys.player(ann.id)
    before = _digest(redis_client, key)
    for who in (bob, None):  # another player; nobody
        status, code = (403, "forbidden") if who else (401, "unauthorized")
        assert_error(delete(api, f"/v1/players/{ann.id}/token", who), status, code)
        assert_error(api.post(f"/v1/players/{ann.id}/token", None, who), status, code)
    assert _digest(redis_client, key) == before
    assert api.get("/v1/players/me", ann.token).status == 200

    assert_error(delete(api, "/v1/players/nobody1/token", "admin"), 404, "not_found")
    assert redis_client.exists(keys.player("nobody1")) == 0
    assert delete(api, f"/v1/players/{ann.id}/token", "admin").status == 204
    assert_error(api.get("/v1/players/me", ann.token), 401, "unauthorized")
    assert api.get("/v1/players/me", bob.token).status == 200


def test_a_guest_and_the_admin_have_no_own_player_token_to_rotate(api, redis_client):
    app = make_app(api)
    made = app_game(api, app, [None, None, None, None])
    guest = made["invitations"][0]["token"]
    key = keys.player(guest.partition(".")[0])
    before = _digest(redis_client, key)
    assert_error(api.post("/v1/players/me/token", None, guest), 403, "forbidden")
    assert_error(delete(api, "/v1/players/me/token", guest), 403, "forbidden")
    assert _digest(redis_client, key) == before
    assert_error(api.post("/v1/players/me/token", None, "admin"), 403, "forbidden")


def test_an_app_rotates_its_token_and_the_admin_revokes_it(api, other, players, redis_client):
    app = make_app(api)
    key = keys.app(app.id)
    before = _digest(redis_client, key)
    ann = players.register("ann")
    other_app = make_app(api, "elsewhere")
    for who, status in ((ann, 403), (other_app.token, 403), (None, 401)):
        assert api.post(f"/v1/apps/{app.id}/token", None, who).status == status
        assert delete(api, f"/v1/apps/{app.id}/token", who).status == status
    assert _digest(redis_client, key) == before

    reply = api.post(f"/v1/apps/{app.id}/token", None, app.token)
    assert reply.status == 200 and reply.body["id"] == app.id
    new = reply.body["token"]
    assert_error(other.get(f"/v1/apps/{app.id}", app.token), 401, "unauthorized")
    assert other.get(f"/v1/apps/{app.id}", new).status == 200

    assert delete(api, f"/v1/apps/{app.id}/token", "admin").status == 204
    assert_error(other.get(f"/v1/apps/{app.id}", new), 401, "unauthorized")
    assert_error(delete(api, "/v1/apps/appnope/token", "admin"), 404, "not_found")
    assert other.get(f"/v1/apps/{other_app.id}", other_app.token).status == 200


def test_the_sdk_and_the_cli_rotate_and_revoke_over_http(live_server, capsys):
    from client_sdk import Client
    from client_sdk.cli import main as bot_cli
    from client_sdk.errors import ParlourError
    from server.processes.cli import main as parlour_cli
    from tests.conftest import ADMIN_TOKEN

    with Client(live_server.url) as anon:
        ann = anon.players.register("ann")
    with Client(live_server.url, ann["token"]) as client:
        new = client.tokens.rotate()
        assert new["id"] == ann["id"] and new["token"] != ann["token"]
        assert client.players.me()["id"] == ann["id"]  # the client uses the new token
    with Client(live_server.url, ann["token"]) as stale, pytest.raises(ParlourError) as err:
        stale.players.me()
    assert err.value.status == 401

    # parlour-bot token rotate: the new token on stdout, the old one dead
    assert bot_cli(["token", "rotate", "--server", live_server.url, "--token", new["token"]]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed.startswith(ann["id"] + ".") and printed != new["token"]
    assert bot_cli(["token", "revoke", "--server", live_server.url, "--token", new["token"]]) == 1
    # parlour token revoke --player (the admin's tool)
    argv = ["token", "revoke", "--server", live_server.url, "--player", ann["id"]]
    assert parlour_cli([*argv, "--token", ADMIN_TOKEN]) == 0
    with Client(live_server.url, printed) as revoked, pytest.raises(ParlourError) as err:
        revoked.players.me()
    assert err.value.status == 401


@pytest.mark.parametrize("token", ["x.y", "nonsense", "not-the-admin-token"])
def test_registering_with_a_bad_token_is_refused_not_taken_for_nobody(api, redis_client, token):
    """Open registration takes no token, but a token that is sent must be good: a
    mistyped admin token must not quietly register an ordinary player instead."""
    players_before = sorted(redis_client.scan_iter(keys.player("*")))
    reply = api.post("/v1/players", {"name": "ann"}, token)
    assert_error(reply, 401, "unauthorized")
    assert sorted(redis_client.scan_iter(keys.player("*"))) == players_before
    assert api.post("/v1/players", {"name": "ann"}).status == 201  # open, with no token
    assert api.post("/v1/players", {"name": "bob"}, "admin").status == 201
