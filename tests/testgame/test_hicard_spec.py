"""A new game in the API's spec with nothing but its wire: Hicard registered, the spec
built (``openapi.build()`` reads the registry) has its view, state, moves and events, the
generic checks of the spec hold of it, and its real answers match it.

The committed openapi.yaml is built without it (``python -m server.api.openapi`` runs
outside the tests): tests/api/test_openapi_generated.py holds it to that.
"""

from __future__ import annotations

from typing import Any

import pytest
from openapi_core import OpenAPI

from server.api import openapi
from server.games import Game
from tests.api import test_openapi, test_openapi_generated
from tests.api.test_openapi import Checked
from tests.testgame.hicard import WIRE


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "SSE_HEARTBEAT": test_openapi.HEARTBEAT, "SSE_MAX_SECONDS": 30}


@pytest.fixture
def built(hicard: Game) -> dict[str, Any]:
    return openapi.build()


def test_the_spec_built_with_hicard_has_its_wire(built: dict[str, Any]) -> None:
    schemas = built["components"]["schemas"]
    assert schemas["HicardState"] == WIRE.state
    assert schemas["HicardMove"]["discriminator"]["mapping"] == {
        "play": "#/components/schemas/PlayMove"
    }
    assert (
        schemas["View"]["discriminator"]["mapping"]["hicard"] == "#/components/schemas/HicardView"
    )
    assert {"$ref": "#/components/schemas/HicardMove"} in schemas["Move"]["anyOf"]
    # its `trick` (cards, not seats' cards) is one more shape of the kind; its `deal` (a
    # round and its leader) shares one object with the others', none of whose required
    # fields it has
    tricks = schemas["TrickEvent"]["properties"]["data"]["oneOf"]
    assert [t["description"].split(":")[0] for t in tricks] == ["Seconds", "Pinochle", "Hicard"]
    deal = schemas["DealEvent"]["properties"]["data"]
    assert deal["required"] == [] and {"round", "leader", "deal"} <= deal["properties"].keys()
    assert "Hicard" not in openapi.ROOT_SPEC.read_text(encoding="utf-8")


def test_the_generic_checks_of_the_spec_hold_with_hicard(built: dict[str, Any]) -> None:
    test_openapi_generated.test_every_registered_game_has_its_view_state_and_moves(built)
    test_openapi_generated.test_every_object_names_its_properties_or_says_it_is_open(built)
    test_openapi_generated.test_no_schema_carries_a_stray_key(built)
    test_openapi_generated.test_the_schemas_generators_could_not_read(built)
    test_openapi.test_the_examples_are_answers_the_spec_accepts(built)


def test_hicard_s_answers_match_the_spec_built_with_it(
    built: dict[str, Any], client: Any, players: Any, app: Any
) -> None:
    spec = OpenAPI.from_dict(built)
    for options in ({"rounds": 9}, {"rounds": 1}):
        call = Checked(client, spec, app, built)
        test_openapi.check_a_game_s_answers(call, players, app, "hicard", options)
