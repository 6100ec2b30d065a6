"""The bounds of the request bodies are in ``openapi.yaml``, and the server keeps to them:
a value at a bound the spec states is taken, one past it is refused with 400
invalid_request naming the field. The bounds are read from the spec, not repeated
here, so a spec that drifts from the loader fails this test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.api.helpers import Api, assert_error
from tests.conftest import Players

SPEC = yaml.load(
    (Path(__file__).resolve().parents[2] / "openapi.yaml").read_text(encoding="utf-8"),
    Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader),
)
SCHEMAS = SPEC["components"]["schemas"]


def bound(schema: str, path: str, key: str) -> Any:
    """The spec's ``key`` (maxLength, maximum, ...) of a property path like ``seats[]``."""
    node = SCHEMAS[schema]
    for part in path.split("."):
        node = node["properties"][part.removesuffix("[]")]
        if part.endswith("[]"):
            node = node["items"]
    assert key in node, f"{schema}.{path} states no {key} in openapi.yaml"
    return node[key]


def past(schema: str, path: str, key: str, item: Any = "x") -> Any:
    """A value one past the spec's bound."""
    limit = bound(schema, path, key)
    return {
        "maxLength": "x" * (limit + 1) if key == "maxLength" else None,
        "maximum": limit + 1,
        "maxItems": [item] * (limit + 1),
    }[key]


@pytest.fixture
def api(client) -> Api:
    return Api(client=client)


GAME = {"game": "concerto"}
TOURNAMENT = {"game": "concerto", "format": "swiss"}

# (operation path, component, property path, bound, base body)
PAST_THE_BOUND = [
    ("/v1/games", "GameCreate", "game", "maxLength", GAME),
    ("/v1/games", "GameCreate", "seats", "maxItems", GAME),
    ("/v1/games", "GameCreate", "seats[]", "maxLength", GAME),
    ("/v1/games", "GameCreate", "seed", "maxLength", GAME),
    ("/v1/tournaments", "TournamentCreate", "game", "maxLength", TOURNAMENT),
    ("/v1/tournaments", "TournamentCreate", "name", "maxLength", TOURNAMENT),
    ("/v1/tournaments", "TournamentCreate", "rounds", "maximum", TOURNAMENT),
    ("/v1/tournaments", "TournamentCreate", "boards_per_match", "maximum", TOURNAMENT),
    ("/v1/tournaments", "TournamentCreate", "seats_per_entry", "maximum", TOURNAMENT),
    ("/v1/tournaments", "TournamentCreate", "min_table_size", "maximum", TOURNAMENT),
]


@pytest.mark.parametrize(("path", "schema", "field", "key", "base"), PAST_THE_BOUND)
def test_one_past_a_stated_bound_is_refused_naming_the_field(
    api, players: Players, path, schema, field, key, base
):
    caller = players.admin_headers()["Authorization"].removeprefix("Bearer ")
    name = field.removesuffix("[]")
    value = past(schema, field, key)
    if field.endswith("[]"):
        value = [value]
    details = assert_error(api.post(path, base | {name: value}, caller), 400, "invalid_request")
    assert name in details, details


def test_values_at_the_stated_bounds_are_taken(api, players: Players):
    admin = players.admin_headers()["Authorization"].removeprefix("Bearer ")
    seed = "s" * bound("GameCreate", "seed", "maxLength")
    assert api.post("/v1/games", GAME | {"seed": seed}, admin).status == 201
    name = "n" * bound("TournamentCreate", "name", "maxLength")
    assert api.post("/v1/tournaments", TOURNAMENT | {"name": name}, admin).status == 201
    rounds = bound("TournamentCreate", "rounds", "maximum")
    assert api.post("/v1/tournaments", TOURNAMENT | {"rounds": rounds}, admin).status == 201


def test_a_join_past_the_stated_seat_is_refused(api, players: Players):
    host = players.register("host")
    game = api.post("/v1/games", GAME, host).body["id"]
    guest = players.register("guest")
    seat = past("Join", "seat", "maximum")
    reply = api.post(f"/v1/games/{game}/join", {"seat": seat}, guest)
    assert "seat" in assert_error(reply, 400, "invalid_request")


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "mailto:someone@example.com"])
def test_a_url_off_the_stated_pattern_is_refused(client, players: Players, url):
    import re

    pattern = bound("CallbackPut", "url", "pattern")
    assert not re.match(pattern, url)
    assert len(url) >= bound("CallbackPut", "url", "minLength")
    caller = players.register("c")
    reply = client.put("/v1/me/callback", json={"url": url}, headers=caller.headers)
    assert reply.status_code == 400, reply.get_json()
    error = reply.get_json()["error"]
    assert error["code"] == "invalid_request" and "url" in error["details"], error


def test_a_view_past_the_stated_seat_is_refused(api, players: Players):
    host = players.register("host")
    game = api.post("/v1/games", GAME, host).body["id"]
    (seat,) = [
        p["schema"]["maximum"]
        for p in SPEC["paths"]["/v1/games/{game_id}"]["get"]["parameters"]
        if p.get("name") == "seat"
    ]
    assert api.get(f"/v1/games/{game}", host, seat=seat).status != 500
    reply = api.get(f"/v1/games/{game}", host, seat=seat + 1)
    assert "seat" in assert_error(reply, 400, "invalid_request")
