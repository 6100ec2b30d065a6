"""The committed ``openapi.yaml`` is what server/api/openapi.py generates from the code."""

from __future__ import annotations

import yaml

from server.api import openapi


def test_committed_spec_is_generated_from_the_code():
    committed = openapi.ROOT_SPEC.read_text(encoding="utf-8")
    generated = openapi.render()
    assert committed == generated, f"openapi.yaml is stale: run `{openapi.REGENERATE}`"


def test_the_generator_sees_the_served_routes(app):
    """The generator's bare app (no Redis) has the routes ``create_app`` serves."""
    assert openapi.build() == openapi.build(app)


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


def test_every_registered_game_has_its_view_state_and_moves():
    """A game added to the engines needs its ``<Game>State`` and ``<Game>Move`` here."""
    from server.games import REGISTRY

    assert set(openapi.GAMES) == set(REGISTRY)
    schemas = openapi.build()["components"]["schemas"]
    mapping = schemas["View"]["discriminator"]["mapping"]
    for game, prefix in openapi.GAMES.items():
        view = schemas[f"{prefix}View"]["properties"]
        assert mapping[game] == f"#/components/schemas/{prefix}View"
        assert view["game"]["const"] == game
        assert view["legal_moves"]["items"] == {"$ref": f"#/components/schemas/{prefix}Move"}
        assert schemas[f"{prefix}State"]["additionalProperties"] is False
