"""429 ``rate_limited`` (docs/api.md#errors): per token, across every API process.

The limit is counted in Redis, so two apps (two API processes) share it; the
window here is long enough that the test cannot straddle two windows. Requests
without a token, counted per address, are tests/security/test_rate_limit_gaps.py's.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.api import create_app
from tests.api.helpers import Api, assert_error

LIMIT = 3


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    # the players are registered without a token, from one address: room for them
    return app_config | {"RATE_LIMIT": LIMIT, "RATE_PERIOD": 120, "ANON_RATE_LIMIT": 100}


def test_a_token_over_its_limit_gets_429_with_retry_after(api, players, app_config):
    ann, bob = players.many(2)
    for _ in range(LIMIT):
        assert api.get("/v1/players/me", ann).status == 200
    reply = api.get("/v1/players/me", ann)
    details = assert_error(reply, 429, "rate_limited")
    retry = int(reply.headers["Retry-After"])
    assert 1 <= retry <= 121 and details == {"retry_after": retry}

    # another token is counted apart, and the admin is never limited
    assert api.get("/v1/players/me", bob).status == 200
    for _ in range(LIMIT + 2):
        assert api.get("/v1/rules", "admin").status == 200

    # a second API process sees the same count: the limit is in Redis
    other = Api(create_app(app_config).test_client())
    assert_error(other.get("/v1/players/me", ann), 429, "rate_limited")


def test_a_limited_move_changes_nothing(api, players):
    people = players.many(4)
    view = api.create("admin", [p.id for p in people])
    seat = view["to_move"][0]
    mover = people[seat]
    for _ in range(LIMIT):
        api.get(f"/v1/games/{view['id']}", mover)
    move = api.get(f"/v1/games/{view['id']}", "admin").body  # admin: not counted
    reply = api.move(view["id"], mover, {"type": "pass"}, move["version"])
    assert_error(reply, 429, "rate_limited")
    assert api.get(f"/v1/games/{view['id']}", "admin").body["version"] == move["version"]
