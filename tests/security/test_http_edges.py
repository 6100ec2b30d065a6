"""The HTTP edges: a chunked body over the limit is a 413, every
response carries the security headers (unknown URLs and werkzeug's own errors
too), a 405 says what is allowed, and a token in the URL is taken only by the game
stream. Over a real socket: chunked bodies and werkzeug's errors are the HTTP
server's business.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests

from server.api.headers import SECURITY_HEADERS
from tests.api.helpers import Api

LIMIT = 64 * 1024


@pytest.fixture
def live_api(live_server) -> Api:
    return Api(base_url=live_server.url)


def chunked(body: bytes, size: int = 4096) -> Iterator[bytes]:
    """``requests`` sends a generator chunked, with no ``Content-Length``."""
    for i in range(0, len(body), size):
        yield body[i : i + size]


def players_stored(redis_client) -> int:
    return sum(1 for _ in redis_client.scan_iter("p:{*}"))


def assert_secured(r: requests.Response) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert r.headers.get(name) == value, (r.status_code, r.request.url, name)


def test_a_chunked_body_over_the_limit_is_a_413(live_server, redis_client):
    url = live_server.url + "/v1/players"
    before = players_stored(redis_client)
    big = json.dumps({"name": "x" * (70 * 1024)}).encode()
    r = requests.post(url, data=chunked(big), headers={"Content-Type": "application/json"})
    assert "Content-Length" not in r.request.headers  # it was sent chunked
    assert r.status_code == 413, r.text[:200]
    assert r.json()["error"]["code"] == "invalid_request"
    assert len(r.content) < 1000
    assert_secured(r)
    assert players_stored(redis_client) == before  # refused: nothing stored
    # a chunked body within the limit is read whole, up to the limit exactly
    for body in (json.dumps({"name": "chunky"}).encode(), b" " * (LIMIT - 17) + b'{"name":"edge"}'):
        r = requests.post(url, data=chunked(body), headers={"Content-Type": "application/json"})
        assert r.status_code == 201, r.text[:200]
    assert players_stored(redis_client) == before + 2


def test_unknown_urls_are_404s_with_the_security_headers(live_server):
    for path in ("/v1/nothing/here", "/nothing-here", "/v1/games/abc/nothing"):
        r = requests.get(live_server.url + path, timeout=5)
        assert r.status_code == 404, path
        assert_secured(r)
    api = requests.get(live_server.url + "/v1/nothing/here", timeout=5)
    assert api.json() == {"error": {"code": "not_found", "message": "not found", "details": {}}}
    assert api.headers["Content-Type"].startswith("application/json")
    for path in ("/nothing-here", "/v1/nothing"):  # a method on an unknown URL: JSON too
        r = requests.post(live_server.url + path, timeout=5)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        assert_secured(r)


def test_a_405_says_what_the_url_allows(live_server):
    cases = {
        ("PUT", "/v1/players"): {"POST"},
        ("DELETE", "/v1/rules"): {"GET", "HEAD"},
        ("POST", "/v1/me/turns"): {"GET", "HEAD"},
        ("PATCH", "/v1/games/abc/moves"): {"POST"},
    }
    for (method, path), allowed in cases.items():
        r = requests.request(method, live_server.url + path, timeout=5)
        assert r.status_code == 405, (method, path, r.status_code)
        assert allowed <= {m.strip() for m in r.headers["Allow"].split(",")}, r.headers
        assert r.json()["error"]["code"] == "method_not_allowed"
        assert_secured(r)


def test_a_token_in_the_url_is_refused_but_by_the_game_stream(live_server, live_api, live_players):
    url = live_server.url
    ann = live_players.register("ann")
    gid = live_api.post("/v1/games", {"game": "concerto", "seats": [ann.id] + [None] * 3}, ann)
    assert gid.status == 201, gid.body
    gid = gid.body["id"]
    refused = ["/v1/me/turns/stream", "/v1/me/turns", "/v1/players/me", f"/v1/games/{gid}"]
    for path in refused:
        r = requests.get(url + path, params={"token": ann.token}, timeout=5)
        assert r.status_code == 400, (path, r.status_code, r.text[:200])
        error = r.json()["error"]
        assert error["code"] == "invalid_request" and "token" in error["details"]
        assert "Authorization" in error["message"]
        assert ann.token not in r.text
        assert_secured(r)
    # with the header as well: still refused (the URL carried it, it must not)
    r = requests.get(
        url + "/v1/me/turns/stream",
        params={"token": ann.token},
        headers={"Authorization": f"Bearer {ann.token}"},
        timeout=5,
    )
    assert r.status_code == 400
    # the game stream, which a browser's EventSource opens, takes it
    r = requests.get(
        url + f"/v1/games/{gid}/stream", params={"token": ann.token}, stream=True, timeout=5
    )
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/event-stream")
    r.close()
