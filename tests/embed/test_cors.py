"""CORS (server/api/cors.py): preflights and headers for allowed and refused origins.

Origins are configured by ``CORS_ORIGINS`` (``PARLOUR_CORS_ORIGINS``); this
package's ``app_config`` allows exactly ``ORIGIN``.
"""

from __future__ import annotations

import pytest
import requests

from server.api import create_app
from tests.embed.conftest import ORIGIN

PREFLIGHT = {
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, content-type",
}


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",") if v.strip()}


@pytest.mark.parametrize(
    "path", ["/v1/games/abc/moves", "/v1/apps/x/games", "/v1/games/abc/stream", "/v1/no/such/route"]
)
def test_a_preflight_from_an_allowed_origin_is_answered_before_auth_and_routing(client, path):
    response = client.options(path, headers={"Origin": ORIGIN, **PREFLIGHT})
    assert response.status_code == 204
    headers = response.headers
    assert headers["Access-Control-Allow-Origin"] == ORIGIN
    methods = {m.strip() for m in headers["Access-Control-Allow-Methods"].split(",")}
    assert {"GET", "POST"} <= methods
    allowed = {h.strip().lower() for h in headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "last-event-id"} <= allowed
    assert int(headers["Access-Control-Max-Age"]) > 0
    assert "origin" in vary(response)
    assert "Access-Control-Allow-Credentials" not in headers
    assert response.data == b""


def test_a_preflight_from_another_origin_gets_no_permission(client):
    response = client.options(
        "/v1/games/abc/moves", headers={"Origin": "http://evil.example", **PREFLIGHT}
    )
    assert response.status_code == 204
    assert not [k for k, _ in response.headers.items() if k.startswith("Access-Control-Allow")]
    assert "origin" in vary(response)


def test_actual_requests_echo_an_allowed_origin_and_never_a_wildcard(client, players):
    someone = players.register("ann")
    ok = client.get("/v1/players/me", headers={"Origin": ORIGIN, **someone.headers})
    assert ok.status_code == 200
    assert ok.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Retry-After" in ok.headers["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Credentials" not in ok.headers
    # Errors carry the headers too, or a page could not read the envelope.
    denied = client.get("/v1/players/me", headers={"Origin": ORIGIN})
    assert denied.status_code == 401
    assert denied.headers["Access-Control-Allow-Origin"] == ORIGIN

    refused = client.get("/v1/rules", headers={"Origin": "http://evil.example"})
    assert refused.status_code == 200  # the server answers; the browser withholds it
    assert "Access-Control-Allow-Origin" not in refused.headers
    assert "origin" in vary(refused)
    plain = client.get("/v1/rules")
    assert "Access-Control-Allow-Origin" not in plain.headers
    assert "origin" in vary(plain)  # a cache must not hand this answer to an allowed origin


def test_no_configured_origin_means_no_cors_header_at_all(redis_client, app_config):
    client = create_app(app_config | {"CORS_ORIGINS": ""}).test_client()
    response = client.options("/v1/games/abc/moves", headers={"Origin": ORIGIN, **PREFLIGHT})
    assert not [k for k, _ in response.headers.items() if k.startswith("Access-Control-")]
    response = client.get("/v1/rules", headers={"Origin": ORIGIN})
    assert not [k for k, _ in response.headers.items() if k.startswith("Access-Control-")]


def test_a_wildcard_configuration_answers_star_without_credentials(redis_client, app_config):
    client = create_app(app_config | {"CORS_ORIGINS": "*"}).test_client()
    response = client.get("/v1/rules", headers={"Origin": "http://anyone.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_cors_headers_over_a_real_socket(live_server):
    response = requests.options(
        live_server.url + "/v1/games", headers={"Origin": ORIGIN, **PREFLIGHT}, timeout=5
    )
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
