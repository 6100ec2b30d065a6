"""``/v1/me/callback``: a player sets, replaces, rotates and removes its own callback.

Each PUT and each rotation makes a fresh secret, shown only in that answer; GET
shows its last 4 characters. A refused request (a bad URL, an internal address,
another caller's kind of token) leaves the stored callback exactly as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.services.notifications import signature, verify
from server.store import callbacks as callback_store
from tests.api.helpers import assert_error

PUBLIC = "https://93.184.216.34/parlour/bot"


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {"WEBHOOK_ALLOW": ""}


def _put(client, who, body: Any):
    return client.put("/v1/me/callback", json=body, headers=who.headers)


def _stored(redis_client, player_id: str) -> dict[str, Any] | None:
    return callback_store.get(redis_client, player_id)


def test_set_show_replace_rotate_delete(client, players, redis_client):
    me = players.register("cb")
    assert_error(_reply(client.get("/v1/me/callback", headers=me.headers)), 404, "not_found")

    first = _put(client, me, {"url": PUBLIC})
    assert first.status_code == 200, first.get_json()
    body = first.get_json()
    assert set(body) == {"url", "secret"} and body["url"] == PUBLIC
    assert body["secret"].startswith("cbs_") and len(body["secret"]) > 30

    shown = client.get("/v1/me/callback", headers=me.headers).get_json()
    assert shown["url"] == PUBLIC and shown["secret_hint"] == body["secret"][-4:]
    assert body["secret"] not in str(shown)
    assert shown["health"]["calls"] == 0 and shown["health"]["last_failures"] == []
    assert shown["since"].endswith("+00:00")

    other = "https://93.184.216.35/other"
    second = _put(client, me, {"url": other}).get_json()
    assert second["url"] == other and second["secret"] != body["secret"]
    assert _stored(redis_client, me.id)["secret"] == second["secret"]

    rotated = client.post("/v1/me/callback/secret", headers=me.headers)
    assert rotated.status_code == 200
    third = rotated.get_json()
    assert third["url"] == other and third["secret"] not in (body["secret"], second["secret"])
    # the old secret signs nothing the new one accepts: a bot checks with the new one only
    payload = b'{"id":"x"}'
    old_signed = signature(second["secret"], payload, 1000)
    assert not verify(third["secret"], old_signed, payload, now=1000)
    assert _stored(redis_client, me.id)["secret"] == third["secret"]

    gone = client.delete("/v1/me/callback", headers=me.headers)
    assert gone.status_code == 204 and _stored(redis_client, me.id) is None
    assert me.id not in callback_store.players(redis_client)
    assert_error(_reply(client.delete("/v1/me/callback", headers=me.headers)), 404, "not_found")
    assert_error(
        _reply(client.post("/v1/me/callback/secret", headers=me.headers)), 404, "not_found"
    )


class _Reply:
    def __init__(self, response) -> None:
        self.status = response.status_code
        self.body = response.get_json()


def _reply(response) -> _Reply:
    return _Reply(response)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"url": None},
        {"url": 7},
        {"url": "ftp://93.184.216.34/x"},
        {"url": "https://"},
        {"url": "not a url at all"},
        {"url": "https://93.184.216.34/" + "a" * 2048},
        {"url": PUBLIC, "extra": 1},
        # the server's own network: loopback, private, link-local, mapped IPv6, localhost
        {"url": "http://127.0.0.1:8000/bot"},
        {"url": "http://10.1.2.3/bot"},
        {"url": "http://169.254.169.254/latest"},
        {"url": "http://[::ffff:192.168.0.1]/bot"},
        {"url": "http://localhost/bot"},
    ],
)
def test_a_refused_url_is_400_and_changes_nothing(client, players, redis_client, body):
    me = players.register("cb")
    before = _put(client, me, {"url": PUBLIC}).get_json()
    stored = _stored(redis_client, me.id)
    details = assert_error(_reply(_put(client, me, body)), 400, "invalid_request")
    assert details  # names the field
    assert _stored(redis_client, me.id) == stored
    assert stored is not None and stored["secret"] == before["secret"]


def test_internal_address_message_is_clear(client, players):
    me = players.register("cb")
    reply = _reply(_put(client, me, {"url": "http://192.168.1.10/bot"}))
    assert_error(reply, 400, "invalid_request")
    assert "callbacks may not target internal addresses" in reply.body["error"]["message"]


def test_the_operator_allowlist_admits_its_range(app_config, redis_client, players):
    from server.api import create_app

    client = create_app(app_config | {"WEBHOOK_ALLOW": "127.0.0.0/8"}).test_client()
    me = players.register("cb")
    ok = client.put("/v1/me/callback", json={"url": "http://127.0.0.1:9/bot"}, headers=me.headers)
    assert ok.status_code == 200, ok.get_json()
    refused = client.put("/v1/me/callback", json={"url": "http://10.0.0.1/"}, headers=me.headers)
    assert refused.status_code == 400
    assert _stored(redis_client, me.id)["url"] == "http://127.0.0.1:9/bot"


def test_tokens(client, players, redis_client):
    me = players.register("cb")
    assert_error(_reply(client.put("/v1/me/callback", json={"url": PUBLIC})), 401, "unauthorized")
    assert_error(_reply(client.get("/v1/me/callback")), 401, "unauthorized")
    admin = {"Authorization": "Bearer " + players.admin_headers()["Authorization"].split()[1]}
    assert_error(
        _reply(client.put("/v1/me/callback", json={"url": PUBLIC}, headers=admin)),
        403,
        "forbidden",
    )
    # one player's callback is its own: another's GET does not see it
    _put(client, me, {"url": PUBLIC})
    other = players.register("other")
    assert_error(_reply(client.get("/v1/me/callback", headers=other.headers)), 404, "not_found")
    assert _stored(redis_client, other.id) is None
