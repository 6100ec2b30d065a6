"""Every request counts (docs/operations.md#security-settings): tokens however sent, and
requests without one per client address, registrations in a stricter bucket.

``X-Forwarded-For`` is believed only as far as the operator says proxies stand
in front (``TRUSTED_PROXIES``): otherwise any client could pick its address.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.api import create_app
from tests.conftest import ADMIN_TOKEN

LIMIT = 3
REGISTER = 2


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return app_config | {
        "RATE_LIMIT": LIMIT,
        "RATE_PERIOD": 120,
        "REGISTER_LIMIT": REGISTER,
        "REGISTER_PERIOD": 120,
    }


def _from(address: str, **extra: Any) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": address}, **extra}


def _register_as_admin(client, name: str) -> str:
    reply = client.post(
        "/v1/players", json={"name": name}, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}
    )
    assert reply.status_code == 201
    return reply.get_json()["token"]


def _players(redis_client) -> int:
    return len(list(redis_client.scan_iter("p:{*}", count=1000)))


def test_a_token_in_the_query_counts_like_one_in_the_header(client):
    token = _register_as_admin(client, "ann")
    for _ in range(LIMIT):  # the SSE form: ?token= (no such game: 404, but counted)
        assert client.get("/v1/games/nogame/stream", query_string={"token": token}).status_code
    reply = client.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 429
    assert reply.get_json()["error"]["code"] == "rate_limited"
    reply = client.get("/v1/games/nogame/stream", query_string={"token": token})
    assert reply.status_code == 429


def test_requests_without_a_token_are_limited_per_client_address(client):
    for _ in range(LIMIT):
        assert client.get("/v1/rules", **_from("198.51.100.7")).status_code == 200
    reply = client.get("/v1/rules", **_from("198.51.100.7"))
    assert reply.status_code == 429 and int(reply.headers["Retry-After"]) >= 1
    assert client.get("/v1/rules", **_from("198.51.100.8")).status_code == 200
    # a load balancer's probe and a metrics scraper are never limited
    assert client.get("/healthz", **_from("198.51.100.7")).status_code == 200
    assert client.get("/metrics", **_from("198.51.100.7")).status_code == 200


def test_registration_has_its_own_stricter_bucket_and_a_refusal_creates_nobody(
    client, redis_client
):
    for n in range(REGISTER):
        reply = client.post("/v1/players", json={"name": f"p{n}"}, **_from("198.51.100.9"))
        assert reply.status_code == 201
    before = _players(redis_client)
    reply = client.post("/v1/players", json={"name": "one too many"}, **_from("198.51.100.9"))
    assert reply.status_code == 429
    assert reply.get_json()["error"]["code"] == "rate_limited"
    assert _players(redis_client) == before
    # another address registers still
    assert (
        client.post("/v1/players", json={"name": "x"}, **_from("198.51.100.10")).status_code == 201
    )


def test_forwarded_for_is_ignored_unless_the_operator_trusts_a_proxy(app_config, redis_client):
    untrusted = create_app(app_config).test_client()
    for n in range(LIMIT):
        spoof = {"X-Forwarded-For": f"203.0.113.{n}"}
        assert untrusted.get("/v1/rules", headers=spoof, **_from("192.0.2.1")).status_code == 200
    spoof = {"X-Forwarded-For": "203.0.113.99"}
    assert untrusted.get("/v1/rules", headers=spoof, **_from("192.0.2.1")).status_code == 429

    proxied = create_app(app_config | {"TRUSTED_PROXIES": 1}).test_client()
    # behind one proxy, the address it appended (the last one) is the client's; what the
    # client wrote before it is not believed
    for n in range(LIMIT):
        forwarded = {"X-Forwarded-For": f"203.0.113.{n}, 198.51.100.50"}
        reply = proxied.get("/v1/rules", headers=forwarded, **_from("192.0.2.2"))
        assert reply.status_code == 200
    forwarded = {"X-Forwarded-For": "203.0.113.77, 198.51.100.50"}
    assert proxied.get("/v1/rules", headers=forwarded, **_from("192.0.2.2")).status_code == 429
    other = {"X-Forwarded-For": "198.51.100.51"}
    assert proxied.get("/v1/rules", headers=other, **_from("192.0.2.2")).status_code == 200


def test_a_made_up_token_counts_against_the_address_like_no_token(client, redis_client):
    """Else a fresh fake token per request would never be limited."""
    for n in range(LIMIT):
        fake = {"Authorization": f"Bearer {n:016x}.madeup"}
        reply = client.get("/v1/rules", headers=fake, **_from("198.51.100.20"))
        assert reply.status_code == 200
    odd = {"Authorization": "Bearer not-even-a-token-shape"}
    assert client.get("/v1/rules", headers=odd, **_from("198.51.100.20")).status_code == 429
    query = {"token": "feedfeedfeedfeed.madeup"}
    reply = client.get("/v1/games/nogame/stream", query_string=query, **_from("198.51.100.20"))
    assert reply.status_code == 429
    # a real token from that address is counted on its own
    token = _register_as_admin(client, "ann")
    real = {"Authorization": f"Bearer {token}"}
    assert client.get("/v1/players/me", headers=real, **_from("198.51.100.20")).status_code == 200
