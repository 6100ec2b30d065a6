"""The committed ``openapi.yaml`` is what server/api/openapi.py generates from the code."""

from __future__ import annotations

import re

import pytest
import yaml

from server.api import openapi


@pytest.fixture(scope="module")
def built() -> dict:
    """The generator's document, built once for the tests that only read it."""
    return openapi.build()


def test_committed_spec_is_generated_from_the_code():
    committed = openapi.ROOT_SPEC.read_text(encoding="utf-8")
    generated = openapi.render()
    assert committed == generated, f"openapi.yaml is stale: run `{openapi.REGENERATE}`"


def test_the_generator_sees_the_served_routes(app, built):
    """The generator's bare app (no Redis) has the routes ``create_app`` serves."""
    assert built == openapi.build(app)


def test_every_api_route_has_its_operations(app):
    """A view added without its docstring's ``---`` would be missing from the spec."""
    paths = openapi.build(app)["paths"]
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/v1/") and rule.rule not in ("/healthz", "/metrics"):
            continue
        path = openapi._path(rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in paths.get(path, {}), f"{method} {path} is not in the spec"


def test_request_schemas_come_from_marshmallow(app):
    """Editing a loader's field changes the spec (no second copy to forget)."""
    schemas = openapi.build(app)["components"]["schemas"]
    assert schemas["PlayerCreate"]["properties"]["name"]["maxLength"] == 64
    assert schemas["BotSpec"]["properties"]["count"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 16,
    }


def test_check_mode_names_the_command(tmp_path, capsys):
    stale = tmp_path / "openapi.yaml"
    stale.write_text(yaml.safe_dump({"openapi": "3.1.0"}), encoding="utf-8")
    assert openapi.main(["--check", str(stale)]) == 1
    assert "python -m server.api.openapi" in capsys.readouterr().err
    assert openapi.main([str(stale)]) == 0
    assert openapi.main(["--check", str(stale)]) == 0


def test_every_registered_game_has_its_view_state_and_moves(built):
    """Each registered game's wire gives its ``<Game>State`` and ``<Game>Move``, its
    ``<Game>View`` and its events' kinds (tests/testgame/ calls this with its game too)."""
    from server.games import REGISTRY

    assert set(openapi.games()) == set(REGISTRY)
    schemas = built["components"]["schemas"]
    mapping = schemas["View"]["discriminator"]["mapping"]
    kinds = schemas["Event"]["discriminator"]["mapping"]
    for game, prefix in openapi.games().items():
        assert REGISTRY[game].wire.events.keys() <= kinds.keys()
        view = schemas[f"{prefix}View"]["properties"]
        assert mapping[game] == f"#/components/schemas/{prefix}View"
        assert view["game"]["const"] == game
        assert view["legal_moves"]["items"] == {"$ref": f"#/components/schemas/{prefix}Move"}
        assert schemas[f"{prefix}State"]["additionalProperties"] is False


def _operations(document):
    for where in ("paths", "webhooks"):
        for path, item in document[where].items():
            for method in ("get", "put", "post", "delete", "patch"):
                if method in item:
                    yield f"{method} {path}", item[method]


def test_every_operation_and_webhook_is_named_tagged_and_states_its_security(built):
    document = built
    ids = []
    for name, operation in _operations(document):
        assert re.fullmatch(r"[a-z][a-zA-Z0-9]*", operation.get("operationId", "")), name
        assert operation.get("tags"), name
        assert isinstance(operation.get("security"), list), name
        assert {} not in operation["security"] or len(operation["security"]) > 1, name
        ids.append(operation["operationId"])
    routes = [
        (rule.rule, method)
        for rule in openapi._app().url_map.iter_rules()
        if rule.rule.startswith("/v1/") or rule.rule in ("/healthz", "/metrics")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    ]
    base = yaml.safe_load(openapi.BASE.read_text(encoding="utf-8"))["webhooks"]
    assert routes and base  # the served routes, the app webhooks: one operation each, no count
    assert len(ids) == len(set(ids)) == len(routes) + len(base) + len(openapi.WEBHOOKS)
    public = dict(_operations(document))
    assert public["get /healthz"]["security"] == []
    assert public["post /v1/games/{game_id}/moves"]["security"] == [{"bearer": []}]


def _objects(node, where="#"):
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "object" or (isinstance(kind, list) and "object" in kind):
            yield where, node
        for key, value in node.items():
            yield from _objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _objects(value, f"{where}/{i}")


def test_every_object_names_its_properties_or_says_it_is_open(built):
    """An object with no properties and no ``additionalProperties`` reads, to a TypeScript
    generator, as one that can hold nothing."""
    for where, schema in _objects(built):
        named = {"properties", "additionalProperties", "oneOf", "anyOf", "allOf"} & schema.keys()
        assert named, where


def test_the_schemas_generators_could_not_read(built):
    schemas = built["components"]["schemas"]
    assert schemas["OptionSpec"]["properties"]["choices"]["items"]
    illegal = schemas["IllegalMoveError"]
    assert "allOf" not in illegal
    assert illegal["properties"]["error"] == {"$ref": "#/components/schemas/IllegalMoveErrorBody"}
    details = schemas["IllegalMoveErrorBody"]["properties"]["details"]
    assert details["properties"]["legal_moves"]["items"] == {"$ref": "#/components/schemas/Move"}
    assert "termination" in schemas["Result"]["required"]
    tournament = schemas["GameSummary"]["properties"]["tournament"]
    assert set(tournament["required"]) == {"id", "ladder", "round", "table"}
    assert set(schemas["Frame"]["properties"]["move"]["required"]) == {"seat", "move"}


def test_the_streams_name_their_messages(built):
    """OpenAPI 3.1 has no field for a stream's items (3.2's ``itemSchema`` is refused in a
    3.1 document by Redocly and openapi-core, and openapi-python-client reads no 3.2
    document): an event stream's ``schema`` is the list of its messages (3.2's reading of a
    sequential media type's ``schema``), as generators read it; the
    archive's JSON Lines are a string whose ``contentSchema`` is the list of replays (a
    generated client reads the text: a ``Replay`` schema would have it parse the lines
    as one replay)."""
    document = built
    for path, message in [
        ("/v1/me/turns/stream", "TurnStreamMessage"),
        ("/v1/games/{game_id}/stream", "GameStreamMessage"),
    ]:
        media = document["paths"][path]["get"]["responses"]["200"]["content"]["text/event-stream"]
        items = {"$ref": f"#/components/schemas/{message}"}
        assert media == {"schema": {"type": "array", "items": items}}
        kinds = document["components"]["schemas"][message]["oneOf"]
        assert all(document["components"]["schemas"][k["$ref"].rsplit("/")[-1]] for k in kinds)
    lines = document["paths"]["/v1/archive"]["get"]["responses"]["200"]["content"]
    body = lines["application/x-ndjson"]["schema"]
    assert body["type"] == "string" and body["contentMediaType"] == "application/x-ndjson"
    assert body["contentSchema"]["items"] == {"$ref": "#/components/schemas/Replay"}
    turns = document["components"]["schemas"]["TurnsMessage"]["properties"]["data"]
    assert turns["items"] == {"$ref": "#/components/schemas/Turn"}


SCHEMA_KEYWORDS = {
    *("type", "description", "items", "properties", "required", "additionalProperties", "$ref"),
    *("enum", "minimum", "maximum", "format", "default", "examples", "oneOf", "anyOf", "allOf"),
    *("const", "pattern", "minLength", "maxLength", "minItems", "maxItems", "discriminator"),
}


def test_no_schema_carries_a_stray_key(built):
    """An unquoted description cut at a comma (``{description: ms, latest 500 moves}``)
    adds a key no schema keyword has: openapi-spec-validator lets it pass, Redocly does not."""
    for where, schema in _objects(built["components"]["schemas"]):
        for name, prop in schema.get("properties", {}).items():
            if isinstance(prop, dict):
                assert set(prop) <= SCHEMA_KEYWORDS, f"{where}/properties/{name}"


def _schemas_with_examples(node, where="#"):
    """Every schema of the document that carries ``examples`` (JSON Schema's list)."""
    if isinstance(node, dict):
        if isinstance(node.get("examples"), list) and ("type" in node or "properties" in node):
            yield where, node
        for key, value in node.items():
            yield from _schemas_with_examples(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _schemas_with_examples(value, f"{where}/{i}")


def _media(document):
    """Every media type object of the paths and webhooks, with where it is."""
    responses = document["components"]["responses"]
    for name, operation in _operations(document):
        bodies = [("request", operation.get("requestBody", {}))]
        for status, answer in operation["responses"].items():
            answer = responses[answer["$ref"].rsplit("/", 1)[1]] if "$ref" in answer else answer
            bodies.append((status, answer))
        for part, body in bodies:
            for kind, media in body.get("content", {}).items():
                yield f"{name} {part} {kind}", media


def test_every_example_is_valid_by_its_own_schema(built):
    """Each ``examples`` of a schema validates against that schema, and each example of a
    media type (inline or a component) against the media's schema; every message of the
    two streams and every call the server makes shows one (jsonschema, draft 2020-12,
    references resolved in the document)."""
    from jsonschema import Draft202012Validator

    document = built
    checked = set()
    for where, schema in _schemas_with_examples(document["components"]["schemas"]):
        for example in schema["examples"]:
            Draft202012Validator({**document, **schema}).validate(example)
        checked.add(where)
    named = document["components"]["examples"]
    for where, media in _media(document):
        found = list(media.get("examples", {}).values())
        values = [named[e["$ref"].rsplit("/", 1)[1]]["value"] if "$ref" in e else e["value"]
                  for e in found]  # fmt: skip
        values += [media["example"]] if "example" in media else []
        assert not values or "schema" in media, f"{where}: an example with no schema"
        for value in values:
            Draft202012Validator({**document, **media["schema"]}).validate(value)
    schemas = document["components"]["schemas"]
    kinds = [k["$ref"].rsplit("/", 1)[1] for u in ("TurnStreamMessage", "GameStreamMessage")
             for k in schemas[u]["oneOf"]]  # fmt: skip
    bodies = [
        item["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        for name, item in document["webhooks"].items()
        if name == "callback"
    ]
    for name in [*kinds, *(ref.rsplit("/", 1)[1] for ref in bodies)]:
        assert f"#/{name}" in checked, f"{name} shows no example"


def test_the_envelopes_are_the_schemas_that_dump_them(built):
    """Each game's view and each kind's event is the envelope of the schema that dumps
    every view and event: a field of it required, typed or added there is so in the spec
    (the base file states no schema: only the head, tags, security scheme, webhooks'
    words and examples)."""
    from server.api import schemas

    base = yaml.safe_load(openapi.BASE.read_text(encoding="utf-8"))
    assert set(base["components"]) == {"securitySchemes", "examples"}
    documented = built["components"]["schemas"]
    for cls, names in [
        (schemas.View, [f"{prefix}View" for prefix in openapi.games().values()]),
        (schemas.Event, [r["$ref"].rsplit("/", 1)[1] for r in documented["Event"]["oneOf"]]),
    ]:
        dumper = cls()
        required = {name for name, field in dumper.fields.items() if field.required}
        assert "hand" not in required and "visible_to" not in required  # (absent at times)
        for name in names:
            assert set(documented[name]["properties"]) == set(dumper.fields), name
            assert set(documented[name]["required"]) == required, name
    assert documented["ConcertoView"]["properties"]["version"]["minimum"] == 0
    assert documented["ConcertoView"]["properties"]["seats"]["items"] == {
        "$ref": "#/components/schemas/SeatEntry"
    }
    timeout = documented["TimeoutEvent"]["properties"]["data"]
    assert set(timeout["required"]) == {"seat", "timeouts", "action"}
    assert documented["House"] == {
        "type": "boolean",
        "const": True,
        "description": schemas.HOUSE.metadata["description"],
    }


def test_a_path_parameter_component_is_its_routes_variable():
    """``"GameId"`` named by an operation is the route's ``<game_id>`` (a string); an
    ``<int:...>`` variable is a non-negative integer; a name no variable of the route
    has is refused, naming the operation."""
    from flask import Flask

    from server.api.operations import Answer, operation

    app = Flask(__name__)

    @app.get("/x/<game_id>/<int:frame_id>")
    @operation("x", tag="t", summary="s", parameters=["GameId", "FrameId"],
               responses={200: Answer("a")})  # fmt: skip
    def x(game_id: str, frame_id: int):
        return {}

    params = openapi._path_parameters(app)
    assert params["GameId"] == {
        "name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}
    }  # fmt: skip
    assert params["FrameId"]["schema"] == {"type": "integer", "minimum": 0}

    @app.get("/y/<ladder_id>")
    @operation("y", tag="t", summary="s", parameters=["GameId"], responses={200: Answer("a")})
    def y(ladder_id: str):
        return {}

    with pytest.raises(ValueError, match="y: /y/<ladder_id> has no variable GameId"):
        openapi._path_parameters(app)
