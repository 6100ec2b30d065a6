"""Input is taken at its word: booleans must be JSON booleans, and a tournament that
cannot be played is refused when it is created, not when it starts."""

from __future__ import annotations

import pytest

from tests.api.helpers import Api, assert_error


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


@pytest.mark.parametrize("value", [1, 0, "true", "1", 1.0, None, [True]])
def test_booleans_must_be_json_booleans(api, players, value):
    caller = players.register("c")
    body = {"game": "concerto", "seats": [caller.id] * 4, "allow_multiple_seats": value}
    details = assert_error(api.post("/v1/games", body, caller), 400, "invalid_request")
    assert "allow_multiple_seats" in details


def test_a_json_boolean_is_still_a_boolean(api, players):
    caller = players.register("c")
    body = {"game": "concerto", "seats": [caller.id] * 4, "allow_multiple_seats": True}
    assert api.post("/v1/games", body, caller).status == 201


@pytest.mark.parametrize("game", ["seconds", "cowpoke"])
def test_duplicate_is_refused_for_games_without_two_fixed_sides(api, players, game):
    """docs/rules/seconds.md: partners change every deal; Cowpoke has none. Duplicate
    compares two sides over the same boards, so neither game can be played that way."""
    caller = players.register("c")
    reply = api.post("/v1/tournaments", {"game": game, "format": "duplicate"}, caller)
    details = assert_error(reply, 422, "unplayable_format")
    assert "format" in details


@pytest.mark.parametrize("game", ["concerto", "pinochle"])
def test_duplicate_is_accepted_for_partnership_games(api, players, game):
    caller = players.register("c")
    reply = api.post("/v1/tournaments", {"game": game, "format": "duplicate"}, caller)
    assert reply.status == 201, reply.body
